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

"""Software Configs: a config's page, with its inputs, outputs, options, body and the
deployments that use it."""

import copy

from django.urls import reverse
from heatclient import exc as heat_exc

from tests.unit import components_data as demo
from tests.unit import configs_case as case
from tests.unit import helpers
from tests.unit import servers_data

DEPLOYMENTS_TAB = '?tab=config_details__deployments'
BODY_TAB = '?tab=config_details__body'


class ConfigDetailTests(case.ConfigsTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_shows_the_config_its_actions_and_the_command_that_shows_it(self):
        self.serve()

        res = self.client.get(case.url('detail'))

        self.assertEqual(200, res.status_code)
        self.mock_config_get.assert_called_once_with(helpers.IsHttpRequest(), case.HELLO_ID)
        self.mock_deployments_list.assert_not_called()
        for shown in ('hello', 'script', 'greeting', 'What to say.', 'Number',
                      'What the script wrote.', '&quot;timeout&quot;: 30'):
            self.assertContains(res, shown)
        for action in ('deploy', 'copy', 'delete'):
            self.assertContains(res, case.url(action))
        self.assertContains(res, '<code>openstack software config show ' + case.HELLO_ID)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_body_is_shown_as_written_and_escaped(self):
        self.serve([case.hello(config='#!/bin/sh\necho "<script>alert(1)</script>"\n')])

        res = self.client.get(case.url('detail') + BODY_TAB)

        self.assertContains(res, 'class="hdd-output hdd-config-body"')
        self.assertContains(res, 'echo &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;')
        self.assertNotContains(res, '<script>alert(1)')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_derived_config_says_which_run_it_is_for_with_its_secrets_masked(self):
        derived = servers_data.CONFIGS['c-backup']
        self.serve([derived])

        res = self.client.get(case.url('detail', derived['id']))

        self.assertContains(res, 'Derived For')
        self.assertContains(res, reverse('horizon:project:servers:detail',
                                         args=[servers_data.DB_1]))
        self.assertContains(res, 'temp_url_sig=********')
        self.assertNotContains(res, servers_data.TEMP_URL_SIG)
        self.assertNotContains(res, servers_data.DB_PASSWORD)
        # It belongs to one run: deploy the config it came from instead.
        self.assertNotContains(res, case.url('deploy', derived['id']))
        self.assertContains(res, case.url('copy', derived['id']))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_derived_config_without_its_action_says_so_without_none(self):
        derived = copy.deepcopy(servers_data.CONFIGS['c-backup'])
        derived['inputs'] = [each for each in derived['inputs']
                             if each['name'] != 'deploy_action']
        self.serve([derived])

        res = self.client.get(case.url('detail', derived['id']))

        self.assertContains(res, 'One run on server')
        self.assertNotContains(res, 'One run of None')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_deployments_tab_lists_the_deployments_that_use_it(self):
        self.serve()
        mysql_backup = demo.DERIVED[3]['id']

        res = self.client.get(case.url('detail', mysql_backup) + DEPLOYMENTS_TAB)

        self.mock_deployments_list.assert_called_once_with(helpers.IsHttpRequest())
        self.assertEqual([demo.DEPLOYMENTS[3]['id']],
                         [d.id for d in res.context['config_deployments_table'].data])
        self.assertContains(res, reverse('horizon:project:deployments:detail',
                                         args=[demo.DEPLOYMENTS[3]['id']]))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_config_heat_does_not_know_is_not_found(self):
        self.serve()

        res = self.client.get(case.url('detail', '00000000-0000-4000-8000-000000000000'))

        self.assertEqual(404, res.status_code)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_heat_down_leads_back_to_the_list_with_a_sentence(self):
        self.mock_config_get.side_effect = heat_exc.HTTPInternalServerError(
            message='Traceback: DBError')

        res = self.client.get(case.url('detail'), follow=False)

        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        self.assertMessageCount(error=1)
