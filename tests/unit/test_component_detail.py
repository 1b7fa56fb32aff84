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

"""Project > Software Deployments > Components > a component's page."""

import copy

from django.urls import reverse
from heatclient import exc as heat_exc

from heat_deploy_runner.configs.derived import OPERATION_OPTION

from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import detail_url
from tests.unit.components_case import HEAT_MOCKS
from tests.unit.components_case import INDEX_URL
from tests.unit.components_case import PolicyEnforcedTestCase
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers


class ComponentDetailTests(ComponentsTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_shows_the_declared_inputs_and_outputs(self):
        self.serve()

        res = self.client.get(detail_url(data.MYSQL_ID))

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'project/components/detail.html')
        self.assertContains(res, 'demo-mysql-yy352j5ma4zz')
        for text in ('<code>retention_days</code>', 'Number', '>7</pre>',
                     'Backups older than this many days are removed.',
                     '>users,posts</pre>', '>true</pre>',
                     '&quot;schedule&quot;: &quot;manual&quot;',
                     '<code>dsn</code>', 'How to reach the database.'):
            self.assertContains(res, text)
        # backup_file defaults to the empty string, which is a default.
        self.assertContains(res, '<em>Empty</em>', count=1)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_an_input_without_default_is_marked_required(self):
        self.serve()

        res = self.get_ajax(detail_url(data.WORDPRESS_ID))

        self.assertContains(res, 'None: a value is required', count=1)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_shows_each_actions_script_escaped_with_its_tool(self):
        mysql = copy.deepcopy(data.MYSQL)
        mysql['config']['configs'][1]['config'] = (
            'echo "<script>alert(1)</script>" > /tmp/x\n')
        self.serve(configs=[mysql, data.DERIVED[0]])

        res = self.get_ajax(detail_url(data.MYSQL_ID))

        self.assertContains(res, 'run with script', count=3)
        self.assertContains(res, '<code>BACKUP</code>')
        self.assertNotContains(res, '<script>alert(1)</script>')
        self.assertContains(
            res, 'echo &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; '
                 '&gt; /tmp/x')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_lists_its_servers_with_their_latest_deployment(self):
        self.serve()

        res = self.get_ajax(detail_url(data.MYSQL_ID))

        servers = res.context['servers_table'].data
        self.assertEqual(
            sorted([(data.DB_1, 'BACKUP', 'IN_PROGRESS'),
                    (data.DB_2, 'CREATE', 'COMPLETE')]),
            [(run.server_id, run.action, run.status) for run in servers])
        # No stack or Compute server names it: its id, marked unknown.
        server_url = reverse('horizon:project:servers:detail', args=[data.DB_1])
        self.assertContains(res, f'<a href="{server_url}">{data.DB_1}</a>'
                                 '<span class="text-muted"> (unknown)</span>')
        self.assertContains(res, 'In Progress')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_offers_to_run_an_action(self):
        self.serve()

        res = self.client.get(detail_url(data.MYSQL_ID))

        self.assertContains(res, trigger_url(data.MYSQL_ID))
        # Titled with the name a person knows it by, not Heat's physical name.
        self.assertContains(res, '<title>mysql (stack demo) - OpenStack</title>')
        # The whole page, header and tabs, shares one set of listings.
        self.assertEqual((1, 1, 1), self.heat_list_calls())

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_config_that_is_not_a_component_is_not_found(self):
        self.serve()

        for config_id in ('00000000-0000-4000-8000-000000000000', data.DERIVED[0]['id'],
                          data.SCRIPT_CONFIG['id']):
            with self.subTest(config_id):
                res = self.client.get(detail_url(config_id))

                self.assertEqual(404, res.status_code)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_heat_down_leads_back_to_the_list_with_a_message(self):
        self.serve()
        self.mock_deployments_list.side_effect = heat_exc.CommunicationError(
            message='Connection refused')

        res = self.client.get(detail_url(data.MYSQL_ID))

        self.assertRedirectsNoFollow(res, INDEX_URL)
        self.assertMessageCount(error=1)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_heat_down_is_said_once_on_the_list_it_leads_back_to(self):
        self.serve()
        self.mock_deployments_list.side_effect = heat_exc.CommunicationError(
            message='Connection refused')

        res = self.client.get(detail_url(data.MYSQL_ID), follow=True)

        said = [str(each) for each in res.context['messages']]
        self.assertEqual(1, len(said), said)
        self.assertIn('the orchestration service could not be reached', said[0])


class ProjectReaderPolicyTests(PolicyEnforcedTestCase):
    user_roles = ['reader']

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_reader_sees_a_component_but_cannot_run_actions(self):
        self.serve()

        res = self.client.get(detail_url(data.MYSQL_ID))

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'demo-mysql-yy352j5ma4zz')
        self.assertNotContains(res, trigger_url(data.MYSQL_ID))


class StackUserPolicyTests(PolicyEnforcedTestCase):
    user_roles = ['heat_stack_user']

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_component_page_is_forbidden(self):
        res = self.client.get(detail_url(data.MYSQL_ID))

        self.assertEqual(403, res.status_code)
        self.mock_configs_list.assert_not_called()


class ComponentOperationsTests(ComponentsTestCase):
    """A component's page lists its latest operations, one row per Run Action submit."""

    OPERATION = {'operation': '5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'started_by': 'ops <b>',
                 'started_at': '2026-11-22T04:00:00Z', 'source': data.MYSQL_ID}

    @helpers.create_mocks(HEAT_MOCKS)
    def test_the_operations_tab_lists_each_submit_with_its_outcome(self):
        backup = copy.deepcopy(data.DERIVED[3])
        backup['options'] = {OPERATION_OPTION: self.OPERATION}
        second = dict(copy.deepcopy(backup), id='aa11bb22-0000-4000-8000-000000000009')
        second['inputs'][-3]['value'] = data.DB_2
        runs = copy.deepcopy(data.DEPLOYMENTS) + [dict(
            copy.deepcopy(data.DEPLOYMENTS[3]), id='1c9d5e44-0000-4000-8000-000000000009',
            config_id=second['id'], server_id=data.DB_2, status='FAILED')]
        # Each run's deployment carries its operation, as Run Action makes it.
        for run in runs[3], runs[-1]:
            run['input_values'] = {OPERATION_OPTION: self.OPERATION}
        self.serve(configs=[data.MYSQL, data.WORDPRESS] + data.DERIVED[:3] + [backup, second],
                   deployments=runs)

        res = self.client.get(detail_url(data.MYSQL_ID) + '?tab=component_details__operations')

        [recent] = res.context['operations_table'].data
        self.assertEqual(('BACKUP', 2), (recent.action, len(recent.statuses)))
        page = res.content.decode()
        self.assertIn(reverse('horizon:project:deployments:operation',
                              args=[self.OPERATION['operation']]), page)
        self.assertIn('ops &lt;b&gt;', page)
        self.assertIn('1 Failed, 1 In Progress', page)
