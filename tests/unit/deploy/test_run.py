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

"""A run, as built from heatclient's answer: Heat's keys, and what its derived config tells."""

from unittest import mock

from heatclient.v1 import software_deployments

from heat_deploy_runner.configs.derived import COMPONENT_GROUP
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner import Operation
from heat_deploy_runner import Run

RUNNING = {'id': 'd1', 'server_id': 's1', 'config_id': 'c1', 'action': 'BACKUP',
           'status': 'IN_PROGRESS', 'status_reason': 'None', 'input_values': None,
           'output_values': None, 'creation_time': '2026-11-26T08:00:00Z'}
OPERATION = Operation('op-1', 'alice', '2026-11-26T08:00:00Z', source='component-1')


def _config(group=COMPONENT_GROUP, options=None, expires='2026-11-26T08:30:00Z'):
    return {'id': 'c1', 'name': 'mysql-BACKUP', 'group': group, 'options': options or {},
            'inputs': [{'name': 'deploy_signal_transport', 'value': 'ZAQAR_SIGNED_URL_SIGNAL'},
                       {'name': 'deploy_zaqar_expires', 'value': expires}]}


def test_a_key_heat_left_out_costs_no_second_get():
    manager = mock.Mock()
    lazy = software_deployments.SoftwareDeployment(manager, dict(RUNNING), loaded=False)

    run = Run.from_heat(lazy)

    assert (run.id, run.status, run.updated_time) == ('d1', 'IN_PROGRESS', None)
    assert (run.input_values, run.output_values) == ({}, {})
    manager.get.assert_not_called()


def test_heats_none_is_no_reason():
    run = Run.from_heat(software_deployments.SoftwareDeployment(None, RUNNING, loaded=True))

    assert run.reason == ''
    assert run.changed(status_reason='Outputs received').reason == 'Outputs received'


def test_without_its_config_a_run_has_no_name_deadline_transport_or_rerun():
    run = Run('d1', 's1', 'c1')

    assert (run.name, run.deadline, run.transport, run.operation) == (None, None, None, None)
    assert not run.rerunnable


def test_its_config_names_it_and_sets_its_deadline_and_transport():
    run = Run('d1', 's1', 'c1').described(_config())

    assert run.name == 'mysql-BACKUP'
    assert run.deadline.isoformat() == '2026-11-26T08:30:00+00:00'
    assert run.transport == 'ZAQAR_SIGNED_URL_SIGNAL'
    assert run.rerunnable


def test_its_operation_comes_from_its_input_values():
    carried = Run('d1', 's1', 'c1', input_values={OPERATION_OPTION: OPERATION.as_option()})
    deployed = carried.described(_config(group='script'))

    assert carried.operation == OPERATION
    # A plain config deployed from the Configs panel can be run again from its form.
    assert deployed.rerunnable
    assert not Run('d3', 's1', 'c1').described(_config(group='script')).rerunnable
