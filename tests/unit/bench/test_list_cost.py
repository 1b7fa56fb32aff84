# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

"""The Components page's figure: its view against its two Heat listings, in turn."""

from bench import list_cost
from bench import report


class _Horizon:
    def __init__(self):
        self.viewed = []

    def view(self, path):
        self.viewed.append(path)
        return {'status': 200, 'seconds': 0.1, 'calls': {'heat_api': 3}}


class _Listed:
    def __init__(self, name, made):
        self.name, self.made = name, made

    def list(self):
        self.made.append(self.name)
        return []


class _Heat:
    def __init__(self):
        self.made = []
        self.software_configs = _Listed('configs', self.made)
        self.software_deployments = _Listed('deployments', self.made)


def test_the_page_is_measured_against_both_listings_in_turn():
    horizon, heat = _Horizon(), _Heat()

    found = list_cost.measure_components(horizon, heat, rounds=3)

    # One view first, not counted; then page and listings in turn.
    assert horizon.viewed == [list_cost.COMPONENTS_PAGE] * 4
    assert heat.made == ['configs', 'deployments'] * 3
    assert len(found['samples']['page']) == len(found['samples']['listings']) == 3
    assert found['page_calls'] == {'heat_api': 3} and found['page_statuses'] == [200]


def test_the_report_gives_the_ratio():
    results = {'machine': {'nproc': 2, 'cpu_model': 'x', 'ram_gb': 8, 'python': '3.11',
                           'date': 'today', 'load_average_at_start': [1.0]},
               'components_cost': {'deployments': 10000, 'page_median': 2.4,
                                   'listings_median': 2.0, 'ratio': 1.2, 'page_statuses': [200],
                                   'page_calls': {'heat_api': 3}}}

    assert ('| Components page at 10,000 deployments (a view after one; backend calls: '
            'heat_api 3) | 2.400 s (statuses [200]) | Heat\'s listings of every config and '
            'every deployment, 2.000 s | 1.20 | - (reported) | - |') in report.markdown(results)


def test_at_1000_runs_the_goal_bounds_what_the_page_costs_beyond_heats_list_and_the_floor():
    def results(page):
        return {'machine': {'nproc': 2, 'cpu_model': 'x', 'ram_gb': 8, 'python': '3.11',
                            'date': 'today', 'load_average_at_start': [1.0]},
                'list_cost': {'1000': {
                    'first_view': {'seconds': 0.6, 'cache': {'misses': 0}},
                    'http_view': {'status': 200, 'seconds': 0.35},
                    'horizon_floor_median': 0.2, 'page_median': page, 'raw_median': 0.25}}}

    assert ('| heatclient list 0.250 s | 0.20 | page - floor - list <= 0.5 x list | yes |'
            in report.markdown(results(0.5)))
    assert ('| heatclient list 0.250 s | 0.60 | page - floor - list <= 0.5 x list | **no** |'
            in report.markdown(results(0.6)))
