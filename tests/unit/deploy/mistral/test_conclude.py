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

"""The conclude action: each server's last try recorded as the operation's outcome, and its
notice posted to the subscribed queues only, with no secret input in it."""

import json

from heatclient import exc as heat_exc
import pytest
from zaqarclient.transport import errors as zaqar_errors

import heat_deploy_runner as runner
from heat_deploy_runner.following import notices
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import conclusion
from heat_deploy_runner.mistral import ended_runs as ended_runs_mod
from heat_deploy_runner.mistral import following
from heat_deploy_runner import Run
from heat_deploy_runner.workflows import secret_store
from tests.unit.deploy.mistral.case import ended
from tests.unit.deploy.mistral.case import EXECUTION_ID


SCHEDULE = 'hdd-6e7f8a9b-0c1d-4e2f-9a3b-4c5d6e7f8a9b'


SECRET = 'hunter2-of-the-db'


def _tried(context, component, servers, try_number, tries=2, **request):
    return actions.StartAction(component, 'BACKUP', servers, 'alice', '2026-11-24T10:00:00Z',
                               name='mysql', try_number=try_number, tries=tries,
                               **request).run(context)['deployment_ids']


def test_conclude_records_the_outcome_of_each_servers_last_try(
        cloud, context, heat, component):
    first = _tried(context, component, ['s1', 's2'], 1)
    ended(heat, first[0], 'COMPLETE')
    ended(heat, first[1], 'FAILED', 1, reason='Deployment exited 1')
    again = _tried(context, component, ['s2'], 2)
    ended(heat, again[0], 'FAILED', 3, 'no space left\n', 'Deployment exited 3')

    kept = conclusion.ConcludeAction(component, 'BACKUP', first + again,
                                     refused=[['s3', 'quota reached']],
                                     not_started=['s4']).run(context)

    assert (kept['servers'], kept['counts']) == (4, {'COMPLETE': 1, 'FAILED': 1})
    assert kept['failed'] == [{'server_id': 's2', 'status': 'FAILED', 'exit_code': 3,
                               'reason': 'Deployment exited 3', 'stderr': 'no space left',
                               'tries': 2}]
    assert (kept['refused'], kept['not_started'], kept['gone']) == (
        [['s3', 'quota reached']], ['s4'], [])
    # No Zaqar in the catalog: nothing posted, nothing said failed.
    assert 'notified' not in kept and 'notice_failed' not in kept
    # The workflow publishes it as the execution's output: JSON.
    assert json.loads(json.dumps(kept)) == kept


def test_conclude_reads_the_config_of_a_failed_run_only(cloud, context, heat, component):
    """Its secrets are scrubbed from the stderr told; a complete run's config tells nothing:
    at 200 servers, reading every one cost the outcome 2 s."""
    complete, failed = _tried(context, component, ['s1', 's2'], 1, tries=1)
    ended(heat, complete, 'COMPLETE')
    ended(heat, failed, 'FAILED', 1, reason='Deployment exited 1')
    already = len(heat.called('software_configs.get'))

    conclusion.ConcludeAction(component, 'BACKUP', [complete, failed]).run(context)

    assert [call[1] for call in heat.called('software_configs.get')[already:]] == [
        (heat.deployments[failed]['config_id'],)]


def test_conclude_counts_a_run_deleted_meanwhile_as_gone(cloud, context, heat, component):
    kept_id, gone_id = _tried(context, component, ['s1', 's2'], 1, tries=1)
    ended(heat, kept_id, 'COMPLETE')
    runner.delete(heat, gone_id, cloud.find_transport)

    kept = conclusion.ConcludeAction(component, 'BACKUP', [kept_id, gone_id]).run(context)

    assert (kept['servers'], kept['gone']) == (1, [gone_id])


