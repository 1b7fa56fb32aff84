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

"""An operation's outcome, from its runs: each server told once, by its last try; a failed
one with its exit code, why, and the end of its stderr, none of the run's secrets in them."""

from datetime import datetime
from datetime import timedelta
from datetime import timezone

from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner.following import outcome
from heat_deploy_runner import masking
from heat_deploy_runner import Operation
from heat_deploy_runner import Run
from heat_deploy_runner.running.cancel import cancel_reason

SECRET = 'hunter2-the-long-one'
TEMP_URL = 'http://swift/v1/AUTH_p/c/o?temp_url_sig=5f3a9c0d1e&temp_url_expires=1'
CONFIG = {'name': 'mysql-BACKUP', 'group': 'component', 'config': 'echo', 'outputs': [],
          'inputs': [{'name': 'db_password', 'type': 'String', 'value': SECRET},
                     {'name': 'retention_days', 'type': 'Number', 'value': 3},
                     {'name': 'deploy_signal_id', 'type': 'String', 'value': TEMP_URL}]}
NOW = datetime(2026, 11, 27, 10, 0, 5, tzinfo=timezone.utc)


def _run(number, server, status='COMPLETE', try_number=None, tries=None, reason='Outputs',
         stderr='', code=0, config=CONFIG):
    operation = Operation('op-1', 'alice', '2026-11-27T09:00:00Z', 'c-1', runner='mistral',
                          try_number=try_number, tries=tries)
    return Run(f'run-{number}', server, f'config-{number}', 'BACKUP', status, reason,
               creation_time=f'2026-11-27T09:{number:02d}:00Z',
               input_values={OPERATION_OPTION: operation.as_option()},
               output_values={'deploy_stdout': '', 'deploy_stderr': stderr,
                              'deploy_status_code': code}, config=config)


def test_a_server_tried_again_counts_once_as_its_last_try_ended():
    runs = [_run(1, 's1', 'FAILED', 1, 3, code=2), _run(2, 's2', 'COMPLETE', 1, 3),
            _run(3, 's1', 'FAILED', 2, 3, code=2), _run(4, 's1', 'COMPLETE', 3, 3)]

    kept = outcome.outcome(runs, now=NOW)

    assert (kept['servers'], kept['counts'], kept['failed']) == (2, {'COMPLETE': 2}, [])
    assert outcome.failures(kept) == 0


def test_the_last_try_is_told_by_its_number_not_by_the_order_runs_are_listed_in():
    # Heat lists a server's runs newest first.
    runs = [_run(5, 's1', 'FAILED', 3, 3, code=7), _run(3, 's1', 'COMPLETE', 2, 3),
            _run(1, 's1', 'FAILED', 1, 3, code=1)]

    [failed] = outcome.outcome(runs, now=NOW)['failed']

    assert (failed['exit_code'], failed['tries']) == (7, 3)
    assert outcome.last_tries(runs)['s1'].id == 'run-5'


def test_runs_without_a_try_are_told_by_when_they_were_made():
    runs = [_run(2, 's1', 'FAILED', code=1), _run(1, 's1', 'COMPLETE')]

    assert outcome.last_tries(runs)['s1'].id == 'run-2'


def test_a_failed_server_is_told_with_its_code_reason_tail_and_tries():
    stderr = ''.join(f'line {number}\n' for number in range(1, 31))
    runs = [_run(1, 's1', 'FAILED', 1, 2, code=1), _run(2, 's1', 'FAILED', 2, 2,
                                                        reason='Deployment exited 3',
                                                        stderr=stderr, code=3)]

    [failed] = outcome.outcome(runs, now=NOW)['failed']

    assert failed == {'server_id': 's1', 'status': 'FAILED', 'exit_code': 3,
                      'reason': 'Deployment exited 3',
                      'stderr': '\n'.join(f'line {n}' for n in range(21, 31)),
                      'tries': 2}


def test_no_secret_of_the_run_is_in_what_a_failed_server_tells():
    runs = [_run(1, 's1', 'FAILED', reason=f'mysql said: bad password {SECRET}',
                 stderr=f'posting to {TEMP_URL}\nconnect -p{SECRET} failed\n', code=1)]

    kept = outcome.outcome(runs, now=NOW)

    assert SECRET not in repr(kept) and '5f3a9c0d1e' not in repr(kept)
    [failed] = kept['failed']
    assert failed['reason'] == f'mysql said: bad password {masking.MASK}'
    assert failed['stderr'].endswith(f'connect -p{masking.MASK} failed')


