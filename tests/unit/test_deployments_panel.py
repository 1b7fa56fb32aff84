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

"""Project > Software Deployments > Deployments: the list of deployments."""

from django.test.utils import override_settings
from django.urls import reverse
from heatclient import exc as heat_exc
import horizon
from openstack_auth import policy

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import test_data

HEAT_FAILED_MESSAGE = ("Unable to retrieve software deployments: the "
                       "orchestration service could not be reached or "
                       "answered with an error.")


class DeploymentsListTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        self.index_url = reverse('horizon:project:deployments:index')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_lists_deployments_newest_first_with_their_columns(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployments_list.return_value = \
            self.software_deployments.list()

        res = self.client.get(self.index_url)

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'project/deployments/index.html')
        self.mock_deployments_list.assert_called_once_with(
            helpers.IsHttpRequest(), server_id=None)
        self.assertEqual(
            ['2025-03-03T14:30:00Z', '2025-03-02T11:15:00Z',
             '2025-03-01T09:00:00Z'],
            [d.creation_time for d in res.context['table'].data])
        for header in ('Server', 'Action', 'Status', 'Status Reason',
                       'Created', 'Updated'):
            self.assertContains(res, header)
        self.assertContains(res, '8a5a1f3e-4b7e-4c1f-9e1a-2f6d0c3b7a11')
        self.assertContains(res, 'ROTATE_KEYS')
        self.assertContains(res, 'Outputs received')
        for shown_status in ('Complete', 'Failed', 'In Progress'):
            self.assertContains(res, shown_status)
        self.assertNoMessages()

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_shows_an_empty_state_when_there_are_no_deployments(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployments_list.return_value = []

        res = self.client.get(self.index_url)

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'No software deployments yet.')
        # And the next step.
        self.assertContains(res, '<a href="/project/components/">Run an action from the '
                                 'Components panel.</a>')
        self.assertNoMessages()

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_explains_when_heat_cannot_be_reached_or_fails(self):
        self.mock_config_get.side_effect = test_data.run_config
        failures = {
            'unreachable': heat_exc.CommunicationError(
                message='Error communicating with '
                        'http://public.heat.example.com:8004/v1/1 '
                        '[Errno 111] Connection refused'),
            'server error': heat_exc.HTTPInternalServerError(
                message='{"error": {"message": "Traceback: DBError in '
                        'software_deployment_get_all"}}'),
        }
        for name, failure in failures.items():
            with self.subTest(name):
                self.mock_deployments_list.side_effect = failure

                res = self.client.get(self.index_url)

                self.assertEqual(200, res.status_code)
                self.assertContains(res, HEAT_FAILED_MESSAGE)
                self.assertMessageCount(res, error=1)
                for raw in ('Connection refused', 'public.heat.example.com',
                            'Traceback', 'DBError'):
                    self.assertNotContains(res, raw)
                # An empty table here would be a false "no deployments".
                self.assertNotContains(res, 'No software deployments yet.')
                self.assertContains(
                    res, 'Software deployments could not be loaded.')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_run_heat_was_given_no_reason_for_has_an_empty_reason_cell(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployments_list.return_value = [test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], status_reason='None'))]

        res = self.client.get(self.index_url)

        self.assertEqual(200, res.status_code)
        self.assertNotRegex(res.content.decode(), r'hdd-status-reason[^"]*">\s*None\s*<')
        self.assertRegex(res.content.decode(), r'hdd-status-reason[^"]*">\s*</td>')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_escapes_what_heat_returns(self):
        self.mock_config_get.side_effect = test_data.run_config
        info = dict(test_data.DEPLOYMENTS[0],
                    status_reason='<script>alert("reason")</script>')
        self.mock_deployments_list.return_value = [test_data.deployment(info)]

        res = self.client.get(self.index_url)

        self.assertEqual(200, res.status_code)
        self.assertNotContains(res, '<script>alert("reason")</script>')
        self.assertContains(res, '&lt;script&gt;alert(')


@override_settings(POLICY_CHECK_FUNCTION='openstack_auth.policy.check')
class PolicyEnforcedTestCase(helpers.TestCase):
    """Horizon's test settings switch policy checks off; this switches the
    real checks on, against the policy files the settings snippet registers.
    """

    def setUp(self):
        super().setUp()
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        self.addCleanup(policy.reset)
        self.index_url = reverse('horizon:project:deployments:index')
        self.panel = horizon.get_dashboard('project').get_panel('deployments')


