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

import datetime

from heat_deploy_runner import masking
from heat_deploy_runner import Run
from heat_deploy_runner.running import runs

UTC = datetime.timezone.utc
CONFIG = {
    'inputs': [
        {'name': 'tables', 'type': 'CommaDelimitedList', 'value': ['users']},
        {'name': 'db_password', 'type': 'String', 'value': 'pw'},
        {'name': 'deploy_action', 'type': 'String', 'value': 'BACKUP'},
        {'name': 'deploy_signal_transport', 'type': 'String', 'value': 'TEMP_URL_SIGNAL'},
        {'name': 'deploy_signal_id', 'type': 'String',
         'value': 'http://swift/v1/AUTH_a/c/o?temp_url_sig=abc&temp_url_expires=9'},
    ],
    'outputs': [{'name': 'backup_file', 'description': 'Archive'},
                {'name': 'failure', 'error_output': True}],
}


def _run(config=None, **heat_keys):
    return Run(id='r1', server_id='s1', config_id='c1', **heat_keys).described(config)


def test_duration_of_a_finished_run_ends_at_its_last_update():
    run = _run(status='COMPLETE', creation_time='2026-11-22T03:00:00Z',
               updated_time='2026-11-22T03:01:05Z')
    assert runs.format_duration(runs.duration(run)) == '1m 05s'


def test_duration_of_a_running_run_is_the_time_so_far():
    run = _run(status='IN_PROGRESS', creation_time='2026-11-22T03:00:00Z')
    now = datetime.datetime(2026, 11, 22, 4, 2, 3, tzinfo=UTC)
    assert runs.format_duration(runs.duration(run, now)) == '1h 02m 03s'


def test_duration_is_unknown_without_times_and_never_negative():
    assert runs.duration(_run(status='COMPLETE')) is None
    assert runs.format_duration(None) == ''
    skewed = _run(status='COMPLETE', creation_time='2026-11-22T03:00:05Z',
                  updated_time='2026-11-22T03:00:00Z')
    assert runs.format_duration(runs.duration(skewed)) == '0s'


def test_run_inputs_leave_out_heats_own_and_mask_secrets():
    assert runs.run_inputs(CONFIG) == [
        {'name': 'tables', 'type': 'CommaDelimitedList', 'value': 'users'},
        {'name': 'db_password', 'type': 'String', 'value': masking.MASK},
    ]


def test_run_inputs_are_text_on_one_line():
    config = {'inputs': [
        {'name': 'labels', 'type': 'Json', 'value': {'b': [1], 'a': 'x'}},
        {'name': 'compress', 'type': 'Boolean', 'value': True},
        {'name': 'unset', 'type': 'String', 'value': None}]}
    assert [i['value'] for i in runs.run_inputs(config)] == [
        '{"a": "x", "b": [1]}', 'true', '']


def test_signal_details_show_the_transport_and_a_masked_target():
    details = runs.signal_details(CONFIG)
    assert details['deploy_signal_transport'] == 'TEMP_URL_SIGNAL'
    assert 'abc' not in details['deploy_signal_id']
    assert details['target'] == details['deploy_signal_id']


def test_a_zaqar_signed_url_target_is_the_url_posted_to_and_its_signature_is_masked():
    config = {'inputs': [
        {'name': 'deploy_signal_transport', 'value': 'ZAQAR_SIGNED_URL_SIGNAL'},
        {'name': 'deploy_zaqar_endpoint', 'value': 'http://zaqar:8888/'},
        {'name': 'deploy_zaqar_paths', 'value': '/v2/queues/q-1/messages'},
        {'name': 'deploy_zaqar_signature', 'value': 'f00d'},
        {'name': 'deploy_zaqar_expires', 'value': '2026-11-22T07:00:00'}]}
    details = runs.signal_details(config)
    assert details['target'] == 'http://zaqar:8888/v2/queues/q-1/messages'
    assert details['deploy_zaqar_signature'] == '********'
    assert 'f00d' not in str(details)


def test_heat_zaqar_signal_target_is_its_queue_and_the_password_is_masked():
    config = {'inputs': [
        {'name': 'deploy_signal_transport', 'value': 'ZAQAR_SIGNAL'},
        {'name': 'deploy_queue_id', 'value': 'q-2'},
        {'name': 'deploy_password', 'value': 'hunter2'}]}
    details = runs.signal_details(config)
    assert details['target'] == 'q-2'
    assert 'hunter2' not in str(details)


def test_a_long_output_shown_from_its_end_says_which_line_it_starts_with():
    whole = ''.join(f'line {n}\n' for n in range(1, 30001))
    run = _run(CONFIG, output_values={'deploy_stdout': whole, 'deploy_stderr': '',
                                      'deploy_status_code': 0})

    [stdout, *_rest] = runs.outputs(run)

    first = stdout['first_line']
    # The text starts in the middle of that line (or at its start).
    assert whole.split('\n')[first - 1].endswith(stdout['text'].split('\n')[0])
    assert stdout['text'].split('\n')[1] == f'line {first + 1}'


def test_outputs_come_in_order_and_long_ones_keep_their_end_with_their_size():
    big = 'beginning ' + 'x' * runs.DISPLAY_LIMIT + 'error at the end\n'
    lines = [f'line {n}' for n in range(1, runs.TAIL_LINES + 2)]
    run = _run(CONFIG, output_values={
        'deploy_stdout': big, 'deploy_stderr': '\n'.join(lines) + '\n',
        'deploy_status_code': 0, 'backup_file': 'b.tar', 'failure': {'code': 3}})
    shown = runs.outputs(run)
    assert [o['name'] for o in shown] == ['deploy_stdout', 'deploy_stderr',
                                          'backup_file', 'failure']
    assert shown[0]['truncated'] and shown[0]['size'] == len(big)
    assert (shown[0]['first_line'], shown[1]['first_line']) == (1, 1)
    assert shown[0]['size_kb'] == 101
    assert len(shown[0]['text']) == runs.DISPLAY_LIMIT
    assert shown[0]['text'].endswith('error at the end\n') and 'beginning' not in shown[0]['text']
    assert not shown[1]['truncated'] and shown[1]['tail_cut']
    assert shown[1]['tail'] == '\n'.join(lines[1:])
    assert not shown[2]['truncated'] and shown[2]['description'] == 'Archive'
    assert shown[3]['error_output'] and '"code": 3' in shown[3]['text']


def test_outputs_of_a_run_without_results_are_empty_text():
    shown = runs.outputs(_run(CONFIG))
    assert {o['text'] for o in shown} == {''}


def test_a_rerun_gets_each_input_as_typed_but_no_secret():
    config = {'inputs': CONFIG['inputs'] + [
        {'name': 'labels', 'type': 'Json', 'value': {'a': 1}},
        {'name': 'compress', 'type': 'Boolean', 'value': False},
        {'name': 'unset', 'type': 'String', 'value': None}]}
    assert runs.rerun_inputs(config) == {
        'tables': 'users', 'labels': '{\n  "a": 1\n}', 'compress': 'false'}


def test_the_exit_code_is_the_reported_status_code_none_before_a_report():
    assert runs.exit_code(_run(output_values={'deploy_status_code': 3})) == 3
    assert runs.exit_code(_run(output_values={'deploy_status_code': 0})) == 0
    assert runs.exit_code(_run()) is None
