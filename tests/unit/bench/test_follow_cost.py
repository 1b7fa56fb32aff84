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

"""bench.follow_cost counts the follower's Heat calls from heat-api's log, works out its
figures per size, and bench.report renders them."""

import json

from bench import follow_cost
from bench import report

PROJECT = '1b097db4726e462b8b4662113fc21b85'
RUN = 'a3842d39-07a0-4761-a574-e13e9c5f7449'
CONFIG = '5f0e4c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b'
SOURCE = '9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a'
OTHER = '11111111-2222-4333-8444-555555555555'


def _access(method, path, status=200):
    return (f'127.0.0.1 - - [27/Nov/2026:04:14:31 +0000] "{method} /v1/{PROJECT}/{path} '
            f'HTTP/1.1" {status} 543 "-" "python-heatclient"')


# heat-api's own lines share the file with gunicorn's access lines.
OSLO_LINE = (f'2026-11-27 03:51:08.490 4855 INFO heat.common.wsgi [None req-b63f1cff-e303-46cd-'
             f'ac3d-54bf93beafb8 40ef4d4be5974a208b16ea021da796db {PROJECT} - - default default]'
             f' Processing request: GET /v1/{PROJECT}/software_deployments/{RUN}')
GUNICORN_LINE = '[2026-11-27 03:50:28 +0000] [4853] [INFO] Booting worker with pid: 4854'


def test_only_access_lines_are_requests():
    assert follow_cost.access_request(_access('GET', f'software_deployments/{RUN}')) == (
        'GET', f'/v1/{PROJECT}/software_deployments/{RUN}')
    assert follow_cost.access_request(OSLO_LINE) is None
    assert follow_cost.access_request(GUNICORN_LINE) is None


def test_a_call_is_named_without_its_project_ids_and_query():
    assert (follow_cost.call_kind('GET', f'/v1/{PROJECT}/software_configs/{CONFIG}?x=1')
            == 'GET software_configs/{id}')
    assert follow_cost.call_kind('GET', '/') == 'GET /'


def test_the_calls_naming_the_operation_are_counted_by_kind_and_the_rest_apart():
    lines = [GUNICORN_LINE, OSLO_LINE,
             _access('GET', f'software_deployments/{RUN}'),
             _access('GET', f'software_configs/{CONFIG}'),
             _access('GET', f'software_deployments/{RUN}'),
             _access('GET', f'software_configs/{SOURCE}'),
             _access('GET', f'software_deployments/{OTHER}'),
             _access('GET', 'software_deployments?server_id=x')]
    assert follow_cost.count_calls(lines, [RUN, CONFIG, SOURCE]) == {
        'total': 4, 'others': 2,
        'by_kind': {'GET software_deployments/{id}': 2, 'GET software_configs/{id}': 2}}


def test_the_log_is_read_past_the_offset(tmp_path):
    log = tmp_path / 'heat-api.log'
    log.write_text('before\n')
    offset = log.stat().st_size
    with open(log, 'a') as more:
        more.write('after 1\nafter 2\n')
    assert follow_cost.lines_from(log, offset) == ['after 1', 'after 2']


def test_the_outcome_is_read_from_mistral_s_json_output():
    outcome = {'ended_at': '2026-11-27T04:14:31Z', 'counts': {'COMPLETE': 2}}
    assert follow_cost.outcome_of(json.dumps({'outcome': outcome})) == outcome
    assert follow_cost.outcome_of({'outcome': outcome}) == outcome
    assert follow_cost.outcome_of(None) == {}
    assert follow_cost.outcome_of('{}') == {}


def test_ended_at_is_seconds_after_the_last_run_ended():
    # 2026-11-27T04:14:31Z is 1795752871 s since the epoch.
    assert follow_cost.ended_at_lag('2026-11-27T04:14:31Z', 1795752869.5) == 1.5


