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

"""Schedules: the Schedules panel's rows and why a schedule does not do its work, pause, resume
and delete, and what Mistral's policy lets a member change (Run Action's Repeat and Once at:
test_schedule_form). Its fixtures serve the other schedules tests."""

import datetime
import json
import os
import tempfile
import uuid

from django.conf import settings
from django.test.utils import override_settings
from django.urls import reverse
from mistralclient.api.v2 import cron_triggers
from mistralclient.api.v2 import environments
from mistralclient.api.v2 import executions
from openstack_auth import policy

from heat_deploy_dashboard import api
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.scheduling import cron
from heat_deploy_runner.scheduling import schedule_kinds
from heat_deploy_runner.scheduling import schedules as runner_schedules
from tests.unit.components_case import TRIGGER_MOCKS
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit.test_config_deploy import deployed_server
from tests.unit.test_config_deploy import heat_resources
from tests.unit import test_data
from tests.unit.workflow_service import WorkflowService

INDEX_URL = reverse('horizon:project:schedules:index')
NAME = 'hdd-3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c'
RECORD = {'component_id': data.MYSQL_ID, 'component_name': 'mysql', 'run_name': 'mysql',
          'action': 'BACKUP', 'server_ids': [data.DB_1, data.DB_2],
          # A secret is kept in Object Storage: the record holds its name only.
          'input_values': {'backup_dir': 'nightly'}, 'secret_names': ['db_password'],
          'secret_ref': None,
          'transport': 'TEMP_URL_SIGNAL', 'timeout_minutes': 60, 'batch_size': 0,
          'max_failures': 0, 'pattern': '0 2 * * *', 'once_at': None, 'owner': 'test_user',
          'paused': False}
# The panel's lists; what a schedule's change reads and writes is the runner's, on the
# in-memory Mistral and Object Storage behind the API seam (workflow_service).
SCHEDULE_MOCKS = {**TRIGGER_MOCKS, api.mistral: (
    'schedule_records', 'cron_triggers_list', 'rolling_runs_list')}


def record(name=NAME, project='1', **changes):
    return environments.Environment(None, {'name': name, 'project_id': project,
                                           'variables': dict(RECORD, **changes)})


def retention_record():
    """The project's retention schedule, as runner.scheduling.schedules.create keeps it."""
    return environments.Environment(None, {
        'name': runner_schedules.RETENTION, 'project_id': '1', 'variables': dict(
            schedule_kinds.RETENTION.record(retention.Policy()), owner='test_user',
            paused=False, secret_ref=None, secret_names=[])})


def trigger(name=NAME, next_time='2999-01-01 02:00:00'):
    return cron_triggers.CronTrigger(None, {'name': name, 'pattern': '0 2 * * *',
                                            'next_execution_time': next_time})


def execution(state='SUCCESS', output=None, schedule=NAME,
              execution_id='6c5b4a39-2817-4e6d-9c0b-a1b2c3d4e5f6',
              created_at='2026-11-24 02:00:01'):
    return api.mistral.Execution(executions.Execution(None, {
        'id': execution_id, 'state': state, 'state_info': None,
        'project_id': '1', 'created_at': created_at,
        'input': json.dumps({'schedule': schedule}), 'output': json.dumps(output or {})}))


class SchedulesPanelTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)
        self.workflow = WorkflowService(self)

    def _serve(self, records, triggers, runs=()):
        # The demo stack's servers: db-1 and db-2 are the project's.
        self.mock_stacks_list.return_value = data.stack_list()
        self.mock_resources_list.return_value = heat_resources(
            [deployed_server(data.DB_1, 'demo-db-1', 'db_server_1'),
             deployed_server(data.DB_2, 'demo-db-2', 'db_server_2')])
        self.mock_schedule_records.return_value = records
        self.mock_cron_triggers_list.return_value = triggers
        self.mock_rolling_runs_list.return_value = list(runs)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_row_shows_what_runs_where_and_when_its_last_operation_and_masks_secrets(self):
        self._serve([record(input_values={'backup_dir': 'nightly', 'compress': True,
                                          'tables': ['users', 'posts']})],
                    [trigger()], [execution()])

        res = self.client.get(INDEX_URL)

        [row] = res.context['table'].data
        self.assertEqual('Active', str(row.state))
        self.assertIsNone(row.problem())
        self.assertContains(res, '0 2 * * * (cron, UTC)')
        self.assertContains(res, 'db_password = ********')
        # Values as the run pages show them, not as Python prints them.
        self.assertContains(res, 'compress = true')
        self.assertContains(res, 'tables = [&quot;users&quot;, &quot;posts&quot;]')
        self.assertContains(res, reverse('horizon:project:deployments:operation',
                                         args=[execution().id]))
        # Three calls to Mistral, whatever the number of schedules.
        self.assertEqual(1, self.mock_rolling_runs_list.call_count)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_rows_say_why_a_schedule_does_not_do_its_work(self):
        gone = 'The component %s no longer exists.' % data.MYSQL_ID
        late = (datetime.datetime.now(datetime.timezone.utc)
                - datetime.timedelta(minutes=10)).strftime('%Y-%m-%d %H:%M:%S')
        self._serve([record(), record('hdd-late')],
                    [trigger(), trigger('hdd-late', next_time=late)],
                    [execution('ERROR', {'problem': gone})])

        rows = {row.name: row for row in self.client.get(INDEX_URL).context['table'].data}

        self.assertEqual(gone, rows[NAME].problem())
        self.assertIn('Mistral could not act for test_user', str(rows['hdd-late'].problem()))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_paused_schedules_row_shows_its_firing_still_running(self):
        # Newest first: a firing of the kept trigger that ran nothing, then one that ended
        # before the firing still running.
        running = '0b6f3d2e-9a51-4c7e-8d20-5e4f3a2b1c0d'
        self._serve([record(paused=True)], [trigger()], [
            execution('ERROR', {'retired': True}, execution_id=str(uuid.uuid4())),
            execution('SUCCESS', execution_id=str(uuid.uuid4())),
            execution('RUNNING', execution_id=running)])

        [row] = self.client.get(INDEX_URL).context['table'].data

        self.assertEqual((running, 'Paused'), (row.last.id, row.state))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_firing_of_the_kept_trigger_after_the_pause_is_not_the_rows_latest(self):
        # Before its plan has retired it, it runs: the row still links the firing that runs.
        running = '0b6f3d2e-9a51-4c7e-8d20-5e4f3a2b1c0d'
        paused = record(paused=True, history=[
            {'what': 'paused', 'by': 'test_user', 'at': '2026-11-24T02:00:30Z'}])
        self._serve([paused], [trigger()], [
            execution('RUNNING', execution_id=str(uuid.uuid4()),
                      created_at='2026-11-24 02:01:00'),
            execution('RUNNING', execution_id=running)])

        [row] = self.client.get(INDEX_URL).context['table'].data

        self.assertEqual(running, row.last.id)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_mistral_down_is_said_not_an_empty_list(self):
        self.mock_schedule_records.side_effect = ConnectionError('refused')
        res = self.client.get(INDEX_URL)
        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'The schedules could not be loaded.')

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_pause_keeps_the_record_and_deletes_the_trigger_resume_makes_it_again(self):
        self._serve([record()], [trigger()])
        self.workflow.keep(record())

        self.client.post(INDEX_URL, {'action': f'schedules__pause__{NAME}'})

        saved = self.workflow.saved(NAME)
        self.assertTrue(saved['paused'])
        self.workflow.mistral.cron_triggers.delete.assert_called_once_with(NAME)

        self._serve([record(paused=True)], [])
        self.workflow.keep(record(paused=True, owner='someone'))
        self.client.post(INDEX_URL, {'action': f'schedules__resume__{NAME}'})

        [(_name, started, _pattern, _workflow)] = self.workflow.triggers_made()
        self.assertEqual('test_user', started['started_by'])
        saved = self.workflow.saved(NAME)
        self.assertEqual((False, 'test_user'), (saved['paused'], saved['owner']))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_delete_removes_the_trigger_the_record_and_the_kept_secrets(self):
        self._serve([record()], [trigger()])
        self.workflow.keep(record(secret_ref=NAME + '/kept'))

        self.client.post(INDEX_URL, {'action': f'schedules__delete__{NAME}'})

        # The record first: a firing that ends meanwhile finds it gone and releases the rest.
        self.assertEqual(['environments_delete', 'cron_triggers_delete', 'delete_object'],
                         self.workflow.written())
        self.assertEqual([NAME + '/kept'], self.workflow.secrets_forgotten())

    def test_the_next_times_of_a_pattern(self):
        now = datetime.datetime(2026, 11, 24, 1, 0, tzinfo=datetime.timezone.utc)
        self.assertEqual(
            [datetime.datetime(2026, 11, d, 2, 0, tzinfo=datetime.timezone.utc)
             for d in (24, 25, 26, 27, 28)],
            cron.next_times('0 2 * * *', now=now))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_another_projects_schedule_is_neither_paused_nor_deleted(self):
        self._serve([], [])
        # Mistral shows an admin every project's.
        self.workflow.keep(record(project='2'))

        for action in ('pause', 'delete'):
            self.client.post(INDEX_URL, {'action': f'schedules__{action}__{NAME}'})

        self.assertEqual([], self.workflow.written())

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_row_names_the_servers_no_longer_the_projects(self):
        gone = '5f0e7a44-1c2b-4d3e-8f9a-0b1c2d3e4f5a'
        self._serve([record(server_ids=[data.DB_1, gone])], [trigger()])

        [row] = self.client.get(INDEX_URL).context['table'].data

        self.assertEqual([gone], row.missing)
        self.assertIn("Not among the project's servers any more: " + gone, str(row.problem()))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_servers_that_could_not_be_listed_are_not_called_gone(self):
        self._serve([record()], [trigger()])
        self.mock_stacks_list.side_effect = ConnectionError('refused')

        [row] = self.client.get(INDEX_URL).context['table'].data

        self.assertEqual(([], None), (row.missing, row.problem()))