def test_no_part_of_a_secret_is_left_where_the_tail_cuts_into_it():
    key = '\n'.join(['-----BEGIN PRIVATE KEY-----'] + [f'K3yL1ne{n:02d}' * 8 for n in range(12)]
                    + ['-----END PRIVATE KEY-----'])
    config = dict(CONFIG, inputs=CONFIG['inputs'] + [
        {'name': 'ssh_private_key', 'type': 'String', 'value': key}])
    # Its last 8 characters, then the tail's last characters but 8.
    long_line = 'connect -p' + SECRET + ' ' + 'x' * (outcome.STDERR_CHARS - 9) + '\n'
    runs = [_run(1, 's1', 'FAILED', stderr=f'bad key:\n{key}\n', code=1, config=config),
            _run(2, 's2', 'FAILED', stderr=long_line, code=1)]

    told = repr(outcome.outcome(runs, now=NOW)['failed'])

    assert 'K3yL1ne' not in told and 'END PRIVATE' not in told
    assert SECRET[-8:] not in told


def test_a_failed_server_whose_config_is_gone_is_still_told():
    [failed] = outcome.outcome([_run(1, 's1', 'FAILED', reason='boom', config=None, code=1)],
                               now=NOW)['failed']

    assert (failed['reason'], failed['exit_code']) == ('boom', 1)


def test_a_cancelled_server_is_told_as_cancelled_and_a_timed_out_one_as_failed():
    cancelled = _run(1, 's1', 'FAILED', reason=cancel_reason('bob', NOW), code=None)
    timed_out = _run(2, 's2', 'FAILED', reason='Timed out after 60 minutes', code=None)

    kept = outcome.outcome([cancelled, timed_out], now=NOW)

    assert kept['counts'] == {'CANCELLED': 1, 'FAILED': 1}
    assert [(each['server_id'], each['status'], each['exit_code'])
            for each in kept['failed']] == [('s1', 'CANCELLED', None), ('s2', 'FAILED', None)]


def test_servers_never_run_count_and_tell_of_a_failure():
    kept = outcome.outcome([_run(1, 's1')], refused=[['s2', 'quota reached']],
                           not_started=['s3', 's4'], gone=['run-9'], now=NOW)

    assert kept['servers'] == 4 and kept['counts'] == {'COMPLETE': 1}
    assert (kept['refused'], kept['not_started'], kept['gone']) == (
        [['s2', 'quota reached']], ['s3', 's4'], ['run-9'])
    assert outcome.failures(kept) == 3
    assert outcome.failures(outcome.outcome([], not_started=['s3'], now=NOW)) == 1


def test_a_server_refused_on_a_later_try_counts_once():
    # s1 failed its first try; the second could not start (Heat's quota, say).
    runs = [_run(1, 's1', 'FAILED', 1, 2, code=1), _run(2, 's2', 'COMPLETE', 1, 2)]

    kept = outcome.outcome(runs, refused=[['s1', 'quota reached']], now=NOW)

    assert kept['servers'] == 2
    told = [each['server_id'] for each in kept['failed']] + [s for s, _w in kept['refused']]
    assert told == ['s1']


def test_a_huge_line_of_stderr_leaves_the_outcome_small_enough_to_keep_and_post():
    # Mistral keeps a task's result up to 1 MiB; Zaqar takes a message up to 256 KiB.
    runs = [_run(number, f's{number}', 'FAILED', code=1, stderr='x' * 1024 * 1024)
            for number in range(1, 4)]

    kept = outcome.outcome(runs, now=NOW)

    assert len(repr(kept)) < 64 * 1024
    assert all(each['stderr'].endswith('x') for each in kept['failed'])


def test_the_end_is_said_in_utc_as_heat_says_its_times():
    local = NOW.astimezone(timezone(timedelta(hours=-5)))

    assert outcome.outcome([], now=local)['ended_at'] == '2026-11-27T10:00:05Z'
