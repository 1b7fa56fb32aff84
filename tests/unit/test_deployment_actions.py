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

"""Deployments: cancelling and deleting runs from the table."""

from django.urls import reverse
from heatclient import exc as heat_exc

from heat_deploy_dashboard import api
import heat_deploy_runner as runner
from tests.unit import helpers
from tests.unit import test_data

RUNNING = test_data.DEPLOYMENTS[2]['id']
FINISHED = test_data.DEPLOYMENTS[0]['id']


class DeploymentActionTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        self.index_url = reverse('horizon:project:deployments:index')

    def _list(self):
        self.mock_deployments_list.return_value = self.software_deployments.list()
        self.mock_config_get.side_effect = test_data.run_config

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_cancel_is_offered_only_for_running_runs_and_says_the_server_may_finish(self):
        self._list()

        res = self.client.get(self.index_url)

        self.assertContains(res, f'deployments__cancel__{RUNNING}')
        self.assertNotContains(res, f'deployments__cancel__{FINISHED}')
        self.assertContains(res, 'may still finish it')
        self.assertContains(res, f'deployments__delete__{FINISHED}')
        # A row's delete confirmation names the CLI's command for that row.
        self.assertContains(res, f'With the openstack client: openstack software run delete '
                                 f'{FINISHED}')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.deploy: ('cancel_deployment',)})
    def test_cancelling_a_running_run_asks_heat_once(self):
        self._list()
        self.mock_cancel_deployment.return_value = test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], status='FAILED',
            status_reason='Cancelled by test_user at 2026-11-22T04:00:00Z'))

        res = self.client.post(self.index_url, {'action': f'deployments__cancel__{RUNNING}'})

        self.assertRedirectsNoFollow(res, self.index_url)
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(), RUNNING)
        self.assertMessageCount(success=1)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'deployment_get'),
                           api.deploy: ('cancel_deployment', 'delete_deployment')})
    def test_a_run_not_on_the_first_page_is_cancelled_and_deleted_all_the_same(self):
        # A run's own page posts its actions to the list, whose table holds its first page.
        self._list()
        older = '00000042-0000-4000-8000-000000000000'
        self.mock_deployment_get.return_value = test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], id=older))
        self.mock_cancel_deployment.return_value = test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], id=older, status='FAILED',
            status_reason='Cancelled by test_user at 2026-11-22T04:00:00Z'))
        self.mock_delete_deployment.return_value = []

        cancelled = self.client.post(self.index_url, {'action': f'deployments__cancel__{older}'})
        deleted = self.client.post(self.index_url, {'action': f'deployments__delete__{older}'})

        for res in (cancelled, deleted):
            self.assertRedirectsNoFollow(res, self.index_url)
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(), older)
        self.mock_delete_deployment.assert_called_once_with(helpers.IsHttpRequest(), older)
        self.assertMessageCount(success=2)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'deployment_get'),
                           api.deploy: ('cancel_deployment',)})
    def test_an_action_on_a_run_that_is_gone_says_so_and_does_nothing(self):
        self._list()
        self.mock_deployment_get.side_effect = heat_exc.HTTPNotFound()
        gone = '00000043-0000-4000-8000-000000000000'

        for obj_id in (gone, 'not-an-id', '%00'):
            with self.subTest(obj_id):
                res = self.client.post(self.index_url,
                                       {'action': f'deployments__cancel__{obj_id}'})

                self.assertRedirectsNoFollow(res, self.index_url)
        self.assertMessageCount(error=3)
        self.mock_cancel_deployment.assert_not_called()
        self.mock_deployment_get.assert_called_once_with(helpers.IsHttpRequest(), gone)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_cancel_asks_for_confirmation(self):
        self._list()

        res = self.client.get(self.index_url)

        self.assertRegex(res.content.decode(),
                         rf'<button[^>]*btn-danger[^>]*deployments__cancel__{RUNNING}')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.deploy: ('cancel_deployment',)})
    def test_cancelling_a_run_that_already_finished_is_harmless(self):
        self._list()
        self.mock_cancel_deployment.return_value = test_data.deployment(
            test_data.DEPLOYMENTS[0])

        res = self.client.post(self.index_url, {'action': f'deployments__cancel__{FINISHED}'})

        self.assertRedirectsNoFollow(res, self.index_url)
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(), FINISHED)
        # Only "had already finished", by the run's name: no "Cancelled Run" beside it.
        self.assertMessageCount(success=0, info=1, error=0)
        shown = [str(m) for m in res.wsgi_request._messages]
        self.assertEqual(1, len(shown))
        self.assertIn('had already finished', shown[0])
        self.assertNotIn(FINISHED, shown[0])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.deploy: ('cancel_deployment',)})
    def test_a_cancel_that_fails_says_so_without_raw_text(self):
        self._list()
        self.mock_cancel_deployment.side_effect = Exception('boom at 10.9.9.9')

        res = self.client.post(self.index_url, {'action': f'deployments__cancel__{RUNNING}'})

        self.assertMessageCount(error=1)
        shown = [str(m) for m in res.wsgi_request._messages]
        self.assertNotIn('10.9.9.9', ' '.join(shown))

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.deploy: ('delete_deployment',)})
    def test_deleting_a_run_reports_what_could_not_be_removed(self):
        self._list()
        self.mock_delete_deployment.return_value = [runner.Message(
            'The deployment %(deployment_id)s was deleted, but the place its result was '
            'sent to could not be removed.', {'deployment_id': FINISHED})]

        res = self.client.post(self.index_url, {'action': f'deployments__delete__{FINISHED}'})

        self.assertRedirectsNoFollow(res, self.index_url)
        self.mock_delete_deployment.assert_called_once_with(helpers.IsHttpRequest(), FINISHED)
        self.assertMessageCount(success=1, warning=1)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.deploy: ('cancel_deployment',)})
    def test_a_cancel_that_found_the_result_waiting_says_the_run_had_finished(self):
        self._list()
        self.mock_cancel_deployment.return_value = test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], status='COMPLETE', status_reason='Outputs received'))

        res = self.client.post(self.index_url, {'action': f'deployments__cancel__{RUNNING}'})

        self.assertRedirectsNoFollow(res, self.index_url)
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(), RUNNING)
        self.assertMessageCount(success=0, info=1, error=0)
