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

"""`openstack software operation list | show | cancel | rerun-failed`, on the in-memory
clouds."""

from unittest import mock

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import operations as osc_operations
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import new_runs
from tests.unit.deploy.osc.app import PROJECT
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown


@pytest.fixture
def app(heat, swift):
    return App(heat, SERVERS, swift=swift)


@pytest.fixture
def operation(heat, mysql, app):
    started = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
                    '--server', 's2', '--input', 'retention_days=3',
                    '--input', 'db_password=hunter2')
    return started['operation']


def _end(heat, server, status, code):
    [run] = [each for each in new_runs(heat) if each['server_id'] == server
             and each['status'] == 'IN_PROGRESS']
    run.update(status=status, output_values={'deploy_status_code': code})


def test_list_shows_the_latest_operation_first_with_its_runs_counted(heat, operation, app):
    _end(heat, 's1', 'COMPLETE', 0)
    made, parsed = command(osc_operations.ListOperation, app)

    columns, rows = made.take_action(parsed)

    assert dict(zip(columns, rows[0])) == {
        'ID': operation, 'Action': 'BACKUP', 'Component': 'mysql', 'Started By': 'alice',
        'Started At': mock.ANY, 'Runs': '1 COMPLETE, 1 IN_PROGRESS'}


def test_show_lists_each_servers_run(heat, operation, app):
    _end(heat, 's2', 'FAILED', 2)

    result = shown(osc_operations.ShowOperation, app, operation)

    assert [(each['server'], each['status'], each['exit_code'])
            for each in result['runs'].machine_readable()] == [
        ('demo-db-1', 'IN_PROGRESS', None), ('demo-db-2', 'FAILED', 2)]
    assert result['runs_in_batches'] == 'no'


def test_cancel_cancels_only_what_still_runs(heat, operation, app):
    _end(heat, 's1', 'COMPLETE', 0)

    result = shown(osc_operations.CancelOperation, app, operation)

    [cancelled] = result['cancelled_runs'].machine_readable()
    assert {each['server_id']: each['status'] for each in new_runs(heat)} == {
        's1': 'COMPLETE', 's2': 'FAILED'}
    assert heat.deployments[cancelled]['server_id'] == 's2'


def test_rerun_failed_runs_the_failed_servers_again_with_their_inputs_but_not_secrets(
        heat, operation, app):
    _end(heat, 's1', 'COMPLETE', 0)
    _end(heat, 's2', 'FAILED', 2)

    again = shown(osc_operations.RerunFailedOperation, app, operation)

    assert again['operation'] != operation
    [rerun] = [each for each in new_runs(heat) if each['status'] == 'IN_PROGRESS']
    values = {each['name']: each.get('value')
              for each in heat.configs[rerun['config_id']]['inputs']}
    assert (rerun['server_id'], values['retention_days'], values['db_password']) == (
        's2', '3', '')


def test_another_projects_operation_is_not_found(heat, operation, app):
    for stored in heat.configs.values():
        stored['project'] = 'not-' + PROJECT
    for command_class in (osc_operations.ShowOperation, osc_operations.CancelOperation,
                          osc_operations.RerunFailedOperation):
        made, parsed = command(command_class, app, operation)
        with pytest.raises(osc_exc.CommandError, match=f'No operation {operation} in this'):
            made.take_action(parsed)
    assert {each['status'] for each in new_runs(heat)} == {'IN_PROGRESS'}


def test_rerun_failed_sends_the_results_back_as_the_failed_runs_did(heat, mysql, swift):  # noqa
    zaqar_less = App(heat, SERVERS, swift=swift)
    started = shown(component_run.RunComponent, zaqar_less, 'mysql', 'BACKUP', '--server',
                    's1', '--transport', 'NO_SIGNAL')
    [first] = new_runs(heat)
    first.update(status='FAILED')

    shown(osc_operations.RerunFailedOperation, zaqar_less, started['operation'])

    [again] = [each for each in new_runs(heat) if each['id'] != first['id']]
    values = {each['name']: each.get('value')
              for each in heat.configs[again['config_id']]['inputs']}
    assert values['deploy_signal_transport'] == 'NO_SIGNAL'
