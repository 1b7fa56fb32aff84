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

"""The wait and judge actions: when a batch is done, which servers failed, were cancelled
or may be tried again, how often a running run is read, and when an operation stops."""

import datetime
from unittest import mock
import uuid

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
import pytest
import requests

import heat_deploy_runner as runner
from heat_deploy_runner.configs import derived
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import following
from heat_deploy_runner.mistral import kept_configs as kept_configs_mod
from heat_deploy_runner import Run
from heat_deploy_runner.signalling import tempurl


def test_wait_returns_done_with_the_failed_servers(cloud, context, heat, component):
    ids = [heat.software_deployments.create(config_id=component, server_id=server,
                                            status=status).id
           for server, status in (('s1', 'COMPLETE'), ('s2', 'FAILED'))]
    assert actions.WaitAction(ids).run(context) == {
        'done': True, 'failed': ['s2'], 'cancelled': [], 'retryable': ['s2']}


def test_wait_gives_the_workflow_back_control_while_runs_go_on(
        cloud, context, heat, component, monkeypatch):
    monkeypatch.setattr(actions, 'WAIT_SECONDS', 0)
    run = heat.software_deployments.create(config_id=component, server_id='s1',
                                           status='IN_PROGRESS')
    assert actions.WaitAction([run.id]).run(context) == {
        'done': False, 'failed': [], 'cancelled': [], 'retryable': []}


