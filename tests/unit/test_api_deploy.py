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

"""api.deploy: the user's clients handed to the runner.

The clients are the runner's in-memory fakes, put in place where
api/ builds them.
"""

import json

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
from openstack_auth import utils as auth_utils

from heat_deploy_dashboard import api
import heat_deploy_runner as runner
from heat_deploy_runner.running import operations
from heat_deploy_runner import workflows
from tests.unit.deploy.fakes import FakeHeat
from tests.unit.deploy.fakes import FakeSwift
from tests.unit.deploy.mistral_fakes import FakeMistral
from tests.unit.deploy.zaqar_fakes import FakeZaqar
from tests.unit import helpers
from tests.unit import test_data

CLIENT_MOCKS = {api.heat: ('heatclient',), api.swift: ('swift_connection',)}
SWEEP_MOCKS = dict(CLIENT_MOCKS)
SWEEP_MOCKS[api.mistral] = ('mistralclient',)


class ApiDeployTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        # The logged-in user, as Horizon's middleware gives it to a view.
        self.request.user = auth_utils.get_user(self.request)
        self.heat = FakeHeat()
        self.swift = FakeSwift(
            account_headers={'X-Account-Meta-Temp-URL-Key': 'k'})
        self.config_id = self.heat.add_config(
            name='demo-mysql-yy352j5ma4zz', group='component',
            config={'configs': [{'actions': ['BACKUP'], 'tool': 'script',
                                 'config': 'tar ...'}]},
            inputs=[{'name': 'retention_days', 'type': 'Number',
                     'default': 7}])

    def use_fakes(self):
        self.mock_heatclient.return_value = self.heat
        self.mock_swift_connection.return_value = self.swift

    def start(self, transport='TEMP_URL_SIGNAL'):
        return api.deploy.start_runs(self.request, runner.RunRequest(
            self.config_id, 'BACKUP', ('db-1', 'db-2'), {'retention_days': 14}, transport, 30,
            'mysql'))

    @helpers.create_mocks(CLIENT_MOCKS)
    def test_trigger_runs_the_action_on_each_server(self):
        self.use_fakes()

        result = self.start()

        self.assertEqual([], result.failures)
        self.assertEqual(['db-1', 'db-2'],
                         [d.server_id for d in result.created])
        derived = [c for c in self.heat.configs.values()
                   if c['id'] != self.config_id]
        self.assertEqual({'mysql-BACKUP'}, {c['name'] for c in derived})
        self.assertEqual(
            {'14'}, {runner.derived_input_values(c)['retention_days']
                     for c in derived})
        # One signal container for the submit, in the user's own account; an object a server.
        [objects] = self.swift.containers.values()
        self.assertEqual(2, len(objects))
        self.mock_swift_connection.assert_called_once_with(self.request)
        # One operation for the submit, shared by its runs, started by the user.
        operations = {run.operation for run in result.created}
        self.assertEqual(1, len(operations))
        self.assertEqual(self.request.user.username, operations.pop().started_by)

    @helpers.create_mocks(CLIENT_MOCKS)
    def test_no_signal_needs_no_object_storage_client(self):
        self.use_fakes()

        result = self.start('NO_SIGNAL')

        self.assertEqual(['COMPLETE', 'COMPLETE'],
                         [d.status for d in result.created])
        self.mock_swift_connection.assert_not_called()

    @helpers.create_mocks(CLIENT_MOCKS)
    def test_tempurl_without_object_storage_refuses_and_creates_nothing(self):
        self.use_fakes()
        self.request.user.service_catalog = [
            s for s in self.request.user.service_catalog
            if s['type'] != 'object-store']

        with self.assertRaises(runner.InputError) as raised:
            self.start()

        self.assertIn('needs Object Storage', str(raised.exception))
        self.assertEqual([self.config_id], list(self.heat.configs))
        self.mock_swift_connection.assert_not_called()

    def _sweeps(self):
        """What the sweeps handed to Mistral were asked (runner.pruning.orphans.sweep_later)."""
        return [json.loads(each.input) for each in self.mistral.executions.rows.values()
                if each.workflow_name == workflows.SWEEP_WORKFLOW]

    def use_mistral(self):
        test_data.with_workflows(self)
        self.request.user = auth_utils.get_user(self.request)
        self.mistral = FakeMistral(self.request.user.project_id)
        self.mock_mistralclient.return_value = self.mistral

    @helpers.create_mocks(SWEEP_MOCKS)
    def test_a_start_heat_left_unanswered_hands_mistral_the_sweep_of_its_operation(self):
        self.use_mistral()
        self.use_fakes()
        # Heat made the config, and answered too late.
        self.heat.fail_after('software_configs.create', ks_exc.ConnectTimeout('no answer'))

        with self.assertRaises(ks_exc.ConnectTimeout):
            self.start()

        [asked] = self._sweeps()
        [orphan] = [each for each in self.heat.configs.values()
                    if each['id'] != self.config_id]
        operation = operations.operation_of_config(orphan)
        self.assertEqual((operation.id, 'BACKUP'), (asked['operation_id'], asked['action_name']))
        self.assertEqual(self.request.user.username, operation.started_by)

    @helpers.create_mocks(SWEEP_MOCKS)
    def test_a_start_heat_answered_hands_over_no_sweep(self):
        self.use_mistral()
        self.use_fakes()

        self.start()
        self.heat.fail('software_configs.create', heat_exc.HTTPBadRequest('no'))
        self.start()

        self.assertEqual([], self._sweeps())

    @helpers.create_mocks(CLIENT_MOCKS)
    def test_cancel_is_signed_with_the_users_name(self):
        self.use_fakes()
        (deployment,) = api.deploy.start_runs(self.request, runner.RunRequest(
            self.config_id, 'BACKUP', ('db-1',), {}, 'TEMP_URL_SIGNAL', 30, 'mysql')).created

        cancelled = api.deploy.cancel_deployment(self.request, deployment.id)

        self.assertEqual('FAILED', cancelled.status)
        self.assertTrue(cancelled.status_reason.startswith(
            f'Cancelled by {self.request.user.username} at '))

    @helpers.create_mocks(CLIENT_MOCKS)
    def test_delete_removes_the_run_and_its_signal_container(self):
        self.use_fakes()
        (deployment,) = api.deploy.start_runs(self.request, runner.RunRequest(
            self.config_id, 'BACKUP', ('db-1',), {}, 'TEMP_URL_SIGNAL', 30, 'mysql')).created

        leftovers = api.deploy.delete_deployment(self.request, deployment.id)

        self.assertEqual([], leftovers)
        self.assertEqual({}, self.heat.deployments)
        self.assertEqual([self.config_id], list(self.heat.configs))
        self.assertEqual({}, self.swift.containers)


class ApiZaqarTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        test_data.with_messaging(self)
        self.request.user = auth_utils.get_user(self.request)

    def test_the_client_talks_to_the_catalogs_messaging_with_the_users_token(self):
        client = api.zaqar.zaqar_client(self.request)

        self.assertEqual(2, client.api_version)
        self.assertEqual('http://public.zaqar.example.com:8888', client.api_url)
        options = client.auth_opts['options']
        self.assertEqual(self.request.user.token.id, options['os_auth_token'])
        self.assertEqual(self.request.user.tenant_id, options['os_project_id'])

    @helpers.create_mocks({api.heat: ('heatclient',),
                           api.zaqar: ('zaqar_client',)})
    def test_a_result_on_the_queue_is_applied_through_the_api(self):
        heat, zaqar = FakeHeat(), FakeZaqar()
        self.mock_heatclient.return_value = heat
        self.mock_zaqar_client.return_value = zaqar
        config_id = heat.add_config(name='monitoring', outputs=[{'name': 'report'}])
        (deployment,) = api.deploy.start_runs(self.request, runner.RunRequest(
            config_id, 'CHECK', ('mon-1',), {}, 'ZAQAR_SIGNED_URL_SIGNAL', 30,
            'monitoring')).created
        queue = runner.derived_input_values(deployment.config)['deploy_zaqar_queue']
        zaqar.post(queue, {'deploy_status_code': 0, 'report': 'disk 5% used'})

        done = api.deploy.collect_result(self.request, deployment)

        self.assertEqual('COMPLETE', done.status)
        self.assertEqual('disk 5% used', done.output_values['report'])