class ProjectReaderPolicyTests(PolicyEnforcedTestCase):

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_project_reader_sees_the_panel(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployments_list.return_value = []

        res = self.client.get(self.index_url)

        self.assertEqual(200, res.status_code)
        self.assertTrue(self.panel.can_access({'request': res.wsgi_request}))


class StackUserPolicyTests(PolicyEnforcedTestCase):
    # Heat's default for software_deployments:index is "role:reader and
    # project_id:%(project_id)s"; servers' agents log in with this role only.
    user_roles = ['heat_stack_user']

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_the_panel_is_hidden_and_forbidden(self):
        self.mock_config_get.side_effect = test_data.run_config
        res = self.client.get(self.index_url)

        self.assertEqual(403, res.status_code)
        self.mock_deployments_list.assert_not_called()
        self.assertFalse(self.panel.can_access({'request': res.wsgi_request}))


class DeploymentsColumnsAndFiltersTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        self.index_url = reverse('horizon:project:deployments:index')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_each_row_shows_its_run_name_linking_to_it_and_its_duration(self):
        self.mock_deployments_list.return_value = self.software_deployments.list()
        self.mock_config_get.side_effect = test_data.run_config

        res = self.client.get(self.index_url)

        self.assertContains(res, 'mysql-BACKUP')
        self.assertContains(res, reverse('horizon:project:deployments:detail',
                                         args=[test_data.DEPLOYMENTS[0]['id']]))
        # 09:00:00 to its last update at 09:02:10.
        self.assertContains(res, '2m 10s')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_second_page_view_reads_no_config_again(self):
        self.mock_deployments_list.return_value = self.software_deployments.list()
        self.mock_config_get.side_effect = test_data.run_config

        self.client.get(self.index_url)
        self.client.get(self.index_url)

        self.assertEqual(3, self.mock_config_get.call_count)
        self.assertEqual(2, self.mock_deployments_list.call_count)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_filtering_by_status_keeps_only_those_runs(self):
        self.mock_deployments_list.return_value = self.software_deployments.list()
        self.mock_config_get.side_effect = test_data.run_config

        res = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'status',
            'deployments__filter__q': 'in progress'}, follow=True)

        self.assertEqual(['IN_PROGRESS'], [d.status for d in res.context['table'].data])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_filtering_by_server_and_action(self):
        self.mock_deployments_list.return_value = self.software_deployments.list()
        self.mock_config_get.side_effect = test_data.run_config
        server = test_data.DEPLOYMENTS[0]['server_id']

        by_server = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'server', 'deployments__filter__q': server},
            follow=True)
        self.assertEqual({server}, {d.server_id for d in by_server.context['table'].data})
        self.assertEqual(2, len(by_server.context['table'].data))

        by_action = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'action', 'deployments__filter__q': 'backup'},
            follow=True)
        self.assertEqual(['BACKUP'], [d.action for d in by_action.context['table'].data])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_cancelled_run_is_shown_and_filtered_as_cancelled_not_failed(self):
        runs = [test_data.deployment(dict(
            test_data.DEPLOYMENTS[0], status='FAILED',
            status_reason='Cancelled by test_user at 2026-11-22T04:00:00Z'))]
        runs += [test_data.deployment(dict(test_data.DEPLOYMENTS[1], status='FAILED',
                                           status_reason='deploy_status_code : 1'))]
        self.mock_deployments_list.return_value = runs
        self.mock_config_get.side_effect = test_data.run_config

        listed = self.client.get(self.index_url)
        cancelled = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'status', 'deployments__filter__q': 'Cancelled'},
            follow=True)
        failed = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'status', 'deployments__filter__q': 'failed'},
            follow=True)

        shown = {row.datum.id: str(row.cells['status'].data)
                 for row in listed.context['table'].get_rows()}
        self.assertEqual({runs[0].id: 'Cancelled', runs[1].id: 'Failed'}, shown)
        self.assertContains(listed, 'Cancelled by test_user')
        # Still Heat's FAILED underneath, for the poller and the CLI alike.
        self.assertContains(listed, 'data-status="FAILED"', count=2)
        self.assertEqual([runs[0].id], [d.id for d in cancelled.context['table'].data])
        self.assertEqual([runs[1].id], [d.id for d in failed.context['table'].data])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_running_row_ticks_its_elapsed_time_and_has_no_update_yet(self):
        running = test_data.deployment(test_data.DEPLOYMENTS[2])
        self.mock_deployments_list.return_value = [running]
        self.mock_config_get.side_effect = test_data.run_config

        res = self.client.get(self.index_url)

        [row] = res.context['table'].get_rows()
        self.assertRegex(str(row.cells['duration'].data),
                         r'^<span class="hdd-elapsed" data-seconds="\d+">[0-9hms ]+</span>$')
        self.assertEqual('\u2014', row.cells['updated'].data)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_filter_that_matches_nothing_says_so(self):
        self.mock_deployments_list.return_value = self.software_deployments.list()
        self.mock_config_get.side_effect = test_data.run_config

        res = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'action', 'deployments__filter__q': 'no-such'},
            follow=True)

        self.assertEqual([], res.context['table'].data)
        self.assertContains(res, 'Nothing matches the filter.')
        self.assertNotContains(res, 'No software deployments yet.')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_an_action_with_spaces_is_found_as_typed(self):
        # A custom action is any text a template author chose.
        runs = self.software_deployments.list()
        runs[0] = runs[0].changed(action='FLUSH CACHE')
        runs[1] = runs[1].changed(action='FLUSH_CACHE')
        self.mock_deployments_list.return_value = runs
        self.mock_config_get.side_effect = test_data.run_config

        res = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'action', 'deployments__filter__q': 'flush cache'},
            follow=True)

        self.assertEqual(['FLUSH CACHE'], [d.action for d in res.context['table'].data])


