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

"""Deployments: running a past run again, and a result that arrives after a cancel."""

import copy
from urllib import parse

from django.urls import reverse

from heat_deploy_dashboard import api
import heat_deploy_runner as runner
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from tests.unit import components_case as case
from tests.unit import components_data as data
from tests.unit import helpers

BACKUP_RUN = data.DEPLOYMENTS[3]   # mysql BACKUP on DB_1, running
SCRIPT_RUN = data.DEPLOYMENTS[4]   # a plain script config, not a component
DETAIL_MOCKS = {api.heat: ('deployment_get', 'config_get')}
RERUN_MOCKS = {**case.HEAT_MOCKS, api.heat: ('deployment_get',) + case.HEAT_MOCKS[api.heat]}


# A run the Configs panel's Deploy made of the plain script config, named "hello".
DEPLOYED_CONFIG = dict(
    copy.deepcopy(data.SCRIPT_CONFIG), id='cc33dd44-0000-4000-8000-000000000005',
    name='hello-CREATE',
    inputs=[{'name': 'greeting', 'type': 'String', 'value': 'bonjour'},
            {'name': 'deploy_server_id', 'type': 'String', 'value': data.WEB},
            {'name': 'deploy_action', 'type': 'String', 'value': 'CREATE'}],
    options={OPERATION_OPTION: runner.Operation(
        '5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'demo', '2026-11-22T04:00:00Z',
        source=data.SCRIPT_CONFIG['id']).as_option()})
DEPLOYED_RUN = dict(SCRIPT_RUN, id='3e1f7066-0000-4000-8000-000000000006',
                    config_id=DEPLOYED_CONFIG['id'],
                    input_values={OPERATION_OPTION: DEPLOYED_CONFIG['options'][OPERATION_OPTION]})


def _detail(deployment_id, tab=''):
    url = reverse('horizon:project:deployments:detail', args=[deployment_id])
    return url + (f'?tab=deployment_details__{tab}' if tab else '')


