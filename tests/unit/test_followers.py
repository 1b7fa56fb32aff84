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

"""Following an operation started at once: Run Action's submit has the workflow service
(Mistral) follow its runs where it is in the catalog (api.deploy.start_runs: runner
followers.start_and_follow), and the status poll then leaves their settling to it, unless it
is overdue (run_rows.settled_here)."""

import datetime
import json
import time
from unittest import mock

from django.contrib.messages import get_messages
from django.urls import reverse
from heatclient.v1 import software_configs

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import run_rows
from heat_deploy_dashboard.content import server_names
import heat_deploy_runner as runner
from heat_deploy_runner.running import operations
from heat_deploy_runner.running import starting
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import HEAT_MOCKS
from tests.unit.components_case import mysql_form
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit.workflow_service import WorkflowService

# The form's own start_runs (api.deploy), the runner's start in its place: what it is
# handed is what the dashboard decided; Mistral behind the API seam (workflow_service).
SUBMIT_MOCKS = {**HEAT_MOCKS, api.heat: HEAT_MOCKS[api.heat] + ('heatclient',)}
LINK = 'http://testserver/project/deployments/operations/{operation}/'
NAMED = {data.DB_1: 'demo-db-1', data.DB_2: 'demo-db-2', 'elsewhere': 'not-this-one'}


def _started_by_the_runner(heat, find_transport, run_request, operation, source=None,
                           server_names=None):
    """runner.start as it answers: a run per server, carrying the operation it was given."""
    return runner.Started(created=data.triggered(
        [dict(data.DEPLOYMENTS[3], id=f'00000000-0000-4000-8000-00000000000{n}',
              server_id=server) for n, server in enumerate(run_request.server_ids)]),
        operation=operation)


class FollowOnSubmitTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        self.workflow = WorkflowService(self)

    def _messages(self, res):
        return [(m.level_tag, str(m)) for m in get_messages(res.wsgi_request)]

    def _submit(self, **changes):
        """Run Action's submit, started by the runner (mocked), the servers named."""
        self.serve()
        with mock.patch.object(starting, 'start', side_effect=_started_by_the_runner) as start, \
                mock.patch.object(server_names, 'names', return_value=NAMED):
            res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(**changes))
        self.assertNoFormErrors(res)
        [call] = start.call_args_list
        return res, call.args[3]

    def _operation_url(self, operation):
        return reverse('horizon:project:deployments:operation', args=[operation.id])

    @helpers.create_mocks(SUBMIT_MOCKS)
    def test_with_mistral_the_started_operation_is_followed_and_handed_to_it(self):
        test_data.with_workflows(self)

        res, operation = self._submit()

        self.assertEqual(runner.FOLLOWED, operation.runner)
        self.assertTrue(operation.followed)
        self.assertRedirectsNoFollow(res, self._operation_url(operation))
        # An execution of the operation's id follows its runs (followers.follow_input).
        follower = self.workflow.mistral.executions.rows[operation.id]
        asked = json.loads(follower.input)
        self.assertEqual(({data.DB_1: 'demo-db-1', data.DB_2: 'demo-db-2'}, LINK),
                         (asked['server_names'], asked['link']))
        self.assertEqual(['00000000-0000-4000-8000-000000000000',
                          '00000000-0000-4000-8000-000000000001'], asked['deployment_ids'])
        self.assertEqual([('success', 'Started BACKUP on 2 servers.')], self._messages(res))

    @helpers.create_mocks(SUBMIT_MOCKS)
    def test_mistral_refusing_to_follow_says_so_and_the_runs_stand(self):
        test_data.with_workflows(self)
        self.workflow.mistral.executions.refusal = ConnectionError('refused')

        res, operation = self._submit()

        self.workflow.mistral.executions._create.assert_called_once()
        self.assertRedirectsNoFollow(res, self._operation_url(operation))
        # In either order (the warning is said first, as the runs are followed).
        self.assertCountEqual(
            [('success', 'Started BACKUP on 2 servers.'),
             ('warning', "The workflow service did not take this operation to follow: its "
                         "runs' time-outs and Zaqar results are recorded only while its "
                         "page is open, and no notice is sent.")],
            self._messages(res))

    @helpers.create_mocks(SUBMIT_MOCKS)
    def test_without_mistral_nothing_follows_the_operation(self):
        res, operation = self._submit()

        self.assertIsNone(operation.runner)
        self.assertFalse(operation.followed)
        self.assertRedirectsNoFollow(res, self._operation_url(operation))
        self.assertEqual([], self.workflow.written())
        self.assertEqual([('success', 'Started BACKUP on 2 servers.')], self._messages(res))


