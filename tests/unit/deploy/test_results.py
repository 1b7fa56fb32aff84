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
import logging
from unittest import mock

from heatclient import exc as heat_exc
import pytest
from zaqarclient.transport import errors as zaqar_errors

from heat_deploy_runner import collect
from heat_deploy_runner import derived_input_values
from heat_deploy_runner import late_result
from heat_deploy_runner import Run
from heat_deploy_runner.running.cancel import cancel_reason
from heat_deploy_runner.running.results import outcome
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for


NOON = datetime.datetime(2024, 5, 1, 12, 0, 0)
OUTPUTS = [{'name': 'size'},
           {'name': 'error', 'error_output': True},
           {'name': 'warning', 'error_output': True}]
SENT = {'deploy_stdout': 'backed up\n', 'deploy_stderr': '',
        'deploy_status_code': 0, 'size': '2G'}
APPLIED = {'deploy_stdout': 'backed up\n', 'deploy_stderr': '',
           'deploy_status_code': 0, 'size': '2G'}


# outcome(): Heat's rule


def test_a_zero_status_code_completes():
    assert outcome({'deploy_status_code': 0}, []) == (
        'COMPLETE', 'Outputs received',
        {'deploy_stdout': None, 'deploy_stderr': None,
         'deploy_status_code': 0})


@pytest.mark.parametrize('code', [0, '0', None, ''])
def test_no_failing_code_completes(code):
    status, reason, _values = outcome({'deploy_status_code': code}, [])
    assert (status, reason) == ('COMPLETE', 'Outputs received')


def test_no_status_code_at_all_completes():
    status, _reason, values = outcome({'deploy_stdout': 'x'}, [])
    assert status == 'COMPLETE'
    assert values['deploy_status_code'] is None


@pytest.mark.parametrize('code', [1, 2, '1', '-1', 'x'])
def test_a_non_zero_status_code_fails_and_says_which(code):
    status, reason, values = outcome({'deploy_status_code': code}, [])
    assert status == 'FAILED'
    assert reason == ('deploy_status_code : Deployment exited with '
                      f'non-zero status code: {code}')
    assert values['deploy_status_code'] == code


def test_a_value_for_an_error_output_fails_with_that_value():
    status, reason, values = outcome(
        {'deploy_status_code': 0, 'error': 'disk full'}, OUTPUTS)
    assert (status, reason) == ('FAILED', 'error : disk full')
    assert values['error'] == 'disk full'


def test_every_cause_is_in_the_reason_joined_by_commas():
    _status, reason, _values = outcome(
        {'deploy_status_code': 3, 'error': 'disk full', 'warning': 7},
        OUTPUTS)
    assert reason == ('deploy_status_code : Deployment exited with non-zero '
                      'status code: 3, error : disk full, warning : 7')


def test_an_error_output_the_server_did_not_send_does_not_fail():
    status, _reason, values = outcome({'deploy_status_code': 0}, OUTPUTS)
    assert status == 'COMPLETE'
    assert 'error' not in values


def test_declared_outputs_are_copied_and_others_ignored():
    _status, _reason, values = outcome(
        {'size': '2G', 'undeclared': 'x', 'deploy_stdout': 'ok'}, OUTPUTS)
    assert values == {'size': '2G', 'deploy_stdout': 'ok',
                      'deploy_stderr': None, 'deploy_status_code': None}


def test_the_three_standard_outputs_are_always_set():
    _status, _reason, values = outcome({}, None)
    assert values == {'deploy_stdout': None, 'deploy_stderr': None,
                      'deploy_status_code': None}


def test_output_values_already_held_are_kept_and_not_changed():
    held = {'earlier': 'kept', 'size': '1G', 'deploy_stdout': 'old'}
    _status, _reason, values = outcome({'size': '2G'}, OUTPUTS, held)
    assert values == {'earlier': 'kept', 'size': '2G', 'deploy_stdout': None,
                      'deploy_stderr': None, 'deploy_status_code': None}
    assert held == {'earlier': 'kept', 'size': '1G', 'deploy_stdout': 'old'}


def _heats_own(result, outputs, output_values):
    """What Heat's engine stores for the same signal."""
    engine = pytest.importorskip('heat.engine.service_software_config')
    stored = mock.Mock(status='IN_PROGRESS', output_values=output_values)
    stored.config.config = {'outputs': outputs}
    service = mock.Mock()
    with mock.patch.object(engine.software_deployment_object
                           .SoftwareDeployment, 'get_by_id',
                           return_value=stored):
        engine.SoftwareConfigService.signal_software_deployment(
            service, None, 'deployment-id', result, None)
    update = service.update_software_deployment.call_args.kwargs
    return update['status'], str(update['status_reason']), \
        update['output_values']


