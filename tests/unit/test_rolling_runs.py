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

"""Rolling runs in the panels: Run Action's batches (offered only with the workflow service in
the catalog), started as a Mistral execution; an operation page following one, from before its
first run to why it stopped; Cancel All Running stopping its further batches."""

import json
from unittest import mock

from django.contrib.messages import get_messages
from django.urls import reverse
from mistralclient.api.v2 import executions

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner.workflows import rolling
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import TRIGGER_MOCKS
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import operation_data
from tests.unit import test_data
from tests.unit.workflow_service import WorkflowService

EXECUTION_ID = '9f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f'
OPERATION_URL = reverse('horizon:project:deployments:operation', args=[EXECUTION_ID])


def execution(state='RUNNING', servers=(data.DB_1, data.DB_2), output=None, project=None,
              **fields):
    return api.mistral.Execution(executions.Execution(None, dict({
        'id': EXECUTION_ID, 'state': state, 'state_info': None,
        'workflow_name': 'heat_deploy.rolling_v1', 'project_id': project,
        'created_at': '2026-11-24 10:00:00', 'updated_at': '2026-11-24 10:00:05',
        'input': json.dumps({'config_id': data.MYSQL_ID, 'action_name': 'BACKUP',
                             'server_ids': list(servers), 'started_by': 'test_user',
                             'input_values': {'backup_dir': 'backups',
                                              'db_password': 'hunter2'},
                             'batch_size': 1, 'max_failures': 0}),
        'output': json.dumps(output or {})}, **fields)))


class RunInBatchesTests(ComponentsTestCase):
    """Started by the runner (rolling.start), on the in-memory Mistral and Object Storage
    behind the API seam."""

    def setUp(self):
        super().setUp()
        self.workflow = WorkflowService(self)

    def _messages(self, res):
        return [(m.level_tag, str(m)) for m in get_messages(res.wsgi_request)]

    def _operation_url(self):
        [started] = self.workflow.mistral.executions.rows
        return reverse('horizon:project:deployments:operation', args=[started])

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_without_the_workflow_service_the_form_offers_no_batches(self):
        self.serve()
        res = self.client.get(trigger_url(data.MYSQL_ID))
        self.assertNotIn('batch_size', res.context['form'].fields)
        self.assertNotContains(res, 'Servers at a time')

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_batches_start_a_mistral_execution_whose_page_follows_it(self):
        test_data.with_workflows(self)
        self.serve()
        self.assertContains(self.client.get(trigger_url(data.MYSQL_ID)), 'Servers at a time')

        named = {data.DB_1: 'demo-db-1', data.DB_2: 'demo-db-2'}
        with mock.patch.object(server_names, 'names', return_value=named):
            res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
                batch_size='1', max_failures='0', retries='2', retry_delay='10',
                input__retention_days='14'))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, self._operation_url())
        self.assertEqual([{
            'config_id': data.MYSQL_ID, 'name': 'mysql', 'action_name': 'BACKUP',
            'server_ids': [data.DB_1, data.DB_2], 'started_by': 'test_user',
            'input_values': {'backup_dir': 'backups', 'retention_days': 14, 'compress': True,
                             'tables': ['users', 'posts'], 'labels': {'schedule': 'manual'},
                             'backup_file': ''},
            'transport': 'TEMP_URL_SIGNAL', 'timeout_minutes': 60, 'batch_size': 1,
            'max_failures': 0, 'secret_ref': None, 'retries': 2, 'retry_delay': 10,
            'skip_busy': False, 'live': False,
            # What its notices name and link to.
            'server_names': {data.DB_1: 'demo-db-1', data.DB_2: 'demo-db-2'},
            'link': 'http://testserver/project/deployments/operations/{operation}/'}],
            self.workflow.started())
        self.mock_start_runs.assert_not_called()
        self.assertEqual([('success', 'Started BACKUP on 2 servers, 1 at a time.')],
                         self._messages(res))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_many_servers_are_handed_to_the_workflow_service_as_one_batch(self):
        test_data.with_workflows(self)
        self.serve()

        with mock.patch.object(rolling, 'MAX_STARTED_HERE', 1):
            res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form())

        self.assertRedirectsNoFollow(res, self._operation_url())
        [started] = self.workflow.started()
        self.assertEqual((0, [data.DB_1, data.DB_2]),
                         (started['batch_size'], started['server_ids']))
        self.assertEqual([('success', 'Started BACKUP on 2 servers: the workflow service '
                                      '(Mistral) makes their runs.')], self._messages(res))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_command_shown_with_tries_is_the_one_the_form_submits(self):
        """Shown again after a refused submit (a wrong input) and after one Mistral refused
        (a valid form): the tries and batches are in it either way."""
        test_data.with_workflows(self)
        self.serve()
        self.workflow.mistral.executions.create.side_effect = ConnectionError('refused')
        tried = {'retries': '2', 'retry_delay': '10'}

        wrong = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            input__retention_days='many', **tried))
        refused = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            batch_size='1', max_failures='1', **tried))

        self.assertIn('input__retention_days', wrong.context['form'].errors)
        self.assertTrue(wrong.context['commands'].startswith(
            'openstack software component run '))
        self.assertIn('--retries 2 --retry-delay 10', wrong.context['commands'])
        self.assertIn('--batch-size 1 --max-failures 1 --retries 2 --retry-delay 10',
                      refused.context['commands'])

    def _serve_a_secret_input(self):
        test_data.with_workflows(self)
        self.serve_a_secret_input()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_secret_is_kept_in_object_storage_not_handed_to_the_workflow_service(self):
        self._serve_a_secret_input()

        self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            batch_size='1', input__db_password='hunter2'))

        [(ref, (kept, lifetime))] = self.workflow.secrets().items()
        self.assertTrue(ref.startswith('run/'))
        self.assertEqual(({'db_password': 'hunter2'}, str(2 * 60 * 60 + 3600)),
                         (kept, lifetime))
        [started] = self.workflow.started()
        self.assertNotIn('hunter2', json.dumps(started))
        self.assertEqual(ref, started['secret_ref'])

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_secrets_kept_for_a_run_mistral_refused_are_removed(self):
        self._serve_a_secret_input()
        self.workflow.mistral.executions.create.side_effect = ConnectionError('refused')

        self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            batch_size='1', input__db_password='hunter2'))

        [kept] = [call.args[1] for call in self.workflow.swift.put_object.call_args_list]
        self.assertEqual([kept], self.workflow.secrets_forgotten())

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_object_storage_refusing_the_secrets_says_so_and_starts_nothing(self):
        self._serve_a_secret_input()
        self.workflow.swift.put_object.side_effect = ConnectionError('refused')

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            batch_size='1', input__db_password='hunter2'))

        self.workflow.mistral.executions.create.assert_not_called()
        [(level, text)] = self._messages(res)
        self.assertIn('Object Storage could not be reached', text)
        self.assertIn('ask your cloud administrator to check Swift', text)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_mistral_failing_says_so_and_nothing_started(self):
        test_data.with_workflows(self)
        self.serve()
        self.workflow.mistral.executions.create.side_effect = ConnectionError('refused')

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(batch_size='2'))

        self.assertEqual([('error', 'Unable to start BACKUP in batches: the workflow service '
                                    'could not be reached or answered with an error. Nothing '
                                    'was started. Try again later, or ask your cloud '
                                    'administrator to check Mistral.')],
                         self._messages(res))


class RollingOperationPageTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)

    def _runs_of_execution(self, statuses):
        """Runs of the execution on DB_1 (and DB_2), carrying it as their operation."""
        kept = {'operation': EXECUTION_ID, 'started_by': 'test_user',
                'started_at': '2026-11-24T10:00:00Z', 'source': data.MYSQL_ID,
                'runner': 'mistral'}
        return [test_data.deployment(dict(
            test_data.DEPLOYMENTS[0], id=f'00000000-0000-4000-8000-0000000000a{n}',
            config_id=f'config-00{n}', server_id=server, status=status,
            input_values={OPERATION_OPTION: kept}))
            for n, (server, status) in enumerate(zip((data.DB_1, data.DB_2), statuses))]

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_before_its_first_run_the_page_shows_the_rolling_run(self):
        self.mock_deployments_list.return_value = []
        self.mock_config_get.side_effect = operation_data.config_get
        self.mock_execution_get.return_value = execution()

        res = self.client.get(OPERATION_URL)

        self.assertEqual(200, res.status_code)
        self.assertEqual('BACKUP on 2 servers', res.context['title'])
        self.assertContains(res, 'Running in batches')
        self.assertContains(res, 'data-refresh-seconds="5"')
        self.assertContains(res, '1 server at a time, 0 failures allowed')
        self.assertContains(res, 'db_password = <code>********</code>')
        self.assertNotContains(res, 'hunter2')
        self.assertEqual([data.DB_1, data.DB_2], res.context['rolling']['waiting'])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_once_every_server_has_its_run_the_page_is_reloaded_only_now_and_then(self):
        # The status poll follows the runs; a reload every 5 s of 200 rows was 13 requests
        # in 15 s.
        self.mock_deployments_list.return_value = self._runs_of_execution(
            ['IN_PROGRESS', 'IN_PROGRESS'])
        self.mock_config_get.side_effect = operation_data.config_get
        self.mock_execution_get.return_value = execution()

        res = self.client.get(OPERATION_URL)

        self.assertContains(res, 'Running in batches')
        self.assertEqual([], res.context['rolling']['waiting'])
        self.assertContains(res, 'data-refresh-seconds="30"')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_a_stopped_rolling_run_says_why_and_which_servers_it_did_not_start(self):
        self.mock_deployments_list.return_value = self._runs_of_execution(['FAILED'])
        self.mock_config_get.side_effect = operation_data.config_get
        reason = 'Stopped: servers failed: 1, more than the 0 allowed; not started: 1.'
        self.mock_execution_get.return_value = execution(
            'ERROR', state_info='Failure caused by error in tasks: judge\nTraceback...',
            output={'stop': reason})

        res = self.client.get(OPERATION_URL)

        self.assertContains(res, reason)
        self.assertNotContains(res, 'Traceback')
        self.assertNotContains(res, 'data-refresh-seconds')
        self.assertEqual([data.DB_2], res.context['rolling']['not_started'])
        self.assertNotContains(res, 'operation__action_cancel_all')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_the_servers_it_left_out_as_still_running_are_named_apart(self):
        self.mock_deployments_list.return_value = self._runs_of_execution(['COMPLETE'])
        self.mock_config_get.side_effect = operation_data.config_get
        found = execution('SUCCESS', output={'skipped': [data.DB_2]})
        found._apiresource.input = json.dumps(dict(found.workflow_input, skip_busy=True))
        self.mock_execution_get.return_value = found

        res = self.client.get(OPERATION_URL)

        self.assertEqual([data.DB_2], res.context['rolling']['busy'])
        self.assertEqual([], res.context['rolling']['not_started'])
        self.assertContains(res, 'Left out, still running an earlier run:')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_while_it_runs_a_server_it_may_leave_out_is_not_said_to_wait_for_sure(self):
        self.mock_deployments_list.return_value = []
        found = execution()
        found._apiresource.input = json.dumps(dict(found.workflow_input, skip_busy=True))
        self.mock_execution_get.return_value = found

        res = self.client.get(OPERATION_URL)

        self.assertContains(res, 'Waiting for their batch, unless left out as still running')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_a_schedules_operation_on_every_server_at_once_says_so(self):
        self.mock_deployments_list.return_value = []
        found = execution()
        found._apiresource.input = json.dumps(dict(found.workflow_input, batch_size=0))
        self.mock_execution_get.return_value = found

        res = self.client.get(OPERATION_URL)

        self.assertContains(res, 'Every server at once, run by the workflow service')
        self.assertNotContains(res, '0 servers at a time')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_missing_actions_on_the_mistral_hosts_are_named(self):
        self.mock_deployments_list.return_value = []
        self.mock_execution_get.return_value = execution(
            'ERROR', state_info='Failed to run task [error=Failed to find action '
                                '[action_name=heat_deploy.plan, namespace=]...')

        res = self.client.get(OPERATION_URL)

        self.assertContains(res, 'heat-deploy-runner is not installed on its hosts')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_with_mistral_down_the_page_says_so_rather_than_not_found(self):
        self.mock_deployments_list.return_value = []
        self.mock_execution_get.side_effect = ConnectionError('refused')

        res = self.client.get(OPERATION_URL)

        self.assertEqual(200, res.status_code)
        self.assertContains(res, "The operation&#x27;s runs could not be loaded.")
        self.assertEqual(["Unable to retrieve how the workflow service follows the operation: "
                          "the workflow service "
                          "could not be reached or answered with an error. Try again later, "
                          "or ask your cloud administrator to check Mistral."],
                         [str(m) for m in get_messages(res.wsgi_request)])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_with_mistral_down_a_rolling_runs_runs_still_show(self):
        self.mock_deployments_list.return_value = self._runs_of_execution(['COMPLETE'])
        self.mock_config_get.side_effect = operation_data.config_get
        self.mock_execution_get.side_effect = ConnectionError('refused')

        res = self.client.get(OPERATION_URL)

        self.assertEqual(1, len(res.context['table'].data))
        self.assertNotIn('rolling', res.context)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get',)})
    def test_no_run_and_no_execution_of_the_project_is_not_found(self):
        self.mock_deployments_list.return_value = []
        self.mock_execution_get.return_value = None
        self.assertEqual(404, self.client.get(OPERATION_URL).status_code)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get'),
                           api.mistral: ('execution_get', 'execution_cancel'),
                           api.deploy: ('cancel_deployment',)})
    def test_cancel_all_stops_further_batches_then_cancels_the_running_runs(self):
        runs = self._runs_of_execution(['IN_PROGRESS', 'COMPLETE'])
        self.mock_deployments_list.return_value = runs
        self.mock_config_get.side_effect = operation_data.config_get
        self.mock_execution_get.return_value = execution()
        calls = mock.Mock()
        calls.attach_mock(self.mock_execution_cancel, 'execution_cancel')
        calls.attach_mock(self.mock_cancel_deployment, 'cancel_deployment')

        res = self.client.post(OPERATION_URL, {'action': 'operation__cancel_all'})

        self.assertEqual(302, res.status_code)
        self.assertEqual(['execution_cancel', 'cancel_deployment'],
                         [call[0] for call in calls.mock_calls if '.' not in call[0]])
        self.mock_execution_cancel.assert_called_once_with(helpers.IsHttpRequest(),
                                                           EXECUTION_ID)
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(),
                                                            runs[0].id)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_an_operation_of_the_form_never_asks_mistral(self):
        self.mock_deployments_list.return_value = operation_data.runs()
        self.mock_config_get.side_effect = operation_data.config_get
        with mock.patch.object(api.mistral, 'execution_get') as execution_get:
            res = self.client.get(reverse('horizon:project:deployments:operation',
                                          args=[operation_data.OPERATION.id]))
        self.assertEqual(200, res.status_code)
        execution_get.assert_not_called()