class MistralPolicyTests(helpers.TestCase):
    """The panel checks Mistral's rules (the "workflow" scope) with openstack_auth's own check,
    against the files the settings snippet registers, here with an operator's override that
    keeps changing schedules to admins."""

    _serve = SchedulesPanelTests._serve

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)
        self.workflow = WorkflowService(self)
        self.narrow_policy(self)

    @staticmethod
    def narrow_policy(case):
        """Policy checks on, with an operator's override of Mistral's defaults."""
        overrides = tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False)
        overrides.write('"cron_triggers:create": "role:admin"\n'
                        '"cron_triggers:delete": "role:admin"\n')
        overrides.close()
        case.addCleanup(os.unlink, overrides.name)
        files = override_settings(POLICY_CHECK_FUNCTION='openstack_auth.policy.check',
                                  POLICY_FILES=dict(settings.POLICY_FILES,
                                                    workflow=overrides.name))
        files.enable()
        case.addCleanup(files.disable)
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        case.addCleanup(policy.reset)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_member_mistral_refuses_is_not_offered_changes_and_a_post_changes_nothing(self):
        self._serve([record()], [trigger()])
        self.workflow.keep(record())

        listed = self.client.get(INDEX_URL)
        posted = [self.client.post(INDEX_URL, {'action': f'schedules__{action}__{NAME}'})
                  for action in ('pause', 'delete')]

        # The list itself is Mistral's to show (cron_triggers:list is the owner's).
        self.assertEqual(200, listed.status_code)
        self.assertEqual([NAME], [row.id for row in listed.context['table'].data])
        for action in ('pause', 'resume', 'delete', 'change'):
            self.assertNotContains(listed, f'__action_{action}')
        for res in posted:
            self.assertEqual(302, res.status_code)
        self.assertEqual([], self.workflow.written())