@pytest.mark.parametrize('result, outputs, held', [
    ({'deploy_stdout': 'ok', 'deploy_status_code': 0, 'size': '2G'},
     OUTPUTS, None),
    ({'deploy_status_code': '0', 'other': 1}, OUTPUTS, {'earlier': 1}),
    ({'deploy_status_code': 4, 'deploy_stderr': 'e'}, [], None),
    ({'deploy_status_code': 4, 'error': '', 'warning': None}, OUTPUTS, None),
    ({'error': 'disk full', 'size': 3}, OUTPUTS, {'size': 1}),
    ({}, None, None),
])
def test_outcome_is_what_heats_engine_would_store(result, outputs, held):
    assert outcome(result, outputs, dict(held) if held else held) == \
        _heats_own(result, outputs, dict(held) if held else held)


# collect(): applying a result Heat does not read


@pytest.fixture
def find(zaqar):
    return functools.partial(transport_for, zaqar=zaqar)


def _started(heat, transport):
    source_id = heat.add_config(name='mysql', outputs=OUTPUTS)
    result = start(heat, lambda name: transport, RunRequest(
        config_id=source_id, action='BACKUP', server_ids=['s1'], transport=transport.name))
    return result.created[0]


@pytest.fixture
def running(heat, zaqar):
    return _started(heat, transport_for('ZAQAR_SIGNED_URL_SIGNAL',
                                        zaqar=zaqar))


def _queue(heat, deployment):
    return derived_input_values(
        heat.configs[deployment.config_id])['deploy_zaqar_queue']


def _send(heat, zaqar, deployment, result):
    zaqar.post(_queue(heat, deployment), result)


def _collect(heat, run, find):
    return collect(heat, run, find)


def test_a_waiting_result_is_applied_once_with_heats_update(
        heat, zaqar, find, running):
    _send(heat, zaqar, running, SENT)

    applied = _collect(heat, running, find)

    [(_method, args, kwargs)] = heat.called('software_deployments.update')
    assert args == (running.id,)
    assert kwargs == {'status': 'COMPLETE', 'status_reason':
                      'Outputs received', 'output_values': APPLIED}
    assert applied.status == 'COMPLETE'
    assert applied.output_values == APPLIED


def test_an_applied_result_is_removed_from_the_queue(
        heat, zaqar, find, running):
    _send(heat, zaqar, running, SENT)
    _collect(heat, running, find)
    assert zaqar.queues[_queue(heat, running)] == []


def test_a_failing_result_fails_the_deployment(heat, zaqar, find, running):
    _send(heat, zaqar, running, {'deploy_status_code': 1,
                                 'error': 'disk full'})

    applied = _collect(heat, running, find)

    assert applied.status == 'FAILED'
    assert applied.status_reason == (
        'deploy_status_code : Deployment exited with non-zero status code: '
        '1, error : disk full')


def test_collecting_again_from_a_stale_reading_changes_nothing(
        heat, zaqar, find, running):
    _send(heat, zaqar, running, SENT)
    _collect(heat, running, find)

    again = _collect(heat, running, find)

    assert again is running
    assert len(heat.called('software_deployments.update')) == 1


def test_nothing_waiting_leaves_the_deployment_as_it_is(
        heat, find, running):
    assert _collect(heat, running, find) is running
    assert heat.called('software_deployments.update') == []


def test_two_pollers_racing_on_one_result_apply_it_once(
        heat, zaqar, find, running):
    _send(heat, zaqar, running, SENT)
    seconds = []

    def second_poller_runs_now(*args, **kwargs):
        # While the first poller holds its claim, between claim and update.
        if not seconds:
            seconds.append(_collect(heat, running, find))
        return False

    heat.fail('software_deployments.get', Exception('unused'),
              when=second_poller_runs_now)

    first = _collect(heat, running, find)

    assert len(heat.called('software_deployments.update')) == 1
    assert first.status == 'COMPLETE'
    [second] = seconds
    assert second.status == 'IN_PROGRESS'
    assert zaqar.queues[_queue(heat, running)] == []


def test_a_deployment_not_in_progress_is_not_even_claimed_for(
        heat, zaqar, find, running):
    heat.software_deployments.update(running.id, status='COMPLETE',
                                     status_reason='Outputs received')
    finished = heat.software_deployments.get(running.id)
    _send(heat, zaqar, running, SENT)

    assert _collect(heat, finished, find) is finished

    assert zaqar.called('queue.claim') == []
    assert len(heat.called('software_deployments.update')) == 1
    assert len(zaqar.queues[_queue(heat, running)]) == 1


