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

"""Project > Software Deployments > Components: the list of components."""

from unittest import mock

from heatclient import exc as heat_exc
import horizon

from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard import spare_cache
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import detail_url
from tests.unit.components_case import HEAT_MOCKS
from tests.unit.components_case import INDEX_URL
from tests.unit.components_case import PolicyEnforcedTestCase
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers

HEAT_FAILED_MESSAGE = ("Unable to retrieve software components: the "
                       "orchestration service could not be reached or "
                       "answered with an error.")


def _component(res, component_id):
    return next(row.datum for row in res.context['table'].get_rows()
                if row.datum.id == component_id)


def _cells(res):
    return {row.datum.id: {name: cell.value
                           for name, cell in row.cells.items()}
            for row in res.context['table'].get_rows()}


class ComponentsListTests(ComponentsTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_lists_components_with_their_stack_actions_and_servers(self):
        self.serve()

        res = self.client.get(INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'project/components/index.html')
        for header in ('Name', 'Stack', 'Resource', 'Custom Actions',
                       'Lifecycle Actions', 'Servers'):
            self.assertContains(res, header)
        cells = _cells(res)
        # Derived configs and plain script configs are not components.
        self.assertEqual([data.MYSQL_ID, data.WORDPRESS_ID, data.REPORT_ID],
                         list(cells))
        mysql = cells[data.MYSQL_ID]
        # The stack leads to its map.
        self.assertEqual((f'<a href="/project/components/stacks/{data.STACK_ID}/" >demo</a>',
                          'mysql'), (mysql['stack'], mysql['resource']))
        self.assertEqual('BACKUP, RESTORE', mysql['custom_actions'])
        self.assertEqual('CREATE', mysql['lifecycle_actions'])
        self.assertEqual(2, mysql['servers'])
        wordpress = cells[data.WORDPRESS_ID]
        self.assertEqual('FLUSH_CACHE, ROTATE_KEYS'.split(', '),
                         sorted(wordpress['custom_actions'].split(', ')))
        self.assertEqual(1, wordpress['servers'])
        self.assertNoMessages()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_runs_whose_configs_there_was_no_time_to_read_are_not_counted_yet(self):
        # Named by hand on the CLI: only its config tells whose run it is.
        renamed = data.derived(data.MYSQL, 'renamed-derived', data.DB_2, 'BACKUP',
                               name='nightly-db-dump')
        self.serve(configs=data.CONFIGS + [renamed], deployments=data.DEPLOYMENTS + [
            dict(data.DEPLOYMENTS[1], id='renamed-deployment', config_id=renamed['id'])])
        reads = config_cache.get_many

        def no_time_for_the_renamed_run(request, config_ids, seconds=None):
            if renamed['id'] not in config_ids:
                return reads(request, config_ids, seconds)
            left = config_cache.Configs()
            left.unread = frozenset(config_ids)
            return left

        with mock.patch.object(config_cache, 'get_many',
                               side_effect=no_time_for_the_renamed_run):
            first = self.client.get(INDEX_URL)
        again = self.client.get(INDEX_URL)

        self.assertEqual(200, first.status_code)
        self.assertMessageCount(first, warning=1)
        self.assertContains(first, '1 run is not counted here yet')
        self.assertNotContains(again, 'not counted here yet')
        mysql = data.MYSQL_ID
        self.assertEqual([3, 4], [len(_component(res, mysql).deployments)
                                  for res in (first, again)])

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_component_made_outside_a_stack_shows_dashes(self):
        self.serve()

        res = self.client.get(INDEX_URL)

        report = _cells(res)[data.REPORT_ID]
        self.assertEqual(('\u2014', '\u2014'),
                         (report['stack'], report['resource']))
        self.assertEqual('\u2014', report['lifecycle_actions'])
        self.assertEqual(0, report['servers'])

    @helpers.create_mocks(HEAT_MOCKS)
    def test_run_action_is_offered_where_there_are_servers(self):
        self.serve()

        res = self.client.get(INDEX_URL)

        self.assertContains(res, f'href="{trigger_url(data.MYSQL_ID)}"')
        self.assertNotContains(res, trigger_url(data.REPORT_ID))
        self.assertContains(res, detail_url(data.MYSQL_ID))

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_warm_page_makes_three_heat_calls_whatever_its_size(self):
        self.serve()

        self.client.get(INDEX_URL)
        fetched = self.mock_config_get.call_count
        res = self.client.get(INDEX_URL)

        self.assertEqual(200, res.status_code)
        # Cold: the 3 components and the running BACKUP's derived config (to look for its
        # result); the finished runs' names tell their components. Warm: only the listings.
        self.assertEqual(4, fetched)
        self.assertEqual(fetched, self.mock_config_get.call_count)
        self.assertEqual((2, 2, 2), self.heat_list_calls())

    @helpers.create_mocks(HEAT_MOCKS)
    def test_an_admins_listing_shows_only_the_current_projects(self):
        # Heat lists every project's configs to an admin, each row with
        # its project.
        self.serve()
        rows = data.summaries()
        for row in rows:
            row._info['project'] = (self.tenant.id if row.id != data.MYSQL_ID
                                    else 'another-project')
        self.mock_configs_list.return_value = rows

        res = self.client.get(INDEX_URL)

        self.assertEqual([data.WORDPRESS_ID, data.REPORT_ID],
                         list(_cells(res)))
        self.assertNotIn(data.MYSQL_ID, [
            call.args[1] for call in self.mock_config_get.call_args_list])

    @helpers.create_mocks(HEAT_MOCKS)
    def test_shows_an_empty_state_when_there_are_no_components(self):
        self.serve(configs=[data.SCRIPT_CONFIG],
                   deployments=[data.DEPLOYMENTS[4]])

        res = self.client.get(INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'No software components yet.')
        self.assertNoMessages()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_explains_when_heat_cannot_be_reached_or_fails(self):
        unreachable = heat_exc.CommunicationError(
            message='Error communicating with '
                    'http://public.heat.example.com:8004/v1/1 '
                    '[Errno 111] Connection refused')
        server_error = heat_exc.HTTPInternalServerError(
            message='{"error": {"message": "Traceback: DBError"}}')
        # Any of the page's calls may fail, each in either way.
        failures = {'configs_list': unreachable,
                    'deployments_list': server_error,
                    'stacks_list': unreachable,
                    'config_get': server_error}
        for failing, failure in failures.items():
            with self.subTest(failing):
                spare_cache.clear()
                self.serve()
                getattr(self, 'mock_' + failing).side_effect = failure

                res = self.client.get(INDEX_URL)

                self.assertEqual(200, res.status_code)
                self.assertContains(res, HEAT_FAILED_MESSAGE)
                self.assertMessageCount(res, error=1)
                for raw in ('Connection refused', 'heat.example.com',
                            'Traceback', 'DBError'):
                    self.assertNotContains(res, raw)
                self.assertNotContains(res, 'No software components yet')
                self.assertContains(
                    res, 'Software components could not be loaded.')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_escapes_what_heat_returns(self):
        report = dict(data.REPORT, name='<script>alert("name")</script>')
        self.serve(configs=[report])

        res = self.client.get(INDEX_URL)

        self.assertNotContains(res, '<script>alert("name")</script>')
        self.assertContains(res, '&lt;script&gt;alert(')


def _panel():
    return horizon.get_dashboard('project').get_panel('components')


class ProjectReaderPolicyTests(PolicyEnforcedTestCase):
    user_roles = ['reader']

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_reader_sees_components_but_cannot_run_actions(self):
        self.serve()

        res = self.client.get(INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertTrue(_panel().can_access({'request': res.wsgi_request}))
        self.assertContains(res, detail_url(data.MYSQL_ID))
        self.assertNotContains(res, trigger_url(data.MYSQL_ID))


class StackUserPolicyTests(PolicyEnforcedTestCase):
    # Heat's default for software_configs:index is "role:reader and
    # project_id:%(project_id)s"; servers' agents log in with this role only.
    user_roles = ['heat_stack_user']

    @helpers.create_mocks(HEAT_MOCKS)
    def test_the_panel_is_hidden_and_forbidden(self):
        res = self.client.get(INDEX_URL)

        self.assertEqual(403, res.status_code)
        self.mock_configs_list.assert_not_called()
        self.assertFalse(_panel().can_access({'request': res.wsgi_request}))


class ComponentsFilterTests(ComponentsTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_the_filter_finds_components_by_name_stack_resource_or_action(self):
        self.serve()

        by_action = self.client.post(INDEX_URL, {'components__filter__q': 'rotate_keys'})
        by_stack = self.client.post(INDEX_URL, {'components__filter__q': 'DEMO'})
        nothing = self.client.post(INDEX_URL, {'components__filter__q': 'no-such'})

        self.assertEqual(['wordpress'],
                         [c.resource_name for c in by_action.context['table'].filtered_data])
        self.assertEqual({'mysql', 'wordpress'},
                         {c.resource_name for c in by_stack.context['table'].filtered_data})
        self.assertContains(nothing, 'Nothing matches the filter.')
        self.assertNotContains(nothing, 'No software components yet.')