def test_wait_reads_heat_again_once_the_servers_result_has_arrived(
        cloud, context, heat, swift, component, monkeypatch):
    made = actions.StartAction(component, 'BACKUP', ['s1'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    [run_id] = made['deployment_ids']
    derived_id = heat.deployments[run_id]['config_id']
    signal = tempurl.signal_location(derived.derived_input_values(heat.configs[derived_id]))
    looks = []
    head = swift.head_object

    def head_object(container, name, headers=None):
        looks.append(name)
        if len(looks) == 3:
            # The server PUTs its result to its TempURL.
            swift.put_object(container, name, '{"deploy_status_code": 0}')
        return head(container, name)
    monkeypatch.setattr(swift, 'head_object', head_object)
    read = heat.software_deployments.get

    def show(deployment_id):
        # Heat's show applies the result waiting in Swift.
        if swift.containers[signal[0]].get(signal[1]):
            heat.deployments[run_id]['status'] = 'COMPLETE'
        return read(deployment_id)
    monkeypatch.setattr(heat.software_deployments, 'get', show)

    assert actions.WaitAction([run_id]).run(context)['done']

    # Heat is read once at the start, then once the result is there.
    assert len(looks) == 3
    assert heat.deployments[run_id]['status'] == 'COMPLETE'
    assert [call[1] for call in heat.called('software_configs.get')].count((derived_id,)) == 1


def test_a_runs_config_is_read_once_for_every_later_call_of_the_project(
        cloud, context, heat, component, kept_configs, monkeypatch):
    monkeypatch.setattr(actions, 'WAIT_SECONDS', 0)
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    derived_ids = {heat.deployments[each]['config_id'] for each in made['deployment_ids']}

    for _call in range(3):
        actions.WaitAction(made['deployment_ids']).run(context)

    def derived_read():
        return sorted(call[1][0] for call in heat.called('software_configs.get')
                      if call[1][0] in derived_ids)
    assert derived_read() == sorted(derived_ids)
    # Another project's call reads its own.
    monkeypatch.setattr(type(cloud), 'project_id', property(lambda self: 'another'))
    actions.WaitAction(made['deployment_ids']).run(context)
    assert derived_read() == sorted(list(derived_ids) * 2)


def test_kept_configs_drop_the_least_lately_used_past_their_size():
    kept = kept_configs_mod.KeptConfigs(size=2)
    mine = kept.of('p1')
    mine['a'], mine['b'] = {'id': 'a'}, {'id': 'b'}
    assert mine['a'] == {'id': 'a'}
    mine['c'] = {'id': 'c'}

    assert sorted(mine) == ['a', 'c']
    assert 'b' not in mine and kept.of('p2').get('a') is None


def test_wait_does_not_ask_heat_while_object_storage_does_not_answer(
        cloud, context, heat, swift, component, monkeypatch):
    made = actions.StartAction(component, 'BACKUP', ['s1'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    [run_id] = made['deployment_ids']
    looks = []

    def head_object(container, name, headers=None):
        looks.append(name)
        raise requests.exceptions.ConnectionError('Connection refused')
    monkeypatch.setattr(swift, 'head_object', head_object)
    monkeypatch.setattr(actions, 'WAIT_SECONDS', 0.3)
    monkeypatch.setattr(following, 'pause', lambda running, now: 0.05)
    shows = len(heat.called('software_deployments.get'))

    assert not actions.WaitAction([run_id]).run(context)['done']

    # Heat read once at the start only: its show would wait on Object Storage.
    assert len(looks) >= 2
    assert len(heat.called('software_deployments.get')) == shows + 1


def _running(now, age_seconds, deadline_in=3600, container='c'):
    signal = (f'https://swift.example.com/v1/AUTH_p/{container}/o?temp_url_expires='
              f'{int((now + datetime.timedelta(seconds=deadline_in)).timestamp())}')
    return Run(str(uuid.uuid4()), 's1', 'c', status='IN_PROGRESS',
               creation_time=(now - datetime.timedelta(seconds=age_seconds)).isoformat(),
               config={'inputs': [{'name': 'deploy_signal_id', 'value': signal},
                                  {'name': 'deploy_signal_transport',
                                   'value': 'TEMP_URL_SIGNAL'}]})


def test_runs_in_many_places_are_looked_at_less_often_as_they_age_and_on_time_for_deadlines():
    now = datetime.datetime(2026, 11, 27, 23, 0, tzinfo=datetime.timezone.utc)

    def alone(*runs):
        # Each with a container of its own, as runs started before a submit shared one.
        others = [_running(now, 3000, container=f'other-{each}')
                  for each in range(following.FEW_PLACES)]
        return list(runs) + others

    with mock.patch.object(following, 'POLL_SECONDS', 1.5):
        assert following.pause(alone(_running(now, 5)), now) == 1.5
        assert following.pause(alone(_running(now, 60)), now) == 6
        assert following.pause(alone(_running(now, 3000)), now) == following.MAX_POLL_SECONDS
        # The youngest sets the pace; a deadline nearer than the pace, the wake.
        assert following.pause(alone(_running(now, 20)), now) == 2
        assert following.pause(alone(_running(now, 3000, deadline_in=4)), now) == 4


def test_a_submits_runs_are_looked_at_as_often_as_a_page_polls_however_old():
    now = datetime.datetime(2026, 11, 27, 23, 0, tzinfo=datetime.timezone.utc)
    submit = [_running(now, 3000) for _run in range(200)]

    with mock.patch.object(following, 'POLL_SECONDS', 1.5):
        assert following.pause(submit, now) == 1.5
        assert following.pause(submit + [_running(now, 3000, deadline_in=1)], now) == 1
        # As many places as FEW_PLACES still; one more and age sets the pace.
        few = [_running(now, 3000, container=f'c{each}') for each in range(following.FEW_PLACES)]
        assert following.pause(few, now) == 1.5
        assert following.pause(few + [_running(now, 3000, container='more')], now) == \
            following.MAX_POLL_SECONDS


def test_wait_tells_cancelled_servers_from_those_to_try_again(cloud, context, heat, component):
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2', 's3'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    first, second, third = made['deployment_ids']
    runner.cancel(heat, first, 'bob', cloud.find_transport)
    heat.deployments[second].update(status='FAILED', status_reason='Deployment exited 1')
    heat.deployments[third].update(status='COMPLETE')

    assert actions.WaitAction(made['deployment_ids']).run(context) == {
        'done': True, 'failed': ['s1', 's2'], 'cancelled': ['s1'], 'retryable': ['s2']}


@pytest.mark.parametrize('failure', [
    heat_exc.HTTPServiceUnavailable('503 heat-engine did not answer'),
    heat_exc.HTTPInternalServerError('500 (psycopg2.OperationalError) server closed'),
    ks_exc.ConnectFailure('Keystone refused the connection'),
    ks_exc.DiscoveryFailure('Could not find versioned identity endpoints: connection refused'),
    requests.exceptions.ReadTimeout('Heat read the object server for 30 s')])
def test_a_service_failing_for_a_moment_is_waited_out_not_the_end(
        cloud, context, heat, component, monkeypatch, failure):
    monkeypatch.setattr(following, 'MOMENT_PAUSES', (0,))
    run = heat.software_deployments.create(config_id=component, server_id='s1',
                                           status='FAILED')
    heat.fail('software_deployments.get', failure)
    assert actions.WaitAction([run.id]).run(context) == {
        'done': False, 'failed': [], 'cancelled': [], 'retryable': []}
    heat.fail('software_deployments.get', failure, when=lambda *args, **kwargs: False)
    assert actions.WaitAction([run.id]).run(context)['failed'] == ['s1']


def test_a_refusal_is_not_waited_out(cloud, context, heat, component):
    run = heat.software_deployments.create(config_id=component, server_id='s1',
                                           status='FAILED')
    heat.fail('software_deployments.get', heat_exc.HTTPForbidden('403 policy'))
    with pytest.raises(heat_exc.HTTPForbidden):
        actions.WaitAction([run.id]).run(context)


def test_wait_takes_a_run_deleted_meanwhile_as_ended(cloud, context, heat, component):
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    gone, ended = made['deployment_ids']
    runner.delete(heat, gone, cloud.find_transport)
    heat.deployments[ended].update(status='FAILED', status_reason='Deployment exited 1')

    assert actions.WaitAction([gone, ended]).run(context) == {
        'done': True, 'failed': ['s2'], 'cancelled': [], 'retryable': ['s2']}


@pytest.mark.parametrize('failed, allowed, next_batch, reason', [
    (['s1'], 1, 1, None),
    (['s1'], 0, 1, 'Stopped: servers failed: 1, more than the 0 allowed; not started: 2.'),
    (['s1', 's2'], 1, 3, 'Servers failed: 2, more than the 1 allowed.'),
    ([], 0, 3, None),
])
def test_judge_stops_once_more_servers_failed_than_allowed(failed, allowed, next_batch,
                                                           reason, context):
    batches = [['s1'], ['s2'], ['s3']]
    assert actions.JudgeAction(failed, allowed, batches, next_batch).run(context) == {
        'stop': reason}