class RerunTests(case.ComponentsTestCase):

    def _serve(self, run):
        self.serve()
        self.mock_deployment_get.return_value = data.deployments([run])[0]

    @helpers.create_mocks(RERUN_MOCKS)
    def test_run_again_opens_the_components_form_with_this_runs_action_server_and_inputs(
            self):
        self._serve(BACKUP_RUN)

        res = self.client.get(reverse('horizon:project:deployments:rerun',
                                      args=[BACKUP_RUN['id']]))

        self.assertEqual(302, res.status_code)
        target = parse.urlsplit(res['Location'])
        self.assertEqual(case.trigger_url(data.MYSQL_ID), target.path)
        query = parse.parse_qs(target.query)
        self.assertEqual(['BACKUP'], query['action'])
        self.assertEqual([data.DB_1], query['server'])
        self.assertEqual(['7'], query['input__retention_days'])
        self.assertEqual(['users,posts'], query['input__tables'])
        self.assertNotIn('input__deploy_signal_transport', query)

    @helpers.create_mocks(RERUN_MOCKS)
    def test_a_run_made_outside_the_dashboard_of_a_plain_config_is_not_run_again(self):
        self._serve(SCRIPT_RUN)

        page = self.client.get(_detail(SCRIPT_RUN['id']))
        res = self.client.get(reverse('horizon:project:deployments:rerun',
                                      args=[SCRIPT_RUN['id']]))

        self.assertNotContains(page, 'Run Again')
        self.assertRedirectsNoFollow(res, _detail(SCRIPT_RUN['id']))
        self.assertMessageCount(error=1)

    @helpers.create_mocks(RERUN_MOCKS)
    def test_run_again_of_a_run_deployed_here_opens_the_deploy_form_filled_in(self):
        self.serve(configs=data.CONFIGS + [DEPLOYED_CONFIG],
                   deployments=data.DEPLOYMENTS + [DEPLOYED_RUN])
        self.mock_deployment_get.return_value = data.deployments([DEPLOYED_RUN])[0]

        page = self.client.get(_detail(DEPLOYED_RUN['id']))
        res = self.client.get(reverse('horizon:project:deployments:rerun',
                                      args=[DEPLOYED_RUN['id']]))

        self.assertContains(page, 'Run Again')
        target = parse.urlsplit(res['Location'])
        self.assertEqual(reverse('horizon:project:configs:deploy',
                                 args=[data.SCRIPT_CONFIG['id']]), target.path)
        self.assertEqual({'server': [data.WEB], 'action': ['CREATE'], 'name': ['hello'],
                          'input__greeting': ['bonjour']}, parse.parse_qs(target.query))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_form_takes_the_runs_server_and_values_from_the_link(self):
        self.serve()

        res = self.client.get(case.trigger_url(
            data.MYSQL_ID, f'?action=RESTORE&server={data.DB_2}&input__retention_days=30'),
            HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        form = res.context['form']
        self.assertEqual('RESTORE', form.initial['action'])
        self.assertEqual([data.DB_2], form.initial['servers'])
        self.assertEqual('30', form['input__retention_days'].value())


class LateResultTests(helpers.TestCase):

    def _cancelled(self):
        run = copy.deepcopy(BACKUP_RUN)
        run.update(status='FAILED', status_reason='Cancelled by demo at 2026-11-22T04:00:02Z')
        return data.deployments([run])[0]

    @helpers.create_mocks({**DETAIL_MOCKS, api.deploy: ('late_result',)})
    def test_a_result_sent_after_a_cancel_is_shown_as_late_and_escaped(self):
        self.mock_deployment_get.return_value = self._cancelled()
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_late_result.return_value = {
            'deploy_stdout': 'finished anyway <b>bold</b>', 'deploy_status_code': 0}

        res = self.client.get(_detail(BACKUP_RUN['id'], 'outputs'))

        self.assertContains(res, 'Late result')
        self.assertContains(res, 'finished anyway &lt;b&gt;bold&lt;/b&gt;')
        self.assertContains(res, 'its server finished it anyway')
        self.assertContains(res, 'Cancelled by demo')
        # What Heat recorded has no code, and that is not "yet": the run is over.
        self.assertNotContains(res, 'Not reported yet')
        self.assertContains(res, 'No exit code: the run was cancelled before its server reported')
        # One box of commands for the page, whichever tab is open.
        self.assertEqual(1, res.content.decode().count('<h4>With the openstack client'))

    @helpers.create_mocks({**DETAIL_MOCKS, api.deploy: ('late_result',)})
    def test_a_cancelled_run_without_a_late_result_says_nothing_more(self):
        self.mock_deployment_get.return_value = self._cancelled()
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_late_result.return_value = None

        res = self.client.get(_detail(BACKUP_RUN['id'], 'outputs'))

        self.assertNotContains(res, 'Late result')

    @helpers.create_mocks(DETAIL_MOCKS)
    def test_the_page_of_a_running_run_offers_cancel_and_a_finished_one_does_not(self):
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_deployment_get.return_value = data.deployments([BACKUP_RUN])[0]
        running = self.client.get(_detail(BACKUP_RUN['id']))
        self.assertContains(running, f'deployments__cancel__{BACKUP_RUN["id"]}')

        finished = dict(BACKUP_RUN, status='COMPLETE', updated_time='2026-11-22T04:01:00Z')
        self.mock_deployment_get.return_value = data.deployments([finished])[0]
        done = self.client.get(_detail(BACKUP_RUN['id']))
        self.assertNotContains(done, f'deployments__cancel__{BACKUP_RUN["id"]}')
        self.assertContains(done, reverse('horizon:project:deployments:rerun',
                                          args=[BACKUP_RUN['id']]))

    @helpers.create_mocks(DETAIL_MOCKS)
    def test_the_actions_on_a_runs_page_post_to_the_deployments_list(self):
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_deployment_get.return_value = data.deployments([BACKUP_RUN])[0]

        res = self.client.get(_detail(BACKUP_RUN['id']))

        self.assertContains(
            res, f'action="{reverse("horizon:project:deployments:index")}"')