def _sample(seconds, calls, servers=2):
    return {'servers': servers, 'executions': 1, 'workflows': ['heat_deploy.follow_v1'],
            'tasks': 2, 'action_executions': 2,
            'action_executions_by_task': {'wait': 1, 'conclude': 1},
            'heat_calls': {'total': sum(calls.values()), 'by_kind': calls, 'others': 0},
            'seconds_to_success': seconds, 'ended_at_lag_seconds': seconds - 0.5}


def test_a_size_s_figures_are_medians_and_the_counts_seen():
    samples = [_sample(1.0, {'GET software_deployments/{id}': 10, 'GET software_configs/{id}': 3}),
               _sample(2.0, {'GET software_deployments/{id}': 12}),
               _sample(3.0, {'GET software_deployments/{id}': 14, 'GET software_configs/{id}': 3})]
    samples[2]['executions'] = 2
    found = follow_cost.summary(2, samples)
    assert found['executions'] == [1, 2]
    assert found['tasks'] == [2] and found['action_executions'] == [2]
    assert found['workflows'] == ['heat_deploy.follow_v1']
    assert found['heat_calls'] == [13, 12, 17]
    assert found['heat_calls_median'] == 13
    assert found['heat_calls_per_run_median'] == 6.5
    assert found['heat_calls_by_kind_median'] == {'GET software_configs/{id}': 3,
                                                  'GET software_deployments/{id}': 12}
    assert found['seconds_to_success'] == {'median': 2.0, 'max': 3.0, 'values': [1.0, 2.0, 3.0]}
    assert found['ended_at_lag_seconds'] == [0.5, 1.5, 2.5]
    assert follow_cost.summary(20, []) == {'servers': 20, 'rounds': 0}


def _results():
    calls = {'GET software_deployments/{id}': 10, 'GET software_configs/{id}': 3}
    return {'machine': {'nproc': 2, 'cpu_model': 'x', 'ram_gb': 8, 'python': '3.11',
                        'date': 'today', 'load_average_at_start': [1.0]},
            'follow_cost': {'run_seconds': 6, 'follower_poll_seconds': 1.5, 'failures': [],
                            'cleanup_leftovers': [],
                            'sizes': {'2': follow_cost.summary(2, [_sample(1.25, calls)]),
                                      '20': follow_cost.summary(20, [])}}}


def test_the_report_gives_each_size_a_row():
    table = report.markdown(_results())
    assert ('| Mistral following an operation started at once, 2 servers (BACKUP, '
            'TEMP_URL_SIGNAL, runs ended 6 s after it was made; per operation) | outcome '
            'recorded 1.250 s after the last run ended (max 1.250 s, n=1); 1 execution, 2 '
            'tasks, 2 action executions; 13 Heat API calls (GET software_configs/{id} 3, '
            'GET software_deployments/{id} 10) | - | - | - (reported) | - |') in table
    assert ('| Mistral following an operation started at once, 20 servers (BACKUP, '
            'TEMP_URL_SIGNAL, runs ended 6 s after it was made; per operation) | no operation '
            'ended as it should (0 failures) |') in table


def test_the_printed_table_has_a_line_per_size():
    lines = follow_cost.table(_results()['follow_cost'])
    assert len(lines) == 3
    assert lines[1].split() == ['2', '1', '2', '2', '13', '6.5', '1.250', '/', '1.250', 's']
    assert lines[2].split() == ['20', 'no', 'operation', 'ended', 'as', 'it', 'should']


def test_the_pacing_rows_read_against_issue_38s_goals():
    table = report.markdown({'machine': _results()['machine'], 'follower_pacing': {
        'paced': {'servers': 2, 'minutes': 5, 'per_run_hour': 150.4,
                  'heat_calls': {'total': 25, 'by_kind': {}, 'others': 0}},
        'deadline': {'lag_seconds': 16.0},
        'goal_heat_calls_per_run_hour': 240, 'goal_deadline_lag_seconds': 15}})

    assert ("| Mistral following runs with an hour's timeout (2 runs, 5 minutes) | 150 Heat "
            'API calls per run-hour | - | - | <= 240 | yes |') in table
    assert ('| a run that never reports: its deadline to its timeout in Heat | 16.000 s | - | '
            '- | <= 15 s | **no** |') in table
