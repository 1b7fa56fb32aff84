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
import functools
import json
import time

import pytest

from heat_deploy_runner import cancel
from heat_deploy_runner import derived_input_values
from heat_deploy_runner import is_cancelled
from heat_deploy_runner import late_result
from heat_deploy_runner import Run
from heat_deploy_runner.running.cancel import cancel_reason
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import start
from heat_deploy_runner import transport_for


NOON = datetime.datetime(2024, 5, 1, 12, 0, 0, 999999,
                         tzinfo=datetime.timezone.utc)


@pytest.fixture
def find(swift, zaqar):
    return functools.partial(transport_for, swift=swift, zaqar=zaqar)


def _started(heat, swift, transport='TEMP_URL_SIGNAL', zaqar=None):
    source_id = heat.add_config(name='mysql', outputs=[{'name': 'size'}])
    result = start(
        heat, functools.partial(transport_for, swift=swift, zaqar=zaqar), RunRequest(
            config_id=source_id, action='BACKUP', server_ids=['s1'], transport=transport))
    return result.created[0]


def test_cancel_marks_a_running_deployment_failed(heat, swift, find):
    started = _started(heat, swift)
    cancelled = cancel(heat, started.id, 'alice', find, now=NOON)
    assert cancelled.status == 'FAILED'
    assert cancelled.status_reason == (
        'Cancelled by alice at 2024-05-01T12:00:00Z')
    assert is_cancelled(cancelled)


def test_cancel_changes_nothing_else(heat, swift, find):
    started = _started(heat, swift)
    before = dict(heat.deployments[started.id])
    cancel(heat, started.id, 'alice', find, now=NOON)
    after = heat.deployments[started.id]
    for key in ('config_id', 'server_id', 'action', 'input_values',
                'output_values', 'creation_time'):
        assert after[key] == before[key]
    [(_method, args, kwargs)] = heat.called('software_deployments.update')
    assert args == (started.id,)
    assert kwargs == {'status': 'FAILED', 'status_reason':
                      'Cancelled by alice at 2024-05-01T12:00:00Z'}


def test_a_second_cancel_is_harmless(heat, swift, find):
    started = _started(heat, swift)
    cancel(heat, started.id, 'alice', find, now=NOON)
    again = cancel(heat, started.id, 'bob', find)
    assert again.status_reason == 'Cancelled by alice at 2024-05-01T12:00:00Z'
    assert len(heat.called('software_deployments.update')) == 1


def test_a_finished_deployment_is_not_cancelled(heat, swift, find):
    started = _started(heat, swift, transport='NO_SIGNAL')
    returned = cancel(heat, started.id, 'alice', find)
    assert returned.status == 'COMPLETE'
    assert not is_cancelled(returned)
    assert heat.called('software_deployments.update') == []


@pytest.mark.parametrize('now', [
    datetime.datetime(2024, 5, 1, 12, 0, 0),
    datetime.datetime(2024, 5, 1, 14, 0, 0, tzinfo=datetime.timezone(
        datetime.timedelta(hours=2))),
])
def test_the_cancel_time_is_utc(now, monkeypatch):
    # A naive time is UTC, whatever the web server's local zone.
    monkeypatch.setenv('TZ', 'America/New_York')
    time.tzset()
    try:
        assert cancel_reason('alice', now) == (
            'Cancelled by alice at 2024-05-01T12:00:00Z')
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_cancel_time_defaults_to_now(heat, swift, find):
    started = _started(heat, swift)
    cancelled = cancel(heat, started.id, 'alice', find)
    stamp = cancelled.status_reason[len('Cancelled by alice at '):]
    moment = datetime.datetime.strptime(stamp, '%Y-%m-%dT%H:%M:%SZ')
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    assert abs((now - moment).total_seconds()) < 5


def _send(heat, swift, deployment, result):
    values = derived_input_values(heat.configs[deployment.config_id])
    container, object_name = signal_location(values)
    swift.containers[container][object_name] = json.dumps(result).encode()


