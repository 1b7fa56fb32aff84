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
import logging

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
import pytest
from swiftclient.exceptions import ClientException

from heat_deploy_runner import derived_input_values
from heat_deploy_runner import InputError
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import start
from heat_deploy_runner import transport_for


SECRET = 'a secret only the log may see'


@pytest.fixture
def source_id(heat):
    return heat.add_config(
        name='mysql', group='component',
        config={'configs': [{'actions': ['BACKUP'], 'tool': 'script',
                             'config': 'mysqldump'}]},
        inputs=[{'name': 'port', 'type': 'Number', 'default': 3306},
                {'name': 'target', 'type': 'String'}])


def _derived(heat, source_id):
    return [config for config_id, config in heat.configs.items()
            if config_id != source_id]


def _run(heat, transport, source_id, servers=('s1', 's2'), **kwargs):
    return start(heat, lambda name: transport, RunRequest(
        config_id=source_id, action='BACKUP', server_ids=servers, transport=transport.name,
        **kwargs))


def test_two_servers_get_two_runs(heat, swift, source_id):
    result = _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift),
                  source_id, input_values={'port': '3307'})

    assert result.failures == []
    assert [d.server_id for d in result.created] == ['s1', 's2']
    for deployment in result.created:
        assert (deployment.action, deployment.status,
                deployment.status_reason) == ('BACKUP', 'IN_PROGRESS', '')
    assert set(heat.deployments) == {d.id for d in result.created}

    derived = _derived(heat, source_id)
    assert [c['name'] for c in derived] == ['mysql-BACKUP', 'mysql-BACKUP']
    locations = set()
    for deployment in result.created:
        values = derived_input_values(heat.configs[deployment.config_id])
        assert values['deploy_server_id'] == deployment.server_id
        assert values['deploy_action'] == 'BACKUP'
        assert values['deploy_signal_transport'] == 'TEMP_URL_SIGNAL'
        assert values['port'] == '3307'  # text, as the script hook takes it
        locations.add(signal_location(values))
    # One container for the submit (one listing tells of every run's result), an empty
    # object each.
    [container] = {container for container, _object_name in locations}
    assert swift.containers == {container: {name: b'' for _c, name in locations}}
    assert len(locations) == 2


def test_each_run_comes_with_its_derived_config(heat, swift, source_id):
    result = _run(heat, transport_for('NO_SIGNAL'), source_id)

    for run in result.created:
        assert run.config == heat.configs[run.config_id]


def test_a_failed_server_has_no_run_and_no_config(heat, swift, source_id):
    heat.fail('software_deployments.create', heat_exc.HTTPInternalServerError(),
              when=lambda **kwargs: kwargs['server_id'] == 's1')

    result = _run(heat, transport_for('NO_SIGNAL'), source_id)

    assert [d.server_id for d in result.created] == ['s2']
    assert [run.config['id'] for run in result.created] == [result.created[0].config_id]


def test_heat_not_answering_before_any_run_is_raised_and_leaves_nothing(heat, swift, source_id):
    heat.fail('software_configs.create', ks_exc.ConnectFailure('heat-api is down'))

    with pytest.raises(ks_exc.ConnectFailure):
        _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift), source_id)

    # The first server's container was removed; the second server was not tried.
    assert swift.containers == {}
    assert len(heat.called('software_configs.create')) == 1


def test_heat_not_answering_after_a_run_was_made_is_said_per_server(heat, swift, source_id):
    heat.fail('software_deployments.create', ks_exc.ConnectFailure('heat-api is down'),
              when=lambda **kwargs: kwargs['server_id'] == 's2')

    result = _run(heat, transport_for('NO_SIGNAL'), source_id)

    assert [run.server_id for run in result.created] == ['s1']
    assert [server for server, _message in result.failures] == ['s2']


def test_the_source_config_is_read_once(heat, swift, source_id):
    _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift), source_id,
         servers=['s1', 's2', 's3'])
    assert len(heat.called('software_configs.get')) == 1


def test_a_given_name_names_the_run(heat, swift, source_id):
    _run(heat, transport_for('NO_SIGNAL'), source_id, name='nightly')
    assert {c['name'] for c in _derived(heat, source_id)} == {
        'nightly-BACKUP'}


