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

"""soak.figures reads the soak's goals from what the cloud holds once the load has stopped:
results lost, runs left running, servers run twice by one operation, notices missing or
doubled, server errors and the slowest page while a service was down."""

from datetime import datetime
from datetime import timedelta
from datetime import timezone

from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner import Run
from soak import figures

NOW = datetime(2026, 11, 28, 1, 0, tzinfo=timezone.utc)


def _run(run_id, server='s1', status='COMPLETE', reason='', operation='op-1', try_number=None,
         deadline_ago=None):
    kept = {'operation': operation, 'started_by': 'demo', 'started_at': '2026-11-28T00:00:00Z'}
    if try_number:
        kept.update({'try': try_number, 'tries': 2})
    config = None
    if deadline_ago is not None:
        expires = int((NOW - timedelta(seconds=deadline_ago)).timestamp())
        config = {'inputs': [{'name': 'deploy_signal_id', 'value':
                              f'https://swift/v1/AUTH_p/c/o?temp_url_expires={expires}'}]}
    return Run(run_id, server, 'c', status=status, status_reason=reason,
               input_values={OPERATION_OPTION: kept}, config=config)


def test_a_reported_run_still_running_or_timed_out_is_a_lost_result():
    runs = [_run('r1'), _run('r2', status='IN_PROGRESS'),
            _run('r3', status='FAILED', reason='Timed out: no result by ...'),
            _run('r4', status='FAILED', reason='Cancelled by demo'),
            _run('r5', status='IN_PROGRESS')]

    assert figures.lost(runs, reported={'r1', 'r2', 'r3', 'r4'}) == ['r2', 'r3']


def test_a_run_running_two_minutes_past_its_deadline_was_left():
    runs = [_run('r1', status='IN_PROGRESS', deadline_ago=121),
            _run('r2', status='IN_PROGRESS', deadline_ago=60),
            _run('r3', status='COMPLETE', deadline_ago=600)]

    assert figures.stuck(runs, NOW) == ['r1']


def test_one_operations_second_run_of_one_try_on_a_server_is_a_double():
    runs = [_run('r1'), _run('r2'), _run('r3', server='s2'),
            _run('r4', try_number=1), _run('r5', try_number=2), _run('r6', operation='op-2')]

    assert figures.doubled(runs) == [('op-1', None, 's1')]


def test_each_concluded_operation_has_exactly_one_notice():
    told = [{'operation': 'op-1'}, {'operation': 'op-2'}, {'operation': 'op-2'}]

    assert figures.notices(['op-1', 'op-2', 'op-3'], told) == (['op-3'], ['op-2'])


def test_pages_count_server_errors_and_the_slowest_reply_while_a_service_was_down():
    replies = [(1.0, 0.2, 200), (5.0, 3.5, 200), (6.0, 0.4, 500), (7.0, 20.0, None),
               (30.0, 9.0, 200)]

    assert figures.pages(replies, [('zaqar', 4.0, 8.0)]) == (2, 20.0)


def test_the_status_polls_503_naming_a_service_down_is_no_server_error():
    replies = [(5.0, 0.4, 503), (50.0, 0.2, 503), (60.0, 0.2, 502)]

    assert figures.pages(replies, [('zaqar', 4.0, 8.0)]) == (1, 0.4)


def test_a_page_whose_horizon_worker_was_killed_under_it_is_no_server_error():
    replies = [(10.0, 0.5, None), (12.0, 0.2, None), (13.0, 0.1, 502)]

    assert figures.pages(replies, [('horizon-worker', 10.3, 30.3)]) == (2, 0.2)


def test_failed_pages_are_counted_by_the_outage_they_started_in_or_just_after():
    replies = [(1.0, 0.2, None), (5.0, 3.5, 200), (6.0, 0.4, 502), (27.0, 20.0, None),
               (29.0, 0.1, None), (40.0, 0.1, 500)]

    assert figures.failed_pages(replies, [('zaqar', 4.0, 8.0), ('memcached', 35.0, 45.0)]
                                ) == {'none': 2, 'zaqar': 2, 'memcached': 1}


def test_each_failed_reply_is_kept_with_when_it_started():
    replies = [(1.04, 0.2, 200, '/a/'), (6.0, 0.4, 500, '/b/'), (7.0, 0.4, 503, '/c/'),
               (27.26, 20.004, None, '/d/')]

    assert figures.failed_replies(replies) == [[6.0, 0.4, 500, '/b/'],
                                               [27.3, 20.0, None, '/d/']]


def test_the_goals_hold_only_with_nothing_lost_doubled_or_failed():
    found = figures.summary([_run('r1')], {'r1'}, ['op-1'], [{'operation': 'op-1'}],
                            [(1.0, 0.3, 200)], [], NOW)
    assert figures.met(found)
    assert not figures.met(dict(found, server_errors=1))
    assert not figures.met(dict(found, slowest_page_while_down_seconds=21))


def test_operations_ended_without_an_outcome_are_counted_by_their_reasons_first_words():
    stopped = {'e1': 'Skipped: every server is still running an earlier run (r1).',
               'e2': 'Skipped: every server is still running an earlier run (r2).',
               'e3': 'Stopped: Mistral could not go on acting for the user. Runs go on.'}

    assert figures.by_reason(stopped) == {
        'Skipped: every server is still running an earlier run': 2,
        'Stopped: Mistral could not go on acting for the user': 1}
