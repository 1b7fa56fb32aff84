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

"""List page cost: the deployments page against the heatclient call it needs; the Components
page against its two Heat listings (issue #40: every config, every deployment).

The page is rendered by Django's test client in a process configured like the cloud's Horizon
(bench.horizon_side), which the issue allows and which no gunicorn worker timeout can cut
short; one view over HTTP through the cloud's gunicorn is recorded beside it. The first view
after seeding reads the new runs' derived configs into the cache and is reported on its own;
after it the page's only Heat call is listing the project's deployments, and the baseline
makes that same call through a bare heatclient.
"""

import time

from bench import measure

PAGE = '/project/deployments/'
COMPONENTS_PAGE = '/project/components/'
# Horizon's own Settings page makes no backend call: what any Horizon page costs before its
# panel does anything (the sidebar, the header, the templates), shown beside the ratio.
HORIZON_FLOOR_PAGE = '/settings/'
# Longer than gunicorn's 120 s worker timeout, so what the HTTP view ends with is gunicorn's.
HTTP_TIMEOUT = 300


def view(dashboard, path=PAGE):
    """One page view over HTTP: (HTTP status, bytes)."""
    response = dashboard.http.get(dashboard.url(path), timeout=HTTP_TIMEOUT)
    return response.status_code, len(response.content)


def _http_view(dashboard):
    started = time.perf_counter()
    try:
        status, size = view(dashboard)
    except OSError as error:
        status, size = f'{type(error).__name__}', 0
    return {'status': status, 'bytes': size, 'seconds': time.perf_counter() - started}


def measure_list(horizon, raw_heat, dashboard, rounds):
    first = horizon.view(PAGE)
    views = []

    def page():
        views.append(horizon.view(PAGE))

    def raw():
        list(raw_heat.software_deployments.list())

    floors = []

    def floor():
        floors.append(horizon.view(HORIZON_FLOOR_PAGE))

    # The first view above was the warm-up.
    samples = measure.interleaved({'page': page, 'raw': raw, 'floor': floor}, rounds,
                                  warmup=0)
    return {
        'first_view': first,
        'samples': {name: measure.rounded(values) for name, values in samples.items()},
        'page_median': measure.median(samples['page']),
        'raw_median': measure.median(samples['raw']),
        'horizon_floor_median': measure.median(samples['floor']),
        'ratio': measure.ratio(samples['page'], samples['raw']),
        'page_statuses': sorted({v['status'] for v in views}),
        'page_calls': views[-1]['calls'],
        'policy_checks': {'page': views[-1]['policy_checks'],
                          'floor': floors[-1]['policy_checks']},
        'http_view': _http_view(dashboard),
    }


def measure_components(horizon, raw_heat, rounds):
    """The Components page (after one view) against the two listings it cannot do without,
    made one after the other through a bare heatclient."""
    horizon.view(COMPONENTS_PAGE)
    views = []

    def page():
        views.append(horizon.view(COMPONENTS_PAGE))

    def listings():
        list(raw_heat.software_configs.list())
        list(raw_heat.software_deployments.list())

    samples = measure.interleaved({'page': page, 'listings': listings}, rounds, warmup=0)
    return {
        'samples': {name: measure.rounded(values) for name, values in samples.items()},
        'page_median': measure.median(samples['page']),
        'listings_median': measure.median(samples['listings']),
        'ratio': measure.ratio(samples['page'], samples['listings']),
        'page_statuses': sorted({each['status'] for each in views}),
        'page_calls': views[-1]['calls'],
    }


def report_rows(results):
    """bench/RESULTS.md's row of the Components page (report.markdown)."""
    found = results.get('components_cost')
    if not found:
        return []
    calls = ', '.join(f'{service} {count}' for service, count in sorted(
        found['page_calls'].items()))
    return [(f'Components page at {found["deployments"]:,} deployments (a view after one; '
             f'backend calls: {calls})',
             f'{found["page_median"]:.3f} s (statuses {found["page_statuses"]})',
             f'Heat\'s listings of every config and every deployment, '
             f'{found["listings_median"]:.3f} s', f'{found["ratio"]:.2f}', '- (reported)', '-')]