def test_late_result_of_a_cancelled_deployment(heat, swift, find):
    started = _started(heat, swift)
    cancelled = cancel(heat, started.id, 'alice', find)
    assert late_result(heat, cancelled, find) is None
    _send(heat, swift, started, {'deploy_stdout': 'late', 'size': '2G'})
    assert late_result(heat, cancelled, find) == {
        'deploy_stdout': 'late', 'size': '2G'}


def test_no_late_result_without_a_cancel(heat, swift):
    started = _started(heat, swift)
    _send(heat, swift, started, {'deploy_stdout': 'on time'})
    find = functools.partial(transport_for, swift=swift)
    assert late_result(heat, started, find) is None
    heat.software_deployments.update(started.id, status='FAILED',
                                     status_reason='deploy_status_code : 1')
    failed = heat.software_deployments.get(started.id)
    assert late_result(heat, failed, find) is None


def test_no_late_result_once_the_config_is_gone(heat, swift, find):
    started = _started(heat, swift)
    cancelled = cancel(heat, started.id, 'alice', find)
    heat.software_deployments.delete(started.id)
    heat.software_configs.delete(started.config_id)
    find = functools.partial(transport_for, swift=swift)
    assert late_result(heat, cancelled, find) is None


def test_no_late_result_from_no_signal(heat, swift):
    started = _started(heat, swift, transport='NO_SIGNAL')
    heat.deployments[started.id]['status'] = 'FAILED'
    heat.deployments[started.id]['status_reason'] = 'Cancelled by x at y'
    cancelled = Run.from_heat(heat.software_deployments.get(started.id))
    assert late_result(heat, cancelled, transport_for) is None


def _zaqar_started(heat, swift, zaqar):
    return _started(heat, swift, 'ZAQAR_SIGNED_URL_SIGNAL', zaqar)


def _post(heat, zaqar, deployment, result):
    values = derived_input_values(heat.configs[deployment.config_id])
    zaqar.post(values['deploy_zaqar_queue'], result)


def test_a_zaqar_result_waiting_is_applied_instead_of_the_cancel(
        heat, swift, zaqar, find):
    started = _zaqar_started(heat, swift, zaqar)
    _post(heat, zaqar, started, {'deploy_stdout': 'done', 'size': '2G',
                                 'deploy_status_code': 0})

    returned = cancel(heat, started.id, 'alice', find, now=NOON)

    assert returned.status == 'COMPLETE'
    assert returned.status_reason == 'Outputs received'
    assert returned.output_values['size'] == '2G'
    assert not is_cancelled(returned)
    [(_method, _args, kwargs)] = heat.called('software_deployments.update')
    assert kwargs['status'] == 'COMPLETE'
    assert late_result(heat, returned, find) is None


def test_a_zaqar_run_with_nothing_waiting_is_still_cancelled(
        heat, swift, zaqar, find):
    started = _zaqar_started(heat, swift, zaqar)

    cancelled = cancel(heat, started.id, 'alice', find, now=NOON)

    assert is_cancelled(cancelled)
    assert len(zaqar.called('queue.claim')) == 1
    [(_method, args, kwargs)] = heat.called('software_deployments.update')
    assert args == (started.id,)
    assert kwargs == {'status': 'FAILED', 'status_reason':
                      'Cancelled by alice at 2024-05-01T12:00:00Z'}


def test_a_zaqar_run_is_cancelled_when_messaging_is_unavailable(
        heat, swift, zaqar):
    started = _zaqar_started(heat, swift, zaqar)
    _post(heat, zaqar, started, {'deploy_stdout': 'done'})
    without_messaging = functools.partial(transport_for, swift=swift)

    cancelled = cancel(heat, started.id, 'alice', without_messaging)

    assert is_cancelled(cancelled)
    assert zaqar.called('queue.claim') == []


def test_a_zaqar_result_sent_after_the_cancel_is_its_late_result(
        heat, swift, zaqar, find):
    started = _zaqar_started(heat, swift, zaqar)
    cancelled = cancel(heat, started.id, 'alice', find)
    _post(heat, zaqar, started, {'deploy_stdout': 'late'})

    assert late_result(heat, cancelled, find) == {'deploy_stdout': 'late'}
    assert cancel(heat, started.id, 'bob', find).status_reason == (
        cancelled.status_reason)
    assert len(heat.called('software_deployments.update')) == 1
