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

"""An operation's page of an operation the workflow service (Mistral) follows: the outcome its
follower recorded, which try each run is, and that nothing follows one otherwise."""

import json
from unittest import mock

from django.urls import reverse
from mistralclient.api.v2 import executions

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import server_names
import heat_deploy_runner as runner
from heat_deploy_runner.running import operations
from tests.unit import helpers
from tests.unit import operation_data
from tests.unit import test_data

OPERATION_ID = operation_data.OPERATION.id
URL = reverse('horizon:project:deployments:operation', args=[OPERATION_ID])
RUN_IDS = operation_data.RUN_IDS
PAGE_MOCKS = {api.heat: ('deployments_list', 'config_get'), api.mistral: ('execution_get',)}
CANCEL_MOCKS = {**PAGE_MOCKS, api.mistral: ('execution_get', 'execution_cancel'),
                api.deploy: ('cancel_deployment',)}

# What the follower recorded: of three servers, one failed on its third and last try.
OUTCOME = {
    'ended_at': '2026-11-23T08:05:00Z', 'servers': 3,
    'counts': {'COMPLETE': 2, 'FAILED': 1},
    'failed': [{'server_id': 'server-2', 'status': 'FAILED', 'exit_code': 3,
                'reason': 'deploy_status_code : <b>disk</b> full', 'stderr': 'no space\n',
                'tries': 3}],
    'refused': [], 'not_started': [], 'gone': [],
    'notified': ['operation-queue'],
}
NAMED = {'server-1': 'demo-db-1', 'server-2': 'demo-<db>-2', 'server-3': 'demo-db-3'}


def follower(state='SUCCESS', output=None):
    """The follow workflow's execution of the operation."""
    return api.mistral.Execution(executions.Execution(None, {
        'id': OPERATION_ID, 'state': state, 'state_info': None,
        'workflow_name': 'heat_deploy.follow_v1', 'project_id': None,
        'created_at': '2026-11-23 08:00:01', 'updated_at': '2026-11-23 08:05:00',
        'input': json.dumps({'config_id': operation_data.SOURCE, 'action_name': 'BACKUP',
                             'deployment_ids': RUN_IDS[1:4], 'refused': []}),
        'output': json.dumps(output or {})}))


def followed_runs(statuses=('COMPLETE', 'COMPLETE', 'FAILED', 'COMPLETE', 'COMPLETE'),
                  followed=True):
    """operation_data.runs(), the operation's runs (1 to 3) carrying it as followed, run 2
    its server's third try of three (others, their first)."""
    found = operation_data.runs(statuses)
    for n in (1, 2, 3):
        operation = runner.Operation(
            OPERATION_ID, 'test_user', '2026-11-23T08:00:00Z', operation_data.SOURCE,
            runner=runner.FOLLOWED if followed else None,
            try_number=3 if n == 2 else 1, tries=3)
        found[n] = found[n].changed(input_values=operations.as_input_values(operation))
    return found


class FollowedOperationPageTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)

    def _get(self, runs):
        self.mock_deployments_list.return_value = runs
        self.mock_config_get.side_effect = operation_data.config_get
        with mock.patch.object(server_names, 'names', return_value=NAMED):
            return self.client.get(URL)

    def _tries(self, res):
        return {row.datum.id: row.cells['try_number'].data
                for row in res.context['table'].get_rows()}

    @helpers.create_mocks(PAGE_MOCKS)
    def test_a_followed_operation_whose_runs_were_all_deleted_is_not_found(self):
        # Its follower is still in Mistral; with no run left, the page has nothing to show.
        self.mock_execution_get.return_value = follower(output={'outcome': OUTCOME})

        res = self._get([run for n, run in enumerate(followed_runs()) if n not in (1, 2, 3)])

        self.assertEqual(404, res.status_code)

    @helpers.create_mocks(PAGE_MOCKS)
    def test_the_outcome_its_follower_recorded_is_shown(self):
        self.mock_execution_get.return_value = follower(output={'outcome': OUTCOME})

        res = self._get(followed_runs())

        self.mock_execution_get.assert_called_once_with(helpers.IsHttpRequest(), OPERATION_ID)
        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'hdd-outcome alert alert-warning')
        self.assertContains(res, '2 COMPLETE, 1 FAILED.')
        # The server's name and Heat's reason, both escaped.
        self.assertContains(res, '<li>demo-&lt;db&gt;-2: FAILED after 3 tries, exit code 3 '
                                 '(deploy_status_code : &lt;b&gt;disk&lt;/b&gt; full)</li>',
                            html=False)
        self.assertNotContains(res, '<b>disk</b>')
        self.assertContains(res, 'A notice was sent to 1 subscribed queue.')
        self.assertNotContains(res, 'The notice could not be sent')
        # Ended, not following: no sentence of a follower at work, nor of none.
        self.assertNotContains(res, 'Followed by the workflow service')
        self.assertNotContains(res, 'Nothing follows this operation')
        # A follower is no rolling run.
        self.assertNotIn('rolling', res.context)
        self.assertEqual('Try', res.context['table'].columns['try_number'].verbose_name)
        self.assertEqual({RUN_IDS[1]: '1 of 3', RUN_IDS[2]: '3 of 3', RUN_IDS[3]: '1 of 3'},
                         self._tries(res))
        self.assertContains(res, '3 of 3')

    @helpers.create_mocks(PAGE_MOCKS)
    def test_a_notice_that_could_not_be_sent_is_said(self):
        outcome = dict(OUTCOME, failed=[], counts={'COMPLETE': 3}, notified=[],
                       notice_failed='zaqar said 503')
        self.mock_execution_get.return_value = follower(output={'outcome': outcome})

        res = self._get(followed_runs(['COMPLETE'] * 5))

        self.assertContains(res, 'hdd-outcome alert alert-success')
        self.assertContains(res, '3 COMPLETE.')
        self.assertContains(res, 'The notice could not be sent: the messaging service (Zaqar) '
                                 'refused it.')
        self.assertNotContains(res, 'A notice was sent')
        self.assertNotContains(res, 'hdd-outcome-failed')

    @helpers.create_mocks(PAGE_MOCKS)
    def test_a_running_follower_says_it_follows_the_operation(self):
        self.mock_execution_get.return_value = follower('RUNNING')

        res = self._get(followed_runs(('COMPLETE', 'IN_PROGRESS', 'FAILED', 'COMPLETE',
                                       'COMPLETE')))

        self.assertContains(res, 'Followed by the workflow service (Mistral): it records each '
                                 'run&#x27;s end, time-out and result in Heat with no page '
                                 'open, then the outcome.')
        self.assertNotContains(res, 'hdd-outcome')
        self.assertNotContains(res, 'Nothing follows this operation')
        self.assertNotContains(res, 'Running in batches')

    @helpers.create_mocks(PAGE_MOCKS)
    def test_a_follower_that_stopped_with_no_outcome_says_so(self):
        self.mock_execution_get.return_value = follower('ERROR')

        res = self._get(followed_runs())

        self.assertContains(res, 'The workflow service stopped following this operation before '
                                 f'its end (its execution {OPERATION_ID} says why)')
        self.assertNotContains(res, 'hdd-outcome')

    @helpers.create_mocks(PAGE_MOCKS)
    def test_a_follower_whose_starter_lost_their_role_says_so_in_its_own_words(self):
        lost = ('Stopped: Mistral could not go on acting for the user who started this (the '
                'user lost a role, or a service failed). Runs already started go on; their '
                'pages show how they end.')
        self.mock_execution_get.return_value = follower('ERROR', {'stop': lost, 'result': lost})

        res = self._get(followed_runs())

        self.assertContains(res, 'Stopped: Mistral could not go on acting for the user who '
                                 'started this')
        self.assertNotContains(res, 'stopped following this operation')

    @helpers.create_mocks(PAGE_MOCKS)
    def test_an_operation_nothing_follows_says_so_and_asks_mistral_nothing(self):
        res = self._get(operation_data.runs())

        self.assertEqual(200, res.status_code)
        self.mock_execution_get.assert_not_called()
        self.assertContains(res, 'Nothing follows this operation while no page is open: its '
                                 'runs&#x27; time-outs and Zaqar results are recorded while a '
                                 'page shows them, and no notice is sent.')
        self.assertNotContains(res, 'hdd-outcome')
        self.assertNotContains(res, 'Followed by the workflow service')
        # One try of one: nothing to count.
        self.assertEqual({RUN_IDS[1]: '', RUN_IDS[2]: '', RUN_IDS[3]: ''}, self._tries(res))

    @helpers.create_mocks(PAGE_MOCKS)
    def test_tries_are_counted_of_an_operation_nothing_follows_too(self):
        res = self._get(followed_runs(followed=False))

        self.mock_execution_get.assert_not_called()
        self.assertContains(res, 'Nothing follows this operation')
        self.assertEqual('3 of 3', self._tries(res)[RUN_IDS[2]])

    @helpers.create_mocks(CANCEL_MOCKS)
    def test_cancel_all_leaves_the_follower_to_record_how_the_runs_ended(self):
        runs = followed_runs(('COMPLETE', 'IN_PROGRESS', 'FAILED', 'COMPLETE', 'COMPLETE'))
        self.mock_deployments_list.return_value = runs
        self.mock_config_get.side_effect = operation_data.config_get
        self.mock_execution_get.return_value = follower('RUNNING')
        self.mock_cancel_deployment.side_effect = lambda request, run_id: test_data.deployment(
            dict(test_data.DEPLOYMENTS[0], id=run_id, status='FAILED',
                 status_reason='Cancelled by test_user'))

        res = self.client.post(URL, {'action': 'operation__cancel_all'})

        self.assertRedirectsNoFollow(res, URL)
        self.mock_execution_cancel.assert_not_called()
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(),
                                                            RUN_IDS[1])


class ExecutionTests(helpers.TestCase):
    """api.mistral: the follower is an operation's execution; its outcome, once recorded."""

    def _execution_get(self, workflow_name):
        found = follower(output={'outcome': OUTCOME})._apiresource
        found.workflow_name = workflow_name
        found.project_id = self.request.user.project_id
        client = mock.Mock()
        client.executions.get.return_value = found
        with mock.patch.object(api.mistral, 'mistralclient', return_value=client):
            return api.mistral.execution_get(self.request, OPERATION_ID)

    def test_execution_get_answers_the_follower_of_an_operation(self):
        found = self._execution_get('heat_deploy.follow_v1')

        self.assertFalse(found.rolling)
        self.assertEqual(OUTCOME, found.outcome)

    def test_execution_get_answers_a_rolling_run_of_either_version(self):
        for name in ('heat_deploy.rolling_v1', 'heat_deploy.rolling_v2'):
            with self.subTest(name):
                self.assertTrue(self._execution_get(name).rolling)

    def test_execution_get_answers_no_execution_of_another_workflow(self):
        self.assertIsNone(self._execution_get('heat_deploy.retention_v1'))

    def test_no_outcome_before_one_is_recorded(self):
        for output in ({}, {'outcome': None}, {'stop': 'Stopped'}):
            with self.subTest(output=output):
                self.assertIsNone(follower('RUNNING', output).outcome)