def test_conclude_reads_again_none_of_the_runs_its_wait_just_saw_ended(
        cloud, context, heat, component):
    """At 200 runs, reading them all again took 2 s of the outcome's lag."""
    done, failed, running = _tried(context, component, ['s1', 's2', 's3'], 1, tries=1)
    ended(heat, done, 'COMPLETE')
    ended(heat, failed, 'FAILED', 1, reason='Deployment exited 1')
    actions.WaitAction([done, failed]).run(context)
    shows = len(heat.called('software_deployments.get'))

    kept = conclusion.ConcludeAction(component, 'BACKUP', [done, failed, running]).run(context)

    assert [call[1] for call in heat.called('software_deployments.get')[shows:]] == [
        (running,)]
    assert kept['counts'] == {'COMPLETE': 1, 'FAILED': 1, 'IN_PROGRESS': 1}
    assert kept['failed'][0]['reason'] == 'Deployment exited 1'


def test_runs_seen_ended_are_kept_a_while_and_for_their_project_only(
        cloud, context, heat, component, ended_runs, monkeypatch):
    done, gone = _tried(context, component, ['s1', 's2'], 1, tries=1)
    ended(heat, done, 'COMPLETE')
    ended(heat, gone, 'COMPLETE')
    actions.WaitAction([done, gone]).run(context)
    runner.delete(heat, gone, cloud.find_transport)

    # Deleted since the wait, within the time runs are kept: counted as the wait saw it.
    assert conclusion.ConcludeAction(component, 'BACKUP', [done, gone]).run(context)['gone'] == []
    # Another project's conclusion reads its own.
    monkeypatch.setattr(type(cloud), 'project_id', property(lambda self: 'another'))
    assert conclusion.ConcludeAction(component, 'BACKUP', [done, gone]).run(context)['gone'] == [
        gone]


def test_a_run_kept_longer_than_its_time_is_read_again():
    now = [100.0]
    kept = ended_runs_mod.EndedRuns(seconds=60, clock=lambda: now[0])
    run = Run('r1', 's1', 'c1', status='COMPLETE')
    kept.keep('p1', [run])

    now[0] += 59
    assert kept.get('p1', 'r1') is run and kept.get('p2', 'r1') is None
    now[0] += 1
    assert kept.get('p1', 'r1') is None


def test_conclude_posts_its_notice_to_the_subscribed_queues_only(
        notified_cloud, context, heat, zaqar, component):
    notices.subscribe(zaqar, component, notices.ON_FAILURE, 'https://hooks.example.com/a')
    notices.subscribe(zaqar, SCHEDULE, notices.ALWAYS, 'mailto:ops@example.com')
    # Told only of successes of this operation: a failure posts there too (always).
    notices.subscribe(zaqar, EXECUTION_ID, notices.ALWAYS, 'https://hooks.example.com/b')
    # Another component's subscribers hear nothing.
    notices.subscribe(zaqar, 'other-component', notices.ALWAYS, 'https://hooks.example.com/c')
    ids = _tried(context, component, ['s1', 's2'], 1, tries=1)
    ended(heat, ids[0], 'COMPLETE')
    ended(heat, ids[1], 'FAILED', 1, reason='Deployment exited 1')

    kept = conclusion.ConcludeAction(component, 'BACKUP', ids, schedule=SCHEDULE,
                                     server_names={'s2': 'db-2'},
                                     link='https://dash/ops/{operation}/').run(context)

    told = [notices.queue_name(EXECUTION_ID, 'always'),
            notices.queue_name(component, 'failure'), notices.queue_name(SCHEDULE, 'always')]
    assert kept['notified'] == told
    assert sorted(zaqar.queues) == sorted(told)
    [message] = zaqar.bodies(told[0])
    assert all(zaqar.bodies(name) == [message] for name in told)
    assert message['summary'] == 'BACKUP of mysql: 1 of 2 servers failed (db-2).'
    assert (message['operation'], message['schedule'], message['link']) == (
        EXECUTION_ID, SCHEDULE, f'https://dash/ops/{EXECUTION_ID}/')


