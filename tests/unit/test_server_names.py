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

"""Servers by name: the tables, the server's page title and the Deployments filter name each
server from the project's stacks and Compute servers, listed at most once a minute per project
(server_names), and fall back to the id, marked unknown."""

from django.urls import reverse
from heatclient import exc as heat_exc
from heatclient.v1 import stacks
from openstack_dashboard.api import nova

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import servers_case as case
from tests.unit import servers_data as data
from tests.unit.test_config_deploy import deployed_server
from tests.unit.test_config_deploy import heat_resources
from tests.unit.test_config_deploy import nova_servers

DEPLOYMENTS_URL = reverse('horizon:project:deployments:index')
NAMES_MOCKS = {api.heat: ('deployments_list', 'config_get', 'stacks_list', 'resources_list'),
               api.deploy: ('may_have_results',),
               nova: ('server_list',)}
STACK = {'id': '884465b2-dc23-444b-a9aa-a0af68430dd3', 'stack_name': 'demo',
         'stack_status': 'CREATE_COMPLETE'}


def _cell(name, server_id):
    return (f'<a href="{case.server_url(server_id)}">{name}</a>'
            f'<span class="text-muted" title="{server_id}"> {server_id[:8]}</span>')


def _unknown(server_id):
    return (f'<a href="{case.server_url(server_id)}">{server_id}</a>'
            '<span class="text-muted"> (unknown)</span>')


class ServerNamesTests(case.ServersTestCase):

    def serve_names(self, deployed=((data.DB_1, 'demo-db-1'), (data.DB_2, 'demo-db-2')),
                    compute=((data.WEB, 'web-vm'),)):
        self.serve()
        self.mock_stacks_list.return_value = [stacks.Stack(None, dict(STACK), loaded=True)]
        self.mock_resources_list.return_value = heat_resources(
            [deployed_server(server_id, name, name) for server_id, name in deployed])
        self.mock_server_list.return_value = (nova_servers(*compute), False)

    @helpers.create_mocks(NAMES_MOCKS)
    def test_every_servers_table_names_it_with_its_short_id_and_links_its_page(self):
        self.serve_names()

        servers = self.client.get(case.INDEX_URL)
        deployments = self.client.get(DEPLOYMENTS_URL)

        for page in (servers, deployments):
            self.assertContains(page, _cell('demo-db-1', data.DB_1))
            self.assertContains(page, _cell('web-vm', data.WEB))

    @helpers.create_mocks(NAMES_MOCKS)
    def test_the_names_are_listed_once_a_minute_not_per_page_or_row(self):
        self.serve_names()

        for _ in range(3):
            self.client.get(DEPLOYMENTS_URL)

        self.mock_stacks_list.assert_called_once()
        # The stack's DeployedServers and its Nova servers (which stack holds each).
        self.assertEqual(2, self.mock_resources_list.call_count)
        self.mock_server_list.assert_called_once()

    @helpers.create_mocks(NAMES_MOCKS)
    def test_the_deployments_filter_finds_a_server_by_its_name(self):
        self.serve_names()

        res = self.client.post(DEPLOYMENTS_URL, {'deployments__filter__q_field': 'server',
                                                 'deployments__filter__q': 'Demo-DB-2'},
                               follow=True)

        self.assertEqual({data.DB_2}, {d.server_id for d in res.context['table'].data})

    @helpers.create_mocks(NAMES_MOCKS)
    def test_a_servers_page_has_its_name_in_the_title(self):
        self.serve_names()

        res = self.client.get(case.server_url(data.DB_1))

        # The name alone: a whole id in the title wrapped onto two lines.
        self.assertContains(res, '<title>Server demo-db-1 - OpenStack</title>')

    @helpers.create_mocks(NAMES_MOCKS)
    def test_a_server_nothing_names_shows_its_id_marked_unknown(self):
        self.serve_names(deployed=(), compute=())

        res = self.client.get(case.INDEX_URL)

        self.assertContains(res, _unknown(data.DB_1))

    @helpers.create_mocks(NAMES_MOCKS)
    def test_names_that_cannot_be_read_leave_ids_and_are_asked_again_next_page(self):
        self.serve_names()
        self.mock_stacks_list.side_effect = heat_exc.HTTPInternalServerError()

        first = self.client.get(case.INDEX_URL)
        self.client.get(case.INDEX_URL)

        self.assertEqual(200, first.status_code)
        # Compute still named its server; the stacks' are ids until Heat answers.
        self.assertContains(first, _cell('web-vm', data.WEB))
        self.assertContains(first, _unknown(data.DB_1))
        self.assertEqual(2, self.mock_stacks_list.call_count)

    @helpers.create_mocks(NAMES_MOCKS)
    def test_a_server_id_that_cannot_have_a_page_is_shown_without_a_link(self):
        self.serve_names(deployed=(), compute=())
        odd = 'a/b' + 'x' * 40
        self.mock_deployments_list.return_value = data.deployments(
            [dict(data.RUNNING, server_id=odd)])

        res = self.client.get(DEPLOYMENTS_URL)

        self.assertEqual(200, res.status_code)
        self.assertContains(res, f'{odd}<span class="text-muted"> (unknown)</span>')

    @helpers.create_mocks(NAMES_MOCKS)
    def test_a_name_is_text_however_it_is_written(self):
        self.serve_names(deployed=((data.DB_1, '<b>db</b>{$ 6*7 $}'),))

        res = self.client.get(case.INDEX_URL)

        self.assertNotContains(res, '<b>db</b>')
        self.assertContains(res, '&lt;b&gt;db&lt;/b&gt;')
        self.assertNotContains(res, '{$ 6*7 $}')

    @helpers.create_mocks(NAMES_MOCKS)
    def test_the_servers_list_filters_by_name_or_id_and_says_when_nothing_matches(self):
        self.serve_names()

        by_name = self.client.post(case.INDEX_URL, {'servers__filter__q': 'DB-2'})
        by_id = self.client.post(case.INDEX_URL, {'servers__filter__q': data.WEB[:6]})
        nothing = self.client.post(case.INDEX_URL, {'servers__filter__q': 'no-such'})

        self.assertEqual([data.DB_2], [s.id for s in by_name.context['table'].filtered_data])
        self.assertEqual([data.WEB], [s.id for s in by_id.context['table'].filtered_data])
        self.assertEqual([], nothing.context['table'].filtered_data)
        self.assertContains(nothing, 'Nothing matches the filter.')
        self.assertNotContains(nothing, 'No server has software deployments yet.')
