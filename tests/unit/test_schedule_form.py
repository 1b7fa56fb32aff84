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

"""Schedules from Run Action's form: Repeat and Once at (only with the workflow service), a
schedule's record and trigger made together or not at all, its secret kept out of Mistral, and
the preview of its next times (the Schedules panel: test_schedules)."""

import datetime
import json

from django.contrib.messages import get_messages
from django.urls import reverse

from heat_deploy_runner import workflows
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import TRIGGER_MOCKS
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit import test_schedules
from tests.unit.workflow_service import WorkflowService

from tests.unit.test_schedules import INDEX_URL
from tests.unit.test_schedules import SCHEDULE_MOCKS


class ScheduleFormTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        self.workflow = WorkflowService(self)
        # The project has its retention schedule (test_retention_schedule: made with the
        # first).
        self.workflow.keep(test_schedules.retention_record())

    def _messages(self, res):
        return [(m.level_tag, str(m)) for m in get_messages(res.wsgi_request)]

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_repeat_makes_a_record_and_a_trigger_acting_for_the_user(self):
        test_data.with_workflows(self)
        self.serve()

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            repeat=' 0  2 * * * ', input__retention_days='14'))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, INDEX_URL)
        [(_, made)] = self.workflow.mistral.environments.create.call_args_list
        name, saved = made['name'], made['variables']
        self.assertTrue(name.startswith('hdd-') and made['scope'] == 'private')
        self.assertEqual(('0 2 * * *', None, 'test_user', [data.DB_1, data.DB_2]),
                         (saved['pattern'], saved['once_at'], saved['owner'],
                          saved['server_ids']))
        self.assertEqual(14, saved['input_values']['retention_days'])
        [(trigger, started, pattern, workflow)] = self.workflow.triggers_made()
        self.assertEqual(name, trigger)
        [(_, made)] = self.workflow.mistral.cron_triggers.create.call_args_list
        self.assertEqual(('0 2 * * *', None, workflows.ROLLING_WORKFLOW),
                         (pattern, made['first_time'], workflow))
        self.assertEqual((True, name, 'test_user', 'mysql', 'BACKUP'),
                         (started['skip_busy'], started['schedule'], started['started_by'],
                          started['name'], started['action_name']))
        self.mock_start_runs.assert_not_called()
        self.assertEqual([('success', 'Scheduled BACKUP on 2 servers.')], self._messages(res))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_trigger_mistral_refused_leaves_no_record_behind(self):
        test_data.with_workflows(self)
        self.serve()
        self.workflow.mistral.cron_triggers.create.side_effect = ConnectionError('refused')

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(repeat='0 2 * * *'))

        [(_, made)] = self.workflow.mistral.environments.create.call_args_list
        self.workflow.mistral.environments.delete.assert_called_once_with(made['name'])
        self.assertEqual('error', self._messages(res)[0][0])
        self.assertIn('Nothing was scheduled.', self._messages(res)[0][1])

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_bad_patterns_and_times_are_refused_before_mistral_is_asked(self):
        test_data.with_workflows(self)
        self.serve()
        soon = (datetime.datetime.now(datetime.timezone.utc)
                + datetime.timedelta(minutes=1)).strftime('%Y-%m-%d %H:%M')
        for changes, field in (({'repeat': 'every night'}, 'repeat'),
                               ({'repeat': '0 2 * * * *'}, 'repeat'),
                               ({'repeat': '61 2 * * *'}, 'repeat'),
                               ({'once_at': 'tomorrow'}, 'once_at'),
                               ({'once_at': soon}, 'once_at'),
                               ({'repeat': '0 2 * * *', 'once_at': '2999-01-01 00:00'},
                                'once_at')):
            with self.subTest(changes):
                res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(**changes))
                self.assertIn(field, res.context['form'].errors)
        self.assertEqual([], self.workflow.written())

    def _serve_a_secret_input(self):
        test_data.with_workflows(self)
        self.serve_a_secret_input()

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedules_secret_is_kept_in_object_storage_mistral_holds_its_name(self):
        self._serve_a_secret_input()

        self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            repeat='0 2 * * *', input__db_password='hunter2'))

        [(ref, (kept, lifetime))] = self.workflow.secrets().items()
        [(_, made)] = self.workflow.mistral.environments.create.call_args_list
        name = made['name']
        self.assertTrue(ref.startswith(name + '/'))
        self.assertEqual(({'db_password': 'hunter2'}, None), (kept, lifetime))
        saved = self.workflow.saved(name)
        [(_name, started, _pattern, _workflow)] = self.workflow.triggers_made()
        self.assertNotIn('hunter2', json.dumps([saved, started]))
        self.assertEqual((ref, ['db_password'], ref),
                         (saved['secret_ref'], saved['secret_names'], started['secret_ref']))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_mistral_refused_leaves_no_secret_behind(self):
        self._serve_a_secret_input()
        self.workflow.mistral.cron_triggers.create.side_effect = ConnectionError('refused')

        self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            repeat='0 2 * * *', input__db_password='hunter2'))

        [kept] = [call.args[1] for call in self.workflow.swift.put_object.call_args_list]
        self.assertEqual([kept], self.workflow.secrets_forgotten())
        self.workflow.mistral.environments.delete.assert_called_once()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_without_the_workflow_service_the_form_offers_no_schedule(self):
        self.serve()
        self.assertNotIn('repeat', self.client.get(trigger_url(data.MYSQL_ID)).context[
            'form'].fields)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_to_whom_mistral_refuses_a_schedule_the_form_offers_none(self):
        self.serve()
        test_data.with_workflows(self)
        self.assertIn('repeat', self.client.get(trigger_url(data.MYSQL_ID)).context[
            'form'].fields)
        # Imported as a module: a test class imported by name runs here again.
        test_schedules.MistralPolicyTests.narrow_policy(self)

        fields = self.client.get(trigger_url(data.MYSQL_ID)).context['form'].fields

        self.assertNotIn('repeat', fields)
        # Runs in batches are Mistral's executions, which the narrowed rules leave alone.
        self.assertIn('batch_size', fields)

    def test_the_preview_gives_the_next_five_times(self):
        test_data.with_workflows(self)
        res = self.client.get(reverse('horizon:project:schedules:preview'),
                              {'pattern': '30 4 * * 1'})
        times = res.json()['times']
        self.assertEqual(5, len(times))
        self.assertTrue(all(' 04:30 ' in each for each in times), times)
        self.assertIn('error', self.client.get(reverse('horizon:project:schedules:preview'),
                                               {'pattern': '{$ 7*7 $}'}).json())