def test_no_secret_input_of_the_runs_is_in_their_notice_or_outcome(
        notified_cloud, context, heat, swift, zaqar, component):
    notices.subscribe(zaqar, component, notices.ALWAYS, 'https://hooks.example.com/a')
    secret_store.put(swift, 'hdd-1', {'db_password': SECRET})
    [run_id] = _tried(context, component, ['s1'], 1, tries=1, secret_ref='hdd-1')
    signal_url = runner.derived_input_values(
        heat.configs[heat.deployments[run_id]['config_id']])['deploy_signal_id']
    ended(heat, run_id, 'FAILED', 1, f'mysqldump -p{SECRET}: access denied\n{signal_url}\n',
          f'Deployment exited 1: password {SECRET} refused')

    kept = conclusion.ConcludeAction(component, 'BACKUP', [run_id]).run(context)

    [posted] = zaqar.bodies(notices.queue_name(component, 'always'))
    sent = json.dumps([posted, kept])
    assert SECRET not in sent and signal_url not in sent
    assert posted['failed_servers'][0]['stderr'].startswith('mysqldump -p********: ')


@pytest.mark.parametrize('failing', ['queue.post', 'subscriptions'])
def test_a_notice_that_could_not_be_posted_is_recorded_not_raised(
        notified_cloud, context, heat, zaqar, component, failing):
    notices.subscribe(zaqar, component, notices.ALWAYS, 'https://hooks.example.com/a')
    [run_id] = _tried(context, component, ['s1'], 1, tries=1)
    ended(heat, run_id, 'COMPLETE')
    zaqar.fail(failing, zaqar_errors.ServiceUnavailableError('Zaqar is down'))

    kept = conclusion.ConcludeAction(component, 'BACKUP', [run_id]).run(context)

    assert kept['counts'] == {'COMPLETE': 1}
    assert 'Zaqar is down' in kept['notice_failed'] and 'notified' not in kept


def test_a_notice_zaqar_refused_is_tried_again_and_posted_once_to_each_queue(
        notified_cloud, context, heat, zaqar, component, monkeypatch):
    notices.subscribe(zaqar, EXECUTION_ID, notices.ALWAYS, 'https://hooks.example.com/b')
    notices.subscribe(zaqar, component, notices.ALWAYS, 'https://hooks.example.com/a')
    [run_id] = _tried(context, component, ['s1'], 1, tries=1)
    ended(heat, run_id, 'COMPLETE')
    # The first try reaches the operation's queue, then Zaqar goes before the component's;
    # after a restart it cannot list messages for a while (a 503), so the retry must not
    # need to.
    refusals = [zaqar_errors.ServiceUnavailableError('Zaqar is restarting')]
    zaqar.fail('queue.post', refusals[0], when=lambda name, messages: (
        name == notices.queue_name(component, notices.ALWAYS) and refusals
        and refusals.pop()))
    zaqar.fail('queue.messages', zaqar_errors.ServiceUnavailableError('cannot list'))

    kept = conclusion.ConcludeAction(component, 'BACKUP', [run_id]).run(context)

    assert 'notice_failed' not in kept and len(kept['notified']) == 2
    for subject in (EXECUTION_ID, component):
        assert len(zaqar.queues[notices.queue_name(subject, notices.ALWAYS)]) == 1, subject


def _once():
    """A ``when`` for a fake's fail: the first call fails, the others go."""
    calls = iter([True])
    return lambda *args, **kwargs: next(calls, False)


def test_a_service_failing_for_a_moment_is_waited_out_by_conclude_and_plan(
        cloud, context, heat, component, monkeypatch):
    monkeypatch.setattr(following, 'MOMENT_PAUSES', (0,))
    [run_id] = _tried(context, component, ['s1'], 1, tries=1)
    heat.deployments[run_id].update(status='COMPLETE')
    failure = heat_exc.HTTPServiceUnavailable('503 the database restarts')
    heat.fail('software_deployments.get', failure, when=_once())
    recorded = conclusion.ConcludeAction(component, 'BACKUP', [run_id]).run(context)
    assert recorded['counts'] == {'COMPLETE': 1}
    heat.fail('software_configs.get', failure, when=_once())
    assert actions.PlanAction(component, ['s1']).run(context)['batches'] == [['s1']]
    # Twice in a row, where one pause is given: the failure is the action's.
    heat.fail('software_configs.get', failure)
    with pytest.raises(heat_exc.HTTPServiceUnavailable):
        actions.PlanAction(component, ['s1']).run(context)
