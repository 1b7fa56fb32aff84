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

"""Project > Software Deployments > Servers: a server's metadata, what its agent reads, masked
on its tab; its secrets shown only through a confirmed POST."""

from django.test import Client
from django.test.utils import override_settings

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import servers_case as case
from tests.unit import servers_data as data


class ServerMetadataTests(case.ServersTestCase):

    @helpers.create_mocks({**case.HEAT_MOCKS,
                           api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_is_read_only_when_its_tab_is_opened_and_masks_secrets(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        self.client.get(case.server_url())
        self.mock_server_metadata.assert_not_called()

        res = self.client.get(case.server_url() + case.METADATA_TAB)

        self.mock_server_metadata.assert_called_once_with(helpers.IsHttpRequest(), data.DB_1)
        self.assertContains(res, 'deploy_signal_id')
        self.assertContains(res, 'temp_url_sig=********')
        for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
            self.assertNotContains(res, secret)

    @helpers.create_mocks({**case.HEAT_MOCKS,
                           api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_a_get_asking_to_reveal_still_masks_and_offers_the_confirmation(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        res = self.client.get(case.server_url() + case.METADATA_TAB + '&reveal=1')

        self.assertContains(res, 'temp_url_sig=********')
        self.assertNotContains(res, 'Secrets are shown')
        for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
            self.assertNotContains(res, secret)
        self.assertContains(res, f'href="{case.reveal_url()}"')
        self.assertContains(res, 'ajax-modal hdd-reveal')
        self.assertContains(res, '<code>openstack software deployment metadata show '
                                 + data.DB_1)

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_the_confirmation_shows_no_secret_and_posts_to_itself(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        modal = self.client.get(case.reveal_url(), HTTP_X_REQUESTED_WITH='XMLHttpRequest')
        page = self.client.get(case.reveal_url() + '?reveal=1')

        for res in (modal, page):
            self.assertEqual(200, res.status_code)
            self.assertContains(res, "Show the secrets of server")
            self.assertContains(res, 'passwords and signal URLs will be shown on screen')
            self.assertContains(res, f'action="{case.reveal_url()}"')
            self.assertContains(res, 'method="POST"')
            self.assertContains(res, 'name="csrfmiddlewaretoken"')
            self.assertContains(res, f'href="{case.server_url()}{case.METADATA_TAB}"')
            self.assertNotContains(res, 'Secrets are shown')
            for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
                self.assertNotContains(res, secret)
        self.assertTemplateUsed(modal, 'project/servers/_reveal.html')
        self.assertTemplateUsed(page, 'project/servers/reveal.html')
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_posting_the_confirmation_shows_the_secrets_with_a_warning_never_cached(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        modal = self.client.post(case.reveal_url(), {}, HTTP_X_REQUESTED_WITH='XMLHttpRequest')
        page = self.client.post(case.reveal_url(), {})

        for res in (modal, page):
            self.assertEqual(200, res.status_code)
            self.assertContains(res, 'Secrets are shown')
            # Each secret listed by name first, in the table above the whole metadata.
            secrets = res.content.decode().split('class="table table-condensed table-striped '
                                                 'hdd-secrets"')[1].split('</table>')[0]
            for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
                self.assertContains(res, secret)
                self.assertIn(secret, secrets)
            self.assertContains(res, '<code>openstack software deployment metadata show '
                                     + data.DB_1)
            self.assertIn('no-store', res['Cache-Control'])
            self.assertNotIn('X-Horizon-Location', res)
        # As a modal: closing it masks them; as a page, a link back to the masked tab.
        self.assertTemplateUsed(modal, 'project/servers/_revealed.html')
        self.assertContains(modal, 'data-dismiss="modal"')
        self.assertTemplateUsed(page, 'project/servers/revealed.html')
        self.assertContains(page, f'href="{case.server_url()}{case.METADATA_TAB}"')
        self.assertEqual(2, self.mock_server_metadata.call_count)
        self.mock_server_metadata.assert_called_with(helpers.IsHttpRequest(), data.DB_1)

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_post_without_the_csrf_token_reveals_nothing(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()
        client = Client(enforce_csrf_checks=True)
        client.cookies = self.client.cookies

        res = client.post(case.reveal_url(), {})

        self.assertEqual(403, res.status_code)
        for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
            self.assertNotContains(res, secret, status_code=403)
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_failure_to_read_the_metadata_is_a_sentence(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.side_effect = case.HEAT_DOWN['server error']

        res = self.client.post(case.reveal_url(), {}, HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        self.assertContains(res, 'The metadata could not be loaded.')
        for raw in case.RAW_ERROR_TEXT:
            self.assertNotContains(res, raw)

    @override_settings(POLICY_CHECK_FUNCTION=lambda rules, request, target=None: (
        ('orchestration', 'software_deployments:metadata') not in rules))
    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_user_without_the_metadata_rule_cannot_reveal(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        refused = [self.client.get(case.reveal_url()), self.client.post(case.reveal_url(), {}),
                   self.client.post(case.reveal_url(), {}, HTTP_X_REQUESTED_WITH='XMLHttpRequest')]

        for res in refused:
            self.assertIn(res.status_code, (401, 403))
            for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
                self.assertNotIn(secret, res.content.decode())
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_server_without_runs_in_this_project_has_no_secrets_to_show(self):
        # Another project's server, or none at all: Heat lists no deployment of it here.
        self.mock_deployments_list.return_value = []

        for res in (self.client.get(case.reveal_url(data.WEB)),
                    self.client.post(case.reveal_url(data.WEB), {})):
            self.assertEqual(404, res.status_code)
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({**case.HEAT_MOCKS,
                           api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_heat_down_is_a_sentence(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_server_metadata.side_effect = case.HEAT_DOWN['unreachable']

        res = self.client.get(case.server_url() + case.METADATA_TAB)

        self.assertContains(res, 'The metadata could not be loaded.')
        self.assertMessageCount(res, error=1)
        for raw in case.RAW_ERROR_TEXT:
            self.assertNotContains(res, raw)

    @override_settings(POLICY_CHECK_FUNCTION=lambda rules, request, target=None: (
        ('orchestration', 'software_deployments:metadata') not in rules))
    @helpers.create_mocks({**case.HEAT_MOCKS,
                           api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_is_hidden_from_a_user_heat_would_refuse_it_to(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(case.server_url() + case.METADATA_TAB)

        self.assertEqual(200, res.status_code)
        self.assertIsNone(res.context['tab_group'].get_tab('metadata'))
        self.assertNotContains(res, 'id="server_details__metadata"')
        self.mock_server_metadata.assert_not_called()
