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

"""A stack's components map, and what Run Action takes from the stack's wiring."""

import copy
import re

from django.urls import reverse

import heat_deploy_runner as runner
from heat_deploy_runner.configs.derived import OPERATION_OPTION

from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import detail_url
from tests.unit.components_case import HEAT_MOCKS
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers

STACK_URL = reverse('horizon:project:components:stack', args=[data.STACK_ID])
# mysql on its first server feeds wordpress: the edge table's row.
EDGE_ROW = ['mysql on 30748cec-6559-436b-9a4d-f58e39b1ccf2', 'dsn', 'db_dsn',
            'wordpress on 7202197c-dd83-4dc3-a27b-139242e05af6']


def _edge_rows(res):
    body = res.content.decode().split('hdd-map-edges', 1)[1].split('</table>', 1)[0]
    return [[re.sub(r'\s+', ' ', cell).strip()
             for cell in re.findall(r'<td>(.*?)</td>', row, re.S)]
            for row in re.findall(r'<tr>(.*?)</tr>', body.split('<tbody>', 1)[1], re.S)]


class StackMapTests(ComponentsTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_the_stack_page_draws_every_node_and_lists_each_edge(self):
        self.serve()

        res = self.client.get(STACK_URL)

        self.assertEqual(200, res.status_code)
        self.assertEqual([EDGE_ROW], _edge_rows(res))
        self.assertContains(res, 'class="hdd-map-node', count=3)
        self.assertContains(res, 'dsn \u2192 db_dsn')
        # The running BACKUP on the first db server is followed live.
        self.assertContains(res, 'data-run-id="1c9d5e44-0000-4000-8000-000000000003"')
        # One listing of the tree (the other one lists the servers, for their names) and one
        # template, whatever the number of runs.
        self.assertEqual(1, len([call for call in self.mock_resources_list.call_args_list
                                 if len(call.args) == 2]))
        self.mock_stack_template.assert_called_once()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_stack_not_of_the_project_is_not_found(self):
        self.serve()

        res = self.client.get(reverse('horizon:project:components:stack',
                                      args=['00000000-0000-4000-8000-000000000000']))

        self.assertEqual(404, res.status_code)
        self.mock_resources_list.assert_not_called()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_component_page_maps_its_neighbours_and_links_the_whole_stack(self):
        self.serve()

        res = self.get_ajax(detail_url(data.WORDPRESS_ID) + '?tab=component_details__map')

        self.assertEqual(200, res.status_code)
        self.assertEqual([EDGE_ROW], _edge_rows(res))
        self.assertContains(res, f'href="{STACK_URL}"')
        self.assertContains(res, 'hdd-map-centre')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_without_the_stack_the_tab_says_so_and_the_page_still_opens(self):
        self.serve()
        self.mock_resources_list.side_effect = Exception('heat down')

        res = self.client.get(detail_url(data.MYSQL_ID))

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'The map could not be loaded.')


class WiredInputTests(ComponentsTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_an_input_the_stack_fed_starts_at_the_value_it_was_given(self):
        self.serve()

        res = self.get_ajax(trigger_url(data.WORDPRESS_ID))

        form = res.context['form']
        self.assertEqual(data.DSN, form['input__db_dsn'].value())
        self.assertIn('From mysql.dsn on', str(form.fields['input__db_dsn'].help_text))
        self.assertNotContains(res, 'Use the new value')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_newer_output_of_the_source_is_offered(self):
        deployments = copy.deepcopy(data.DEPLOYMENTS)
        # The BACKUP on the first db server has finished, and left a new dsn.
        deployments[3].update(status='COMPLETE', output_values={'dsn': 'mysql://db-9/demo'})
        self.serve(deployments=deployments)

        res = self.get_ajax(trigger_url(data.WORDPRESS_ID))

        self.assertEqual(data.DSN, res.context['form']['input__db_dsn'].value())
        self.assertContains(res, 'data-value="mysql://db-9/demo"')
        self.assertContains(res, 'Use the new value')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_source_component_lists_the_components_that_depend_on_it(self):
        self.serve()

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        self.assertContains(res, 'Components that depend on this one')
        self.assertContains(res, f'href="{detail_url(data.WORDPRESS_ID)}">wordpress</a>')
        self.assertContains(res, 'takes dsn as db_dsn')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_the_form_works_without_the_wiring(self):
        self.serve()
        self.mock_resources_list.side_effect = Exception('heat down')

        res = self.get_ajax(trigger_url(data.WORDPRESS_ID))

        self.assertEqual(200, res.status_code)
        self.assertIsNone(res.context['form']['input__db_dsn'].value())
        self.assertNotContains(res, 'Components that depend on this one')


class FollowUpTests(ComponentsTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_an_operation_on_a_source_offers_run_action_on_its_dependents(self):
        operation = runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'test_user',
                                     '2026-11-23T08:00:00Z', data.MYSQL_ID)
        configs = copy.deepcopy(data.CONFIGS)
        # The running BACKUP on the first db server is this operation's.
        backup = next(c for c in configs if c['name'] == 'mysql-BACKUP')
        backup['options'] = {OPERATION_OPTION: operation.as_option()}
        deployments = copy.deepcopy(data.DEPLOYMENTS)
        deployments[3]['input_values'] = {OPERATION_OPTION: operation.as_option()}
        self.serve(configs=configs, deployments=deployments)

        res = self.client.get(reverse('horizon:project:deployments:operation',
                                      args=[operation.id]))

        run_url = trigger_url(data.WORDPRESS_ID, f'?server={data.WEB}')
        self.assertContains(res, f'href="{run_url}">Run an action on wordpress</a>')
        self.assertContains(res, 'takes dsn as db_dsn')
