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

import functools

from heatclient import exc as heat_exc
import pytest
from swiftclient.exceptions import ClientException

from heat_deploy_runner import delete
from heat_deploy_runner import derived_input_values
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner.signalling import zaqar as zaqar_mod
from heat_deploy_runner import start
from heat_deploy_runner import transport_for


@pytest.fixture
def source_id(heat):
    return heat.add_config(name='mysql')


@pytest.fixture
def find(swift):
    return functools.partial(transport_for, swift=swift)


def _started(heat, swift, source_id, transport='TEMP_URL_SIGNAL'):
    result = start(
        heat, functools.partial(transport_for, swift=swift), RunRequest(
            config_id=source_id, action='BACKUP', server_ids=['s1'], transport=transport))
    deployment = result.created[0]
    values = derived_input_values(heat.configs[deployment.config_id])
    return deployment, values


def test_delete_removes_everything_the_run_made(heat, swift, source_id,
                                                find):
    deployment, values = _started(heat, swift, source_id)
    container, object_name = signal_location(values)
    swift.containers[container][object_name] = b'{"deploy_stdout": ""}'
    swift.containers[container][f'024{object_name}/1700000000.0'] = b'{}'

    assert delete(heat, deployment.id, find) == []

    assert heat.deployments == {}
    assert set(heat.configs) == {source_id}
    assert swift.containers == {}


def test_a_deployment_already_gone_is_fine(heat, swift, source_id, find):
    deployment, _values = _started(heat, swift, source_id)
    assert delete(heat, deployment.id, find) == []
    assert delete(heat, deployment.id, find) == []


def test_a_config_and_container_already_gone_are_fine(heat, swift,
                                                      source_id, find):
    deployment, _values = _started(heat, swift, source_id)
    swift.containers.clear()
    heat.fail('software_configs.get', heat_exc.HTTPNotFound())
    assert delete(heat, deployment.id, find) == []
    assert heat.deployments == {}


def test_a_source_config_used_directly_is_kept(heat, swift, source_id, find):
    deployment = heat.software_deployments.create(
        config_id=source_id, server_id='s1', action='CREATE',
        status='COMPLETE', status_reason='')
    assert delete(heat, deployment.id, find) == []
    assert heat.deployments == {}
    assert set(heat.configs) == {source_id}


def test_no_signal_touches_no_swift(heat, swift, source_id, find):
    deployment, _values = _started(heat, swift, source_id, 'NO_SIGNAL')
    swift.calls.clear()
    assert delete(heat, deployment.id, find) == []
    assert set(heat.configs) == {source_id}
    assert swift.calls == []


def test_leftovers_are_reported_after_the_deployment_is_gone(
        heat, swift, source_id, find):
    deployment, values = _started(heat, swift, source_id)
    heat.fail('software_configs.delete', heat_exc.HTTPServiceUnavailable())
    swift.fail('delete_object', ClientException('503', http_status=503))

    leftovers = delete(heat, deployment.id, find)

    assert heat.deployments == {}
    assert [str(message) for message in leftovers] == [
        f'The deployment {deployment.id} was deleted, but its configuration '
        f'{deployment.config_id} could not be.',
        f'The deployment {deployment.id} was deleted, but the place its '
        'result was sent to could not be removed.']


def test_failing_to_delete_the_deployment_keeps_everything(
        heat, swift, source_id, find):
    deployment, _values = _started(heat, swift, source_id)
    heat.fail('software_deployments.delete', heat_exc.HTTPForbidden())
    with pytest.raises(heat_exc.HTTPForbidden):
        delete(heat, deployment.id, find)
    assert deployment.id in heat.deployments
    assert deployment.config_id in heat.configs
    assert len(swift.containers) == 1


@pytest.mark.parametrize('finished, noted', [(False, True), (True, False)],
                         ids=['running', 'finished'])
def test_a_zaqar_run_deleted_while_its_server_may_report_has_its_queue_noted(
        heat, zaqar, source_id, finished, noted):
    find_zaqar = functools.partial(transport_for, zaqar=zaqar)
    [run] = start(
        heat, find_zaqar, RunRequest(
            config_id=source_id, action='BACKUP', server_ids=['s1'],
            transport='ZAQAR_SIGNED_URL_SIGNAL')).created
    queue = derived_input_values(heat.configs[run.config_id])['deploy_zaqar_queue']
    if finished:
        heat.software_deployments.update(run.id, status='COMPLETE')

    assert delete(heat, run.id, find_zaqar) == []

    assert queue not in zaqar.queues
    notes = [m['body']['queue'] for m in zaqar.queues.get(zaqar_mod.DELETED_QUEUES, [])]
    assert notes == ([queue] if noted else [])
