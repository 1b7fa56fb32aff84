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

"""Deployments: running rows update live, one request per poll for all of them."""

import json
from unittest import mock

from django.conf import settings
from django.urls import reverse
from heatclient import exc as heat_exc
from heatclient.v1 import software_deployments

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import test_data

RUNNING_ID = test_data.DEPLOYMENTS[2]['id']
FINISHED_ID = test_data.DEPLOYMENTS[0]['id']
OTHER_ID = '00000001-0000-4000-8000-000000000000'


class LiveStatusTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        self.status_url = reverse('horizon:project:deployments:status')

    def _poll(self, *ids):
        # As the pages' pollers ask.
        return self.client.post(self.status_url, {'id': list(ids)})

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_one_poll_returns_every_requested_row_freshly_shown(self):
        self.mock_config_get.side_effect = test_data.run_config
        finished = test_data.deployment(dict(test_data.DEPLOYMENTS[2],
                                             status='COMPLETE',
                                             status_reason='Outputs received'))
        still_running = test_data.deployment(dict(test_data.DEPLOYMENTS[2], id=OTHER_ID))
        self.mock_deployment_get.side_effect = \
            lambda request, each: {RUNNING_ID: finished, OTHER_ID: still_running}[each]

        res = self._poll(RUNNING_ID, OTHER_ID)

        self.assertEqual(200, res.status_code)
        reply = json.loads(res.content)
        self.assertEqual({RUNNING_ID, OTHER_ID}, set(reply['rows']))
        self.assertIn('Outputs received', reply['rows'][RUNNING_ID])
        self.assertIn('data-status="COMPLETE"', reply['rows'][RUNNING_ID])
        self.assertIn('data-status="IN_PROGRESS"', reply['rows'][OTHER_ID])
        self.assertEqual([OTHER_ID], reply['running'])
        self.assertEqual([], reply['gone'])
        self.assertTrue(reply['checked_at'])
        self.assertEqual(2, self.mock_deployment_get.call_count)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_the_running_runs_of_an_operations_other_pages_are_polled_not_rendered(self):
        self.mock_config_get.side_effect = test_data.run_config
        finished = test_data.deployment(dict(test_data.DEPLOYMENTS[2], status='FAILED',
                                             status_reason='deploy_status_code : 3'))
        still_running = test_data.deployment(dict(test_data.DEPLOYMENTS[2], id=OTHER_ID))
        self.mock_deployment_get.side_effect = \
            lambda request, each: {RUNNING_ID: finished, OTHER_ID: still_running}[each]

        reply = json.loads(self.client.post(self.status_url, {
            'id': [OTHER_ID], 'elsewhere': [RUNNING_ID], 'table': 'operation'}).content)

        self.assertEqual([OTHER_ID], list(reply['rows']))
        self.assertEqual('FAILED', reply['statuses'][RUNNING_ID]['status'])
        self.assertEqual([OTHER_ID], reply['running'])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_an_operations_page_gets_its_rows_with_its_own_columns(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.return_value = test_data.deployment(test_data.DEPLOYMENTS[0])

        for table, has_outputs_link in (('operation', True), ('deployments', False),
                                        ('<b>unknown</b>', False)):
            reply = json.loads(self.client.post(self.status_url, {
                'id': [FINISHED_ID], 'table': table}).content)
            row = reply['rows'][FINISHED_ID]
            self.assertEqual(has_outputs_link, '?tab=deployment_details__outputs' in row, table)
            self.assertIn('data-shown-status="COMPLETE"', row)
            # A poll POSTs, but a finished row it redraws is offered what a page load offers.
            self.assertNotIn('__action_cancel', row)
            self.assertIn('__action_rerun', row)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_the_pollers_post_of_more_ids_than_a_request_line_holds_answers_them_all(self):
        self.mock_config_get.side_effect = test_data.run_config
        ids = [f'{RUNNING_ID[:-4]}{n:04d}' for n in range(150)]
        self.mock_deployment_get.side_effect = lambda request, each: test_data.deployment(
            dict(test_data.DEPLOYMENTS[2], id=each))

        res = self.client.post(self.status_url, {'id': ids})

        self.assertEqual(200, res.status_code)
        self.assertEqual(set(ids), set(json.loads(res.content)['running']))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_deleted_deployment_is_reported_gone(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.side_effect = heat_exc.HTTPNotFound()

        reply = json.loads(self._poll(FINISHED_ID).content)

        self.assertEqual([FINISHED_ID], reply['gone'])
        self.assertEqual({}, reply['rows'])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_heat_down_answers_an_error_the_page_can_show(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.side_effect = heat_exc.CommunicationError(
            'connection refused to http://10.0.0.1:8004')

        res = self._poll(RUNNING_ID)

        self.assertEqual(503, res.status_code)
        reply = json.loads(res.content)
        self.assertEqual('The orchestration service could not be reached.', reply['error'])
        self.assertNotIn('10.0.0.1', res.content.decode())

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_show_that_failed_on_another_service_names_that_service(self):
        # Heat's show of a running run reads its signal from Swift, and checks the user's
        # token with Keystone: while either is down, it fails or hangs.
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.side_effect = heat_exc.CommunicationError('timed out')
        for keystone, swift, named in (
                (False, True, 'The identity service (Keystone) could not be reached.'),
                (True, False, 'Object Storage could not be reached.'),
                (True, True, 'The orchestration service could not be reached.')):
            with self.subTest(named=named):
                # Mocks of every test (helpers.TestCase).
                api.keystone.answers.return_value = keystone
                api.swift.answers.return_value = swift

                res = self._poll(RUNNING_ID)

                self.assertEqual((503, named), (res.status_code, res.json()['error']))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_user_data_in_a_row_is_escaped(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.return_value = test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], status_reason='<script>alert(1)</script>'))

        reply = json.loads(self._poll(RUNNING_ID).content)

        self.assertNotIn('<script>', reply['rows'][RUNNING_ID])
        self.assertIn('&lt;script&gt;', reply['rows'][RUNNING_ID])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_the_list_page_carries_the_live_status_line_and_its_script(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployments_list.return_value = self.software_deployments.list()

        res = self.client.get(reverse('horizon:project:deployments:index'))

        self.assertContains(res, 'class="hdd-poll-state')
        self.assertContains(res, f'data-url="{self.status_url}"')
        # The poller POSTs with the token of the form around the table.
        self.assertRegex(
            res.content.decode(),
            r'(?s)<form[^>]*>.*name="csrfmiddlewaretoken".*<table[^>]*id="deployments"')

    def test_each_script_of_the_plugin_is_loaded_once_on_every_page(self):
        # Two pollers on one page would each replace rows and double the requests.
        scripts = [f for f in settings.HORIZON_CONFIG['js_files']
                   if f.startswith('heat_deploy_dashboard/')]
        self.assertIn('heat_deploy_dashboard/js/deployment_poller.js', scripts)
        self.assertEqual(len(scripts), len(set(scripts)))

    @helpers.create_mocks({api.heat: ('heatclient', 'config_get')})
    def test_a_row_is_rendered_from_one_reading_of_the_deployment(self):
        # heatclient's get() gives a lazily loaded resource: reading a key Heat left out
        # (updated_time, while running) would GET it again in the middle of the row.
        manager = mock.Mock()
        self.mock_heatclient.return_value.software_deployments.get.return_value = \
            software_deployments.SoftwareDeployment(
                manager, dict(test_data.DEPLOYMENTS[2]), loaded=False)
        self.mock_config_get.side_effect = test_data.run_config

        reply = json.loads(self._poll(RUNNING_ID).content)

        self.assertIn('In Progress', reply['rows'][RUNNING_ID])
        manager.get.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result',)})
    def test_a_waiting_result_is_applied_for_running_rows_only(self):
        self.mock_config_get.side_effect = test_data.run_config
        running = test_data.deployment(test_data.DEPLOYMENTS[2])
        finished = test_data.deployment(test_data.DEPLOYMENTS[0])
        self.mock_deployment_get.side_effect = \
            lambda request, each: {RUNNING_ID: running, FINISHED_ID: finished}[each]
        self.mock_collect_result.return_value = test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], status='COMPLETE', status_reason='Outputs received'))

        reply = json.loads(self._poll(RUNNING_ID, FINISHED_ID).content)

        [(_request, run)] = [each.args for each in self.mock_collect_result.call_args_list]
        self.assertEqual(RUNNING_ID, run.id)
        self.assertEqual(test_data.RUN_NAMES[running.config_id], run.name)
        self.assertIn('data-status="COMPLETE"', reply['rows'][RUNNING_ID])
        self.assertIn('Outputs received', reply['rows'][RUNNING_ID])
        self.assertEqual([], reply['running'])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result',)})
    def test_a_get_answers_the_same_rows_and_changes_nothing(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.return_value = test_data.deployment(test_data.DEPLOYMENTS[2])

        reply = json.loads(self.client.get(self.status_url, {'id': [RUNNING_ID]}).content)

        self.mock_collect_result.assert_not_called()
        self.assertIn('data-status="IN_PROGRESS"', reply['rows'][RUNNING_ID])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result',)})
    def test_rows_still_render_when_applying_a_result_fails(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.return_value = test_data.deployment(test_data.DEPLOYMENTS[2])
        self.mock_collect_result.side_effect = Exception('messaging down at 10.0.0.9')

        res = self._poll(RUNNING_ID)

        self.assertEqual(200, res.status_code)
        reply = json.loads(res.content)
        self.assertIn('data-status="IN_PROGRESS"', reply['rows'][RUNNING_ID])
        self.assertEqual([RUNNING_ID], reply['running'])
        self.assertNotIn('10.0.0.9', res.content.decode())
        self.mock_collect_result.assert_called_once()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result',)})
    def test_a_running_row_whose_config_is_gone_is_shown_as_heat_has_it(self):
        self.mock_config_get.side_effect = heat_exc.HTTPNotFound()
        self.mock_deployment_get.return_value = test_data.deployment(test_data.DEPLOYMENTS[2])

        reply = json.loads(self._poll(RUNNING_ID).content)

        self.assertEqual([RUNNING_ID], reply['running'])
        self.mock_collect_result.assert_not_called()