def test_the_same_server_twice_runs_once(heat, source_id):
    result = _run(heat, transport_for('NO_SIGNAL'), source_id,
                  servers=['s1', 's1'])
    assert len(result.created) == 1


def test_a_server_that_could_not_start_is_named_as_its_caller_names_it(
        heat, swift, source_id):
    heat.fail('software_deployments.create', heat_exc.HTTPInternalServerError('no'))
    the_id = '9597145b-0a95-4428-85b8-d52e98ecf8a2'

    result = start(heat, lambda name: transport_for('TEMP_URL_SIGNAL', swift=swift),
                   RunRequest(config_id=source_id, action='BACKUP', server_ids=(the_id, 's2')),
                   server_names={the_id: 'demo-db-2'})

    assert [str(message) for _server, message in result.failures] == [
        'Could not start BACKUP on server demo-db-2 (9597145b): its deployment could not be '
        'created.',
        'Could not start BACKUP on server s2: its deployment could not be created.']


def test_a_deployment_heat_stored_though_its_create_failed_goes_with_the_rest(
        heat, swift, source_id):
    # Heat stores it, then fails to push the server's metadata to a Zaqar queue that is
    # down: 500. Its delete fails alike, after removing it.
    heat.fail_after('software_deployments.create', heat_exc.HTTPInternalServerError('zaqar'))
    heat.fail_after('software_deployments.delete', heat_exc.HTTPInternalServerError('zaqar'))
    configs_before = set(heat.configs)

    result = _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift), source_id,
                  servers=['s1'])

    assert result.created == []
    assert [str(message) for _server, message in result.failures] == [
        'Could not start BACKUP on server s1: its deployment could not be created.']
    assert heat.deployments == {} and set(heat.configs) == configs_before
    assert swift.containers == {}


def test_a_deployment_heat_may_have_stored_keeps_its_config_and_signal_target(
        heat, swift, source_id):
    # Heat stores it, and its API is killed as it answers: nothing can say whether it was
    # stored, and a stored run must find where to put its result.
    heat.fail_after('software_deployments.create', ks_exc.ConnectFailure('killed'))
    heat.fail('software_deployments.list', ks_exc.ConnectFailure('still down'))

    # Nothing made that it knows of: the caller says which service did not answer.
    with pytest.raises(ks_exc.ConnectFailure):
        _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift), source_id, servers=['s1'])

    [run] = heat.deployments.values()
    assert run['config_id'] in heat.configs
    [container] = swift.containers
    assert container in derived_input_values(heat.configs[run['config_id']])[
        'deploy_signal_id']


def test_a_failing_server_leaves_nothing_and_the_others_go_ahead(
        heat, swift, source_id, caplog):
    heat.fail('software_deployments.create',
              heat_exc.HTTPInternalServerError(SECRET),
              when=lambda **kwargs: kwargs['server_id'] == 'bad')

    result = _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift),
                  source_id, servers=['good', 'bad'])

    assert [d.server_id for d in result.created] == ['good']
    [(server_id, message)] = result.failures
    assert server_id == 'bad'
    assert str(message) == ('Could not start BACKUP on server bad: its '
                            'deployment could not be created.')
    assert SECRET not in str(message)
    assert SECRET in caplog.text
    [good] = result.created
    assert [c['id'] for c in _derived(heat, source_id)] == [good.config_id]
    values = derived_input_values(heat.configs[good.config_id])
    assert set(swift.containers) == {signal_location(values)[0]}


def test_a_failing_config_removes_the_signal_target(heat, swift, source_id):
    heat.fail('software_configs.create', heat_exc.HTTPForbidden())
    result = _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift),
                  source_id)
    assert result.created == []
    assert [str(m) for _s, m in result.failures] == [
        'Could not start BACKUP on server s1: its configuration could not '
        'be created.',
        'Could not start BACKUP on server s2: its configuration could not '
        'be created.']
    assert swift.containers == {}
    assert heat.deployments == {}


