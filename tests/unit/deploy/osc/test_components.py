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

"""`openstack software component list | show`, on the in-memory Heat: the components the
Components panel lists, with their actions, inputs and servers."""

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner.osc import components as osc_components
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from tests.unit.deploy.osc.app import App


@pytest.fixture
def mysql(heat):
    component_id = heat.add_config(
        name='demo-mysql-abcdefghijkl', group='component',
        config={'configs': [{'actions': ['CREATE'], 'tool': 'script', 'config': 'install'},
                            {'actions': ['BACKUP'], 'tool': 'script', 'config': 'dump'}]},
        inputs=[{'name': 'retention_days', 'type': 'Number', 'default': 7,
                 'description': 'Days kept'}],
        outputs=[{'name': 'backup_file'}])
    start(heat, transport_for, RunRequest(config_id=component_id, action='BACKUP',
                                          server_ids=('s1', 's2'), name='mysql',
                                          transport='NO_SIGNAL'))
    return component_id


def _run(command_class, heat, *argv):
    command = command_class(App(heat), None)
    return command.take_action(command.get_parser('openstack').parse_args(list(argv)))


def test_the_list_names_each_component_as_the_panel_does(heat, mysql):
    columns, rows = _run(osc_components.ListComponent, heat)

    [row] = rows
    shown = dict(zip(columns, row))
    assert (shown['Name'], shown['ID'], shown['Stack'], shown['Servers']) == (
        'mysql', mysql, 'demo', 2)
    assert shown['Custom Actions'].human_readable() == 'BACKUP'
    assert shown['Lifecycle Actions'].machine_readable() == ['CREATE']


@pytest.mark.parametrize('named', ['mysql', 'demo-mysql-abcdefghijkl', None])
def test_show_finds_a_component_by_its_name_or_id(heat, mysql, named):
    columns, values = _run(osc_components.ShowComponent, heat, named or mysql)

    shown = dict(zip(columns, values))
    assert shown['id'] == mysql
    assert shown['inputs'].machine_readable() == [
        {'name': 'retention_days', 'type': 'Number', 'default': 7,
         'description': 'Days kept'}]
    assert [(each['server'], each['latest_action'], each['status'])
            for each in shown['servers'].machine_readable()] == [
        ('s1', 'BACKUP', 'COMPLETE'), ('s2', 'BACKUP', 'COMPLETE')]


def test_an_unknown_component_is_a_sentence_not_a_traceback(heat, mysql):
    with pytest.raises(osc_exc.CommandError, match='No software component postgres in '):
        _run(osc_components.ShowComponent, heat, 'postgres')


def test_another_projects_components_are_not_listed(heat, mysql):
    heat.configs[mysql]['project'] = 'someone-else'

    assert _run(osc_components.ListComponent, heat)[1] == []