# The status poll of a running run whose result goes to a TempURL expiring at ``expires``.
RUNNING = test_data.DEPLOYMENTS[2]
RUNNING_ID = RUNNING['id']
FOLLOWED_OPERATION = runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'test_user',
                                      '2026-11-23T08:00:00Z', runner=runner.FOLLOWED)
NOT_FOLLOWED_OPERATION = runner.Operation(FOLLOWED_OPERATION.id, 'test_user',
                                          '2026-11-23T08:00:00Z')


def _run_config(expires):
    def config_get(request, config_id):
        return software_configs.SoftwareConfig(None, {
            'id': config_id, 'name': test_data.RUN_NAMES[config_id], 'group': 'script',
            'config': '', 'outputs': [], 'options': {}, 'creation_time': '2025-03-02T11:10:00Z',
            'inputs': [
                {'name': 'deploy_signal_transport', 'type': 'String',
                 'value': 'TEMP_URL_SIGNAL'},
                {'name': 'deploy_signal_id', 'type': 'String',
                 'value': 'http://swift:8080/v1/AUTH_p/c/o'
                          f'?temp_url_sig=f00d&temp_url_expires={int(expires)}'}]},
            loaded=True)
    return config_get


class FollowedRunPollTests(helpers.TestCase):
    """The status poll (a POST) of a running run past its deadline."""

    def _poll(self, operation, past_deadline):
        self.mock_config_get.side_effect = _run_config(time.time() - past_deadline.total_seconds())
        self.mock_deployment_get.return_value = test_data.deployment(dict(
            RUNNING, input_values=operations.as_input_values(operation)))
        # Nothing waiting on a queue; the timeout recorded as Heat would.
        self.mock_collect_result.side_effect = lambda request, run: run
        self.mock_expire_deployment.side_effect = \
            lambda request, run: runner.as_timed_out(run)
        reply = json.loads(self.client.post(reverse('horizon:project:deployments:status'),
                                            {'id': [RUNNING_ID]}).content)
        row = reply['rows'][RUNNING_ID]
        # Shown timed out, whoever records it.
        self.assertIn('data-status="FAILED"', row)
        self.assertIn('Timed out', row)
        self.assertEqual([], reply['running'])

    POLL_MOCKS = {api.heat: ('deployment_get', 'config_get'),
                  api.deploy: ('collect_result', 'expire_deployment')}

    @helpers.create_mocks(POLL_MOCKS)
    def test_a_followed_run_within_the_grace_is_shown_timed_out_but_not_written(self):
        self._poll(FOLLOWED_OPERATION, run_rows.FOLLOWER_GRACE / 2)

        self.mock_collect_result.assert_not_called()
        self.mock_expire_deployment.assert_not_called()

    @helpers.create_mocks(POLL_MOCKS)
    def test_a_followed_run_past_the_grace_is_written(self):
        self._poll(FOLLOWED_OPERATION, run_rows.FOLLOWER_GRACE + datetime.timedelta(minutes=1))

        self.mock_collect_result.assert_called_once()
        self.mock_expire_deployment.assert_called_once()
        self.assertEqual(RUNNING_ID, self.mock_expire_deployment.call_args.args[1].id)

    @helpers.create_mocks(POLL_MOCKS)
    def test_a_run_nothing_follows_is_written_as_soon_as_it_is_past_its_deadline(self):
        for operation in (NOT_FOLLOWED_OPERATION, None):
            with self.subTest(operation=operation):
                self.mock_collect_result.reset_mock()
                self.mock_expire_deployment.reset_mock()

                self._poll(operation, datetime.timedelta(seconds=30))

                self.mock_collect_result.assert_called_once()
                self.mock_expire_deployment.assert_called_once()