def test_a_result_that_finds_the_deployment_cancelled_is_kept_as_late(
        heat, zaqar, find, running):
    # The caller read the deployment before someone else's cancel landed.
    heat.software_deployments.update(
        running.id, status='FAILED',
        status_reason=cancel_reason('bob', NOON))
    _send(heat, zaqar, running, SENT)

    returned = _collect(heat, running, find)

    assert returned.status == 'FAILED'
    assert returned.status_reason.startswith('Cancelled by bob at ')
    assert len(heat.called('software_deployments.update')) == 1
    queue = _queue(heat, running)
    assert zaqar.claimed(queue) == []
    assert len(zaqar.queues[queue]) == 1
    assert late_result(heat, returned, find) == SENT


def test_a_failed_release_of_a_late_result_still_returns_the_deployment(
        heat, zaqar, find, running, caplog):
    heat.software_deployments.update(
        running.id, status='FAILED', status_reason=cancel_reason('bob', NOON))
    _send(heat, zaqar, running, SENT)
    zaqar.fail('claim.delete', zaqar_errors.ServiceUnavailableError())

    with caplog.at_level(logging.WARNING):
        returned = _collect(heat, running, find)

    assert returned.status == 'FAILED'
    assert len(zaqar.called('claim.delete')) == 1
    assert 'Could not release the result' in caplog.text


def test_a_failed_update_releases_the_result_and_raises(
        heat, zaqar, find, running):
    _send(heat, zaqar, running, SENT)
    heat.fail('software_deployments.update',
              heat_exc.HTTPInternalServerError())

    with pytest.raises(heat_exc.HTTPInternalServerError):
        _collect(heat, running, find)

    queue = _queue(heat, running)
    assert zaqar.claimed(queue) == []
    assert len(zaqar.queues[queue]) == 1
    assert heat.deployments[running.id]['status'] == 'IN_PROGRESS'


def test_a_failed_reread_releases_the_result_and_raises(
        heat, zaqar, find, running):
    _send(heat, zaqar, running, SENT)
    heat.fail('software_deployments.get', heat_exc.CommunicationError())

    with pytest.raises(heat_exc.CommunicationError):
        collect(heat, running, find)

    assert zaqar.claimed(_queue(heat, running)) == []


def test_a_failed_release_after_a_failed_update_still_raises_the_update(
        heat, zaqar, find, running, caplog):
    _send(heat, zaqar, running, SENT)
    heat.fail('software_deployments.update',
              heat_exc.HTTPInternalServerError())
    zaqar.fail('claim.delete', zaqar_errors.ServiceUnavailableError())

    with caplog.at_level(logging.WARNING), \
            pytest.raises(heat_exc.HTTPInternalServerError):
        _collect(heat, running, find)

    assert 'Could not release the result' in caplog.text


def test_a_failed_removal_is_logged_and_the_result_stays_applied(
        heat, zaqar, find, running, caplog):
    _send(heat, zaqar, running, SENT)
    zaqar.fail('message.delete', zaqar_errors.ServiceUnavailableError())

    with caplog.at_level(logging.WARNING):
        applied = _collect(heat, running, find)

    assert applied.status == 'COMPLETE'
    assert len(heat.called('software_deployments.update')) == 1
    assert 'Could not remove the applied result' in caplog.text
    assert running.id in caplog.text


def test_a_config_given_as_a_dict_works_too(heat, zaqar, find, running):
    _send(heat, zaqar, running, SENT)
    applied = collect(heat, running, find)
    assert applied.status == 'COMPLETE'


def test_without_the_messaging_client_the_deployment_is_left_alone(
        heat, zaqar, running):
    _send(heat, zaqar, running, SENT)
    assert _collect(heat, running, transport_for) is running
    assert heat.called('software_deployments.update') == []
    assert zaqar.claimed(_queue(heat, running)) == []


def test_a_tempurl_deployment_is_left_to_heat(heat, swift, zaqar, find):
    started = _started(heat, transport_for('TEMP_URL_SIGNAL', swift=swift))
    find_both = functools.partial(transport_for, swift=swift, zaqar=zaqar)

    assert _collect(heat, started, find_both) is started

    assert heat.called('software_deployments.update') == []
    assert swift.called('get_object') == []


def test_a_no_signal_deployment_left_in_progress_is_left_alone(
        heat, zaqar, find):
    started = _started(heat, transport_for('NO_SIGNAL'))
    # As the CLI leaves one.
    heat.deployments[started.id]['status'] = 'IN_PROGRESS'
    in_progress = Run.from_heat(heat.software_deployments.get(started.id)).described(
        heat.configs[started.config_id])

    assert _collect(heat, in_progress, find) is in_progress

    assert heat.called('software_deployments.update') == []
