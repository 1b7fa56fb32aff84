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

"""Deployments > an operation's page: one Run Action submit's runs, its counts, Cancel All
Running and Run Again on Failed; the Deployments list's Operation column and filter."""

from django.test.utils import override_settings
from django.urls import reverse

from heat_deploy_dashboard import api
import heat_deploy_runner as runner
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from tests.unit import helpers
from tests.unit import operation_data
from tests.unit import test_data


RUN_IDS = operation_data.RUN_IDS


class OperationPageTests(helpers.TestCase):
    """One operation's page: where Run Action leads."""

    SOURCE = operation_data.SOURCE
    OPERATION = operation_data.OPERATION

    def setUp(self):
        super().setUp()
        self.url = reverse('horizon:project:deployments:operation', args=[self.OPERATION.id])

    _config_get = staticmethod(operation_data.config_get)
    _runs = staticmethod(operation_data.runs)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_the_page_shows_the_action_who_started_it_its_inputs_runs_and_counts(self):
        self.mock_deployments_list.return_value = self._runs()
        self.mock_config_get.side_effect = self._config_get

        res = self.client.get(self.url)

        # What failed first, then what runs, then the rest.
        self.assertEqual([RUN_IDS[2], RUN_IDS[1], RUN_IDS[3]],
                         [d.id for d in res.context['table'].data])
        self.assertEqual('BACKUP on 3 servers', res.context['title'])
        self.assertRegex(res.content.decode(), r'test_user, <span data-seconds="\d+" '
                                               r'title="2026-11-23 08:00:00 UTC">[^<]+ ago</span>')
        self.assertContains(res, 'href="%s">mysql</a>' % reverse(
            'horizon:project:components:detail', args=[self.SOURCE]))
        self.assertContains(res, 'backup_dir = <code>/srv/&lt;b&gt;x&lt;/b&gt;</code>')
        counts = {each['status']: each['count'] for each in res.context['counts']}
        self.assertEqual({'COMPLETE': 1, 'FAILED': 1, 'CANCELLED': 0, 'IN_PROGRESS': 1},
                         counts)
        # In Horizon's colours of each outcome, not all grey.
        self.assertRegex(res.content.decode(), r'hdd-count label label-success"\s+'
                                               r'data-count-of="COMPLETE"')
        self.assertRegex(res.content.decode(), r'hdd-count label label-danger"\s+'
                                               r'data-count-of="FAILED"')
        # While a run runs, Cancel All Running; once one failed, Run Again on Failed.
        self.assertContains(res, 'id="operation__action_cancel_all"')
        self.assertRegex(res.content.decode(),
                         r'id="operation__action_rerun_failed"[^>]*class="(?![^"]*hidden)')
        self.assertContains(res, 'data-table="operation"')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_runs_whose_deployments_carry_their_operation_are_found_by_the_listing(self):
        other = runner.Operation('0b6b0f3e-5d6e-4f3a-9a57-0d1f5c1e2a3b', 'someone',
                                 '2026-11-23T07:00:00Z', self.SOURCE)
        self.mock_deployments_list.return_value = [
            run.changed(input_values={OPERATION_OPTION: (
                self.OPERATION if 1 <= n <= 3 else other).as_option()})
            for n, run in enumerate(self._runs())]
        self.mock_config_get.side_effect = self._config_get

        res = self.client.get(self.url)

        self.assertEqual(set(RUN_IDS[1:4]), {d.id for d in res.context['table'].data})
        # The operation's own runs and its source; no other run's config.
        self.assertEqual({'config-001', 'config-002', 'config-003', self.SOURCE},
                         {call.args[1] for call in self.mock_config_get.call_args_list})

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_finished_operation_offers_neither_cancel_nor_run_again_without_failures(self):
        self.mock_deployments_list.return_value = self._runs(['COMPLETE'] * 5)
        self.mock_config_get.side_effect = self._config_get

        res = self.client.get(self.url)

        self.assertNotContains(res, 'operation__action_cancel_all')
        self.assertRegex(res.content.decode(),
                         r'id="operation__action_rerun_failed"[^>]*class="[^"]*hidden')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.deploy: ('cancel_deployment',)})
    def test_cancel_all_cancels_the_running_runs_of_every_page_with_none_ticked(self):
        self.mock_deployments_list.return_value = self._runs()
        self.mock_config_get.side_effect = self._config_get
        self.mock_cancel_deployment.side_effect = lambda request, run_id: test_data.deployment(
            dict(test_data.DEPLOYMENTS[0], id=run_id, status='FAILED',
                 status_reason='Cancelled by test_user'))

        # One page, or a page of one row: the running run is not the first page's.
        for page_size in (20, 1):
            with self.subTest(page_size), override_settings(API_RESULT_PAGE_SIZE=page_size):
                self.mock_cancel_deployment.reset_mock()

                res = self.client.post(self.url, {'action': 'operation__cancel_all'})

                self.assertRedirectsNoFollow(res, self.url)
                self.mock_cancel_deployment.assert_called_once_with(
                    helpers.IsHttpRequest(), RUN_IDS[1])

    @override_settings(API_RESULT_PAGE_SIZE=1)
    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_page_at_a_time_counts_and_polls_the_runs_of_every_page(self):
        self.mock_deployments_list.return_value = self._runs()
        self.mock_config_get.side_effect = self._config_get

        first = self.client.get(self.url)
        second = self.client.get(self.url + '?marker=' + RUN_IDS[2])

        self.assertEqual([RUN_IDS[2]], [d.id for d in first.context['table'].data])
        self.assertEqual([RUN_IDS[1]], [d.id for d in second.context['table'].data])
        self.assertContains(first, '?marker=' + RUN_IDS[2])
        counts = {each['status']: each['count'] for each in first.context['counts']}
        self.assertEqual({'COMPLETE': 1, 'FAILED': 1, 'CANCELLED': 0, 'IN_PROGRESS': 1},
                         counts)
        # The other pages' runs: counted, and the running one polled with this page's rows.
        self.assertContains(first, '<script id="hdd-elsewhere-counts" type="application/json">'
                                   '{"IN_PROGRESS": 1, "COMPLETE": 1}</script>', html=False)
        self.assertContains(first, f'data-elsewhere="{RUN_IDS[1]}"')
        self.assertNotContains(second, 'data-elsewhere=')
        # Cancel All Running and Run Again on Failed are about every page's runs.
        self.assertContains(second, 'id="operation__action_cancel_all"')
        self.assertRegex(second.content.decode(),
                         r'id="operation__action_rerun_failed"[^>]*class="(?![^"]*hidden)')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_run_again_on_failed_fills_the_form_with_the_failed_servers(self):
        self.mock_deployments_list.return_value = self._runs()
        self.mock_config_get.side_effect = self._config_get

        res = self.client.get(reverse('horizon:project:deployments:operation_rerun',
                                      args=[self.OPERATION.id]))

        self.assertRedirectsNoFollow(res, reverse(
            'horizon:project:components:run', args=[self.SOURCE])
            + '?action=BACKUP&server=server-2&input__backup_dir=%2Fsrv%2F%3Cb%3Ex%3C%2Fb%3E')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_run_again_on_failed_with_nothing_failed_says_so(self):
        self.mock_deployments_list.return_value = self._runs(['COMPLETE'] * 5)
        self.mock_config_get.side_effect = self._config_get

        res = self.client.get(reverse('horizon:project:deployments:operation_rerun',
                                      args=[self.OPERATION.id]))

        self.assertRedirectsNoFollow(res, self.url)
        self.assertMessageCount(error=1)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_an_operation_with_no_run_left_is_not_found(self):
        self.mock_deployments_list.return_value = self._runs()
        self.mock_config_get.side_effect = self._config_get

        gone = self.client.get(reverse('horizon:project:deployments:operation',
                                       args=['00000000-0000-4000-8000-000000000000']))

        self.assertEqual(404, gone.status_code)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_the_list_shows_each_runs_operation_and_filters_by_it(self):
        self.mock_deployments_list.return_value = self._runs()
        self.mock_config_get.side_effect = self._config_get
        index = reverse('horizon:project:deployments:index')

        res = self.client.post(index, {'deployments__filter__q_field': 'operation',
                                       'deployments__filter__q': ' 5E8F0C2A '}, follow=True)

        self.assertEqual(RUN_IDS[3:0:-1], [d.id for d in res.context['table'].data])
        self.assertContains(res, f'<a href="{self.url}" title="{self.OPERATION.id}">'
                                 '<code>5e8f0c2a</code></a>')
