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

"""`openstack software run create`, `run show`, `run cancel` and `run delete`, on the
in-memory clouds: a config deployed to one server by name as the Deploy form does, checked
as it checks; a secret input masked; a run cancelled or deleted with what it made; a
service that does not answer named with what did not happen."""

from unittest import mock

from keystoneauth1 import exceptions as ks_exc
from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner import masking
from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import components as osc_components
from heat_deploy_runner.osc import runs as osc_runs
from heat_deploy_runner.osc import waiting
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import new_runs
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown
from tests.unit.deploy.osc.app import USER


def test_cancel_marks_a_running_run_cancelled_and_leaves_an_ended_one(heat, mysql, app):
    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1')
    [running] = new_runs(heat)

    first = shown(osc_runs.CancelRun, app, running['id'])
    second = shown(osc_runs.CancelRun, app, running['id'])

    assert first['status'] == second['status'] == 'CANCELLED'
    assert first['status_reason'].startswith(f'Cancelled by {USER} at ')
    assert app.stderr.getvalue() == (
        f'The run {running["id"]} had already finished; it was left as it is.\n')


def test_inputs_shown_for_a_run_keep_its_secret_masked(heat, mysql, app):
    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
          '--input', 'db_password=hunter2', '--transport', 'NO_SIGNAL')
    [running] = new_runs(heat)

    inputs = shown(osc_runs.ShowRun, app, running['id'])['inputs'].machine_readable()

    assert inputs['db_password'] == masking.MASK


def test_run_create_deploys_a_config_to_one_server_by_name_as_the_deploy_form(heat, app):
    hello = heat.add_config(name='hello', group='script', config='echo hi', inputs=[
        {'name': 'count', 'type': 'Number', 'default': 1}])

    result = shown(component_run.CreateRun, app, '--config', hello, '--server', 'demo-web-1',
                   '--action', 'ROTATE', '--input', 'count=2')

    [made] = [each for each in heat.deployments.values() if each['action'] == 'ROTATE']
    config = heat.configs[made['config_id']]
    assert (made['server_id'], config['name'], result['config']) == (
        's3', 'hello-ROTATE', hello)
    assert [each.get('value') for each in config['inputs'] if each['name'] == 'count'] == [
        '2']


@pytest.mark.parametrize('argv, said', [
    (('--config', 'nosuch', '--server', 's1'), 'No software config nosuch in this project.'),
    (('--server', 'nosuch'), 'No server of this project has that ID or name.'),
    (('--server', 's1', '--input', 'nosuch=1'), 'No input nosuch is declared'),
])
def test_run_create_refuses_and_makes_nothing(heat, app, argv, said):
    hello = heat.add_config(name='hello', group='script', config='echo hi', inputs=[])
    before = dict(heat.configs)
    argv = argv if argv[0] == '--config' else ('--config', hello) + argv
    made, parsed = command(component_run.CreateRun, app, *argv)

    with pytest.raises(osc_exc.CommandError, match=said):
        made.take_action(parsed)
    assert (heat.configs, heat.deployments) == (before, {})


def test_delete_removes_the_run_its_config_and_its_container(heat, swift, mysql, app):
    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1')
    [running] = new_runs(heat)
    containers = set(swift.containers)

    made, parsed = command(osc_runs.DeleteRun, app, running['id'])
    made.take_action(parsed)

    assert running['id'] not in heat.deployments
    assert running['config_id'] not in heat.configs
    assert containers - set(swift.containers)


@pytest.mark.parametrize('command_class, argv', [
    (osc_components.ListComponent, ()),
    (component_run.RunComponent, ('mysql', 'BACKUP', '--server', 's1'))])
def test_a_service_that_does_not_answer_is_named_with_what_did_not_happen(
        heat, mysql, app, command_class, argv):
    heat.fail('software_configs.list', ks_exc.ConnectFailure('Unable to establish connection'))
    made, parsed = command(command_class, app, *argv)

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    said = str(refused.value)
    assert said.startswith('Unable to ') and 'the orchestration service could not be ' \
        'reached or answered with an error.' in said and said.endswith(
            'Try again later, or ask your cloud administrator to check Heat.')
    assert 'establish' not in said
    assert new_runs(heat) == []


def test_another_projects_config_is_not_found_for_run_create(heat, app):
    other = heat.add_config(name='theirs', group='script', config='echo', inputs=[])
    heat.configs[other]['project'] = 'not-mine'
    made, parsed = command(component_run.CreateRun, app, '--config', other, '--server', 's1')

    with pytest.raises(osc_exc.CommandError, match=f'No software config {other} in this'):
        made.take_action(parsed)
    assert heat.deployments == {}


@pytest.mark.parametrize('argv, said', [
    (('--action', 'A\nB'), 'holds a control character'),
    (('--name', 'n' * 250, '--action', 'BACKUP'), 'longer than the 255 characters'),
    ((), 'Give a value for greeting with --input NAME=VALUE: it has no default.')])
def test_run_create_checks_what_the_deploy_form_checks(heat, app, argv, said):
    hello = heat.add_config(name='hello', group='script', config='echo', inputs=[
        {'name': 'greeting', 'type': 'String'}])
    extra = () if 'greeting' in said else ('--input', 'greeting=hi')
    made, parsed = command(component_run.CreateRun, app, '--config', hello, '--server', 's1',
                           *argv, *extra)

    with pytest.raises(osc_exc.CommandError, match=said):
        made.take_action(parsed)
    assert heat.deployments == {}


# What the Run Action form says to the same (test_secrets_need_object_storage).
NEEDS_OBJECT_STORAGE = (
    'A secret input of a run in batches, with tries or on a schedule is kept in Object '
    'Storage, which is not in your service catalog (the workflow service would keep it in '
    'the clear). Run it now without batches or tries, or leave db_password empty.')


def test_tries_with_a_secret_input_without_object_storage_are_refused_as_the_form_does(
        heat, mysql, mistral):
    app = App(heat, SERVERS, mistral=mistral)
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--retries', '2', '--input', 'db_password=hunter2')

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    assert str(refused.value) == NEEDS_OBJECT_STORAGE
    assert (new_runs(heat), mistral.executions.rows) == ([], {})


@pytest.mark.parametrize('ends', ['SUCCESS', 'deleted'])
def test_wait_follows_a_run_in_batches_until_its_execution_ends_or_goes(
        heat, swift, mysql, mistral, ends):
    app = App(heat, SERVERS, swift=swift, mistral=mistral)
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--batch-size', '1', '--wait')
    looks = []

    def meanwhile(seconds):
        # Mistral's batch makes no run here: its execution ends, or is deleted.
        [execution] = mistral.executions.rows.values()
        looks.append(execution.state)
        if ends == 'deleted':
            del mistral.executions.rows[execution.id]
        else:
            execution.state = ends

    with mock.patch.object(waiting.time, 'sleep', meanwhile), \
            mock.patch.object(waiting, 'EXECUTION_SECONDS', 0), \
            mock.patch.object(made, 'produce_output'):
        # Its one server got no run: a script must see it.
        assert made.run(parsed) == 1

    assert looks == ['RUNNING']