@pytest.mark.parametrize('failing', ['put_object', 'head_account'])
def test_swift_failing_midway_leaves_nothing(heat, swift, source_id,
                                             failing):
    swift.fail(failing, ClientException(SECRET, http_status=503))
    result = _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift),
                  source_id)
    assert result.created == []
    assert str(result.failures[0][1]) == (
        'Could not start BACKUP on server s1: the place for its result '
        'could not be prepared in Object Storage.')
    assert swift.containers == {}
    assert _derived(heat, source_id) == []
    assert heat.deployments == {}


def test_a_failing_cleanup_is_logged_not_raised(heat, swift, source_id,
                                                caplog):
    heat.fail('software_deployments.create', heat_exc.HTTPBadRequest())
    heat.fail('software_configs.delete', heat_exc.HTTPServiceUnavailable())
    with caplog.at_level(logging.WARNING):
        result = _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift),
                      source_id, servers=['s1'])
    assert [s for s, _m in result.failures] == ['s1']
    assert 'Could not remove the derived config' in caplog.text
    # The cleanup carries on past the step that failed.
    assert swift.containers == {}


def test_no_signal_completes_at_once_without_swift(heat, source_id):
    result = _run(heat, transport_for('NO_SIGNAL'), source_id)
    for deployment in result.created:
        assert (deployment.status, deployment.status_reason) == (
            'COMPLETE', 'Not waiting for outputs signal')
        values = derived_input_values(heat.configs[deployment.config_id])
        assert values['deploy_signal_transport'] == 'NO_SIGNAL'
        assert 'deploy_signal_id' not in values


@pytest.mark.parametrize('kwargs', [
    {'action': ' '},
    {'action': None},
    {'server_ids': []},
    {'server_ids': ['s1', '']},
    {'timeout_minutes': 0},
    {'timeout_minutes': 1.5},
])
def test_bad_arguments_call_nothing(heat, swift, source_id, kwargs):
    arguments = dict(config_id=source_id, action='BACKUP',
                     server_ids=['s1'])
    arguments.update(kwargs)
    with pytest.raises(InputError):
        start(
            heat, functools.partial(transport_for, swift=swift), RunRequest(
                **arguments, transport='TEMP_URL_SIGNAL'))
    assert heat.calls == []
    assert swift.calls == []


def test_a_bad_override_creates_nothing(heat, swift, source_id):
    with pytest.raises(InputError, match='The input port must be a number'):
        _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift), source_id,
             input_values={'port': 'many'})
    assert [call[0] for call in heat.calls] == ['software_configs.get']
    assert swift.calls == []


def test_a_missing_source_config_raises_heatclients_error(heat, swift):
    with pytest.raises(heat_exc.HTTPNotFound):
        _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift), 'nope')
    assert swift.calls == []


def test_the_action_is_trimmed(heat, source_id):
    result = start(
        heat, transport_for, RunRequest(
            config_id=source_id, action=' BACKUP\n', server_ids=['s1'], transport='NO_SIGNAL'))
    assert result.created[0].action == 'BACKUP'


@pytest.mark.parametrize('failing, what, limit', [
    ('software_deployments.create', 'software deployments', '4096'),
    ('software_configs.create', 'software configs', '50')])
def test_at_heats_quota_every_server_is_told_why_and_nothing_is_left(
        heat, swift, source_id, failing, what, limit):
    # As Heat's API answers at its per-project cap (heat/engine/service.py).
    heat.fail(failing, heat_exc.HTTPBadRequest(
        f'Request limit exceeded: You have reached the maximum {what} per tenant, {limit}. '
        'Please delete some deployments.'))
    configs = dict(heat.configs)

    result = _run(heat, transport_for('TEMP_URL_SIGNAL', swift=swift), source_id)

    assert result.created == []
    assert [server for server, _message in result.failures] == ['s1', 's2']
    for server, message in result.failures:
        assert str(message).startswith(
            f'Could not start BACKUP on server {server}: the project has reached Heat\'s '
            f'limit of {limit} {what} (')
        assert str(message).endswith(
            'Delete old runs, or ask your cloud administrator to raise the limit.')
    # The second server is not tried: Heat would refuse it alike.
    assert len(heat.called(failing)) == 1
    assert (heat.configs, heat.deployments, swift.containers) == (configs, {}, {})
