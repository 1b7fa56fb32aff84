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

"""bench.schedule_calls makes records the dashboard's schedules read, never one that fires
during the bench, and bench.report renders the figure."""

import datetime

from bench import report
from bench import report_storage
from bench import schedule_calls
from heat_deploy_runner.scheduling import cron
from heat_deploy_runner import workflows

NAME = 'hdd-3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c'


def test_its_record_is_one_the_dashboard_schedules():
    record = schedule_calls.schedule_record('config-id', 'demo-mysql-abc', 'mysql',
                                            ['db-1', 'db-2'], '0 0 1 5 *')
    assert workflows.schedule_input(record, NAME, 'demo')['server_ids'] == ['db-1', 'db-2']
    assert cron.valid_pattern(record['pattern'])


def test_its_pattern_fires_months_away_whatever_the_day():
    day = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    while day.year == 2026:
        pattern = schedule_calls.far_pattern(day)
        assert cron.valid_pattern(pattern)
        [first] = cron.next_times(pattern, count=1, now=day)
        assert first - day > datetime.timedelta(days=120), (day, pattern)
        day += datetime.timedelta(hours=13)


def _at(count, calls, rows):
    making = {'made': count, 'seconds': count / 2.5, 'per_second': 2.5,
              'one_median_seconds': 3.2, 'one_p95_seconds': 5.1}
    again = {'statuses': [200], 'seconds': [0.1, 0.12, 0.11, 0.1], 'median_seconds': 0.105,
             'calls': {'keystone': 2, 'mistral': 3}, 'policy_checks': 51,
             'calls_constant': True}
    return {'first': {'status': 200, 'seconds': 2.5, 'calls': calls, 'policy_checks': 51},
            'again': again, 'mistral_lists': {'seconds': [0.05] * 4, 'median_seconds': 0.05},
            'schedules': count, 'making': making,
            'http': {'status': 200, 'seconds': 1.5, 'rows': rows}}


def _results():
    results = {'machine': {'nproc': 2, 'cpu_model': 'x', 'ram_gb': 8, 'python': '3.11',
                           'date': 'today', 'load_average_at_start': [1.0]},
               'schedule_calls': {
                   'threads': 8, 'failures': [], 'past_limit': {
                       'status': 200, 'seconds': 3.0, 'rows': 1000, 'schedules': 1001},
                   'deleting': {'deleted': 1001, 'seconds': 400.0, 'leftovers': []},
                   'scales': {'10': _at(10, {'keystone': 2, 'mistral': 3}, 10),
                              '1000': _at(990, {'heat_api': 5, 'keystone': 2, 'mistral': 3},
                                          1000)}}}
    results['schedule_calls']['scales']['1000']['schedules'] = 1000
    return results


def test_the_report_gives_each_scale_the_limit_and_the_making():
    table = report.markdown(_results())
    assert ('| Schedules page, 10 schedules: backend calls per view | keystone 2, mistral 3; '
            'median 0.105 s of 4 views, HTTP 200 (first view 200 in 2.500 s); 10 of 10 rows '
            'shown over HTTP (200 in 1.500 s) | its 3 Mistral lists called directly 0.050 s '
            '| 2.10 | - (reported) | - |') in table
    assert ('keystone 2, mistral 3 (first view: heat_api 5, keystone 2, mistral 3)'
            in table)
    assert '1,000 of 1,001 rows shown over HTTP' in table
    assert 'making 1,000 schedules' in table
    assert 'deleting all 1,001 took 400 s' in table


def test_the_rows_are_counted_over_every_page_of_the_table():
    more = ('<tfoot><tr><td><span class="table_count">Displaying 20 items</span>'
            '<a href="?marker=hdd-3f2a&amp;tab=x">More&nbsp;&raquo;</a></td></tr></tfoot>')
    assert schedule_calls.next_page(more) == '?marker=hdd-3f2a&tab=x'
    assert schedule_calls.next_page('<tfoot><tr><td>Displaying 2 items</td></tr>') is None
    assert report_storage.rows_shown(
        {'status': 200, 'seconds': 0.2, 'rows': 1001, 'pages': 51}, 1001) == (
        '1,001 of 1,001 rows shown over HTTP on 51 pages (200 in 0.200 s the first)')


def test_the_goal_is_the_mistral_lists_plus_horizons_floor_from_the_list_page_cost():
    results = _results()
    # The Settings page as the list page cost measured it; its other keys play no part here.
    results['list_cost'] = {'1000': {'horizon_floor_median': 0.03}}
    at_10 = report_storage.schedule_rows(results)[0]
    assert at_10[2:] == ("its 3 Mistral lists called directly 0.050 s + Horizon's floor "
                         '0.030 s (its Settings page)', '1.31', '<= 1.5 x (lists + floor)',
                         'yes')
    results['list_cost']['1000']['horizon_floor_median'] = 0.019
    assert report_storage.schedule_rows(results)[0][3:] == (
        '1.52', '<= 1.5 x (lists + floor)', '**no**')