def _many_runs(count):
    """`count` finished runs, one a minute, each with its own derived config."""
    runs = []
    for n in range(count):
        info = dict(test_data.DEPLOYMENTS[0], id=f'run-{n:03d}', config_id=f'config-{n:03d}',
                    creation_time=f'2025-03-01T{n // 60:02d}:{n % 60:02d}:00Z')
        runs.append(test_data.deployment(info))
    return runs


@override_settings(API_RESULT_PAGE_SIZE=20)
class DeploymentsPagingTests(helpers.TestCase):
    """Heat lists every run at once; the table shows a page of them at a time."""

    def setUp(self):
        super().setUp()
        self.index_url = reverse('horizon:project:deployments:index')

    def shown(self, res):
        return [d.id for d in res.context['table'].data]

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_page_at_a_time_newest_first_reading_only_its_configs(self):
        self.mock_deployments_list.return_value = _many_runs(45)
        self.mock_config_get.side_effect = test_data.named_config

        res = self.client.get(self.index_url)

        self.assertEqual([f'run-{n:03d}' for n in range(44, 24, -1)], self.shown(res))
        self.assertEqual(20, self.mock_config_get.call_count)
        self.assertContains(res, 'name-of-config-044')
        self.assertNotContains(res, 'name-of-config-024')
        self.assertContains(res, '?marker=run-025')
        self.assertFalse(res.context['table'].has_prev_data())

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_next_and_prev_walk_the_pages(self):
        self.mock_deployments_list.return_value = _many_runs(45)
        self.mock_config_get.side_effect = test_data.named_config

        second = self.client.get(self.index_url + '?marker=run-025')
        self.assertEqual([f'run-{n:03d}' for n in range(24, 4, -1)], self.shown(second))
        self.assertContains(second, '?prev_marker=run-024')
        self.assertContains(second, '?marker=run-005')

        last = self.client.get(self.index_url + '?marker=run-005')
        self.assertEqual(['run-004', 'run-003', 'run-002', 'run-001', 'run-000'],
                         self.shown(last))
        self.assertFalse(last.context['table'].has_more_data())

        back = self.client.get(self.index_url + '?prev_marker=run-004')
        self.assertEqual(self.shown(second), self.shown(back))

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_filter_applies_before_paging(self):
        runs = _many_runs(45)
        runs[:30] = [run.changed(status='FAILED') for run in runs[:30]]
        self.mock_deployments_list.return_value = runs
        self.mock_config_get.side_effect = test_data.named_config

        first = self.client.post(self.index_url, {
            'deployments__filter__q_field': 'status',
            'deployments__filter__q': 'failed'}, follow=True)
        self.assertEqual([f'run-{n:03d}' for n in range(29, 9, -1)], self.shown(first))

        # Horizon keeps the filter in the session, so the next page is still filtered.
        second = self.client.get(self.index_url + '?marker=run-010')
        self.assertEqual([f'run-{n:03d}' for n in range(9, -1, -1)], self.shown(second))
