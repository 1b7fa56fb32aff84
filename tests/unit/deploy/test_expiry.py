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

import pytest

from heat_deploy_runner import cancel
from heat_deploy_runner import deadline
from heat_deploy_runner import expire
from heat_deploy_runner import is_overdue
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import start
from heat_deploy_runner import TIMED_OUT_PREFIX
from heat_deploy_runner import transport_for

UTC = datetime.timezone.utc
MINUTE = datetime.timedelta(minutes=1)


def is_timed_out(run):
    return run.status == 'FAILED' and (run.status_reason or '').startswith(TIMED_OUT_PREFIX)


def _started(heat, swift, zaqar, transport='TEMP_URL_SIGNAL', timeout=30):
    source_id = heat.add_config(name='mysql', outputs=[{'name': 'size'}])
    before = datetime.datetime.now(UTC).replace(microsecond=0)
    result = start(
        heat, functools.partial(transport_for, swift=swift, zaqar=zaqar), RunRequest(
            config_id=source_id, action='BACKUP', server_ids=['s1'], timeout_minutes=timeout,
            transport=transport))
    return result.created[0], result.created[0].config, before


def _config(**values):
    return {'inputs': [{'name': name, 'value': value}
                       for name, value in values.items()]}


@pytest.mark.parametrize('transport',
                         ['TEMP_URL_SIGNAL', 'ZAQAR_SIGNED_URL_SIGNAL'])
def test_the_deadline_is_when_the_signal_target_expires(
        heat, swift, zaqar, transport):
    _started_run, config, before = _started(heat, swift, zaqar, transport)
    after = datetime.datetime.now(UTC)
    run_deadline = deadline(config)
    assert run_deadline.tzinfo is not None
    assert before + 30 * MINUTE <= run_deadline <= after + 30 * MINUTE


def test_a_temp_url_deadline_is_read_from_its_query():
    config = _config(deploy_signal_id='http://swift/v1/AUTH_a/c/o'
                     '?temp_url_sig=abc&temp_url_expires=1714564800')
    assert deadline(config) == datetime.datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize('expires', ['2024-05-01T12:00:00',
                                     '2024-05-01T12:00:00Z',
                                     '2024-05-01T14:00:00+02:00'])
def test_a_zaqar_deadline_is_utc(expires):
    config = _config(deploy_zaqar_expires=expires)
    assert deadline(config) == datetime.datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize('config', [
    _config(deploy_signal_transport='NO_SIGNAL'),
    # A stack's CFN_SIGNAL: a signed URL, but no TempURL expiry.
    _config(deploy_signal_transport='CFN_SIGNAL',
            deploy_signal_id='http://heat-cfn:8000/v1/signal/arn?Signature=x'),
    _config(deploy_signal_transport='HEAT_SIGNAL', deploy_auth_url='http://k'),
    _config(deploy_signal_transport='ZAQAR_SIGNAL', deploy_queue_id='q'),
    _config(deploy_signal_id='http://swift/v1/AUTH_a/c/o?temp_url_expires=soon'),
    _config(deploy_zaqar_expires=''),
    {'inputs': []},
    {},
])
def test_no_deadline_without_an_expiring_signal_target(config):
    assert deadline(config) is None


def test_a_run_without_a_signal_target_has_no_deadline(heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar, 'NO_SIGNAL')
    assert deadline(config) is None
    assert not is_overdue(started, datetime.datetime(2999, 1, 1))


def test_a_run_past_its_deadline_is_marked_failed_as_timed_out(heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar, timeout=30)
    run_deadline = deadline(config)

    expired = expire(heat, started, now=run_deadline + MINUTE)

    assert expired.status == 'FAILED'
    moment = run_deadline.strftime('%Y-%m-%dT%H:%M:%SZ')
    assert expired.status_reason == (
        f'Timed out: the server did not report back by {moment} (timeout: 30 min). Its agent '
        'either never ran it or could not send the result over TEMP_URL_SIGNAL.')
    assert expired.status_reason.startswith(TIMED_OUT_PREFIX)
    assert is_timed_out(expired)
    assert heat.deployments[started.id]['status'] == 'FAILED'
    [(_method, args, kwargs)] = heat.called('software_deployments.update')
    assert args == (started.id,)
    assert kwargs == {'status': 'FAILED', 'status_reason': expired.status_reason}


def test_a_zaqar_run_past_its_deadline_is_timed_out(heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar,
                                        'ZAQAR_SIGNED_URL_SIGNAL', timeout=5)
    expired = expire(heat, started, now=deadline(config))
    assert is_timed_out(expired)
    assert expired.status_reason.endswith(
        '(timeout: 5 min). Its agent either never ran it or could not send the result over '
        'ZAQAR_SIGNED_URL_SIGNAL.')


def test_a_run_before_its_deadline_is_left_alone_without_asking_heat(
        heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar)
    heat.calls.clear()

    returned = expire(heat, started, now=deadline(config) - datetime.timedelta(seconds=1))

    assert returned is started
    assert heat.calls == []
    assert heat.deployments[started.id]['status'] == 'IN_PROGRESS'


def test_a_result_that_arrived_meanwhile_wins(heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar)
    # Applied in Heat since the caller read the deployment (as Heat does
    # when another poll shows it).
    heat.software_deployments.update(started.id, status='COMPLETE',
                                     status_reason='Outputs received')
    heat.calls.clear()

    returned = expire(heat, started, now=deadline(config) + MINUTE)

    assert returned.status == 'COMPLETE'
    assert returned.status_reason == 'Outputs received'
    assert not is_timed_out(returned)
    assert heat.called('software_deployments.update') == []
    assert len(heat.called('software_deployments.get')) == 1


def test_a_finished_run_is_not_read_again(heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar)
    find = functools.partial(transport_for, swift=swift, zaqar=zaqar)
    cancelled = cancel(heat, started.id, 'alice', find)
    heat.calls.clear()

    returned = expire(heat, cancelled, now=deadline(config) + MINUTE)

    assert returned is cancelled
    assert heat.calls == []
    assert not is_timed_out(returned)


def test_a_naive_now_is_utc(heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar)
    naive = (deadline(config) + MINUTE).replace(tzinfo=None)
    assert is_timed_out(expire(heat, started, now=naive))


def test_the_minutes_are_left_out_when_the_configs_creation_is_unknown(
        heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar)
    config = dict(config)
    del config['creation_time']
    expired = expire(heat, started.described(config), now=deadline(config) + MINUTE)
    assert 'Z. Its agent either never ran it' in expired.status_reason
    assert 'min)' not in expired.status_reason


def test_the_signal_target_is_left_for_delete_to_remove(heat, swift, zaqar):
    started, config, _before = _started(heat, swift, zaqar)
    container, object_name = signal_location(
        {each['name']: each['value'] for each in config['inputs']})
    expire(heat, started, now=deadline(config) + MINUTE)
    assert swift.containers[container] == {object_name: b''}
