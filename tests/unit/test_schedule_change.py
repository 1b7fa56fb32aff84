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

"""Change Schedule (Run Action's form filled in from a schedule's record, a new trigger made
before the old one goes, its secrets kept apart until the new trigger stands, a firing of the
old trigger left to finish), and Mistral's lists read past its 1,000-row page."""

from unittest import mock

from django.contrib.messages import get_messages
from django.urls import reverse

from heat_deploy_dashboard import api
from heat_deploy_runner.scheduling import schedules as runner_schedules
from heat_deploy_runner.workflows import secret_store
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit.test_schedules import INDEX_URL
from tests.unit.test_schedules import NAME
from tests.unit.test_schedules import record
from tests.unit.test_schedules import SCHEDULE_MOCKS
from tests.unit.workflow_service import WorkflowService


def change_url(name=NAME):
    return reverse('horizon:project:schedules:change', args=[name])


class ChangeScheduleTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)
        self.workflow = WorkflowService(self)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_the_form_opens_with_what_the_schedule_runs_and_when(self):
        self.serve()
        self.workflow.keep(record(
            input_values={'backup_dir': 'nightly', 'retention_days': 14}, batch_size=1,
            retries=2, retry_delay=30))

        page = self.client.get(change_url())
        form = page.context['form']

        self.assertEqual(('BACKUP', '0 2 * * *', 'nightly', '14'),
                         (form['action'].value(), form['repeat'].value(),
                          form['input__backup_dir'].value(),
                          form['input__retention_days'].value()))
        self.assertEqual([data.DB_1, data.DB_2], form['servers'].value())
        # Its tries too, in the form and in the command it shows (a paste test found both
        # without them: the change would have dropped them).
        self.assertEqual((1, 2, 30), (form['batch_size'].value(), form['retries'].value(),
                                      form['retry_delay'].value()))
        self.assertIn('--batch-size 1 --retries 2 --retry-delay 30', page.context['commands'])

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_makes_a_new_trigger_acting_for_the_user_then_deletes_the_old(self):
        self.serve()
        self.workflow.keep(record(owner='someone'))

        res = self.client.post(change_url(), mysql_form(repeat='30 4 * * 1',
                                                        servers=[data.DB_2]))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, INDEX_URL)
        self.assertEqual(['cron_triggers_create', 'environments_update', 'cron_triggers_delete'],
                         self.workflow.written())
        [(made, started, pattern, _workflow)] = self.workflow.triggers_made()
        saved = self.workflow.saved(NAME)
        self.assertEqual((saved['trigger'], '30 4 * * 1', [data.DB_2], 'test_user',
                          saved['trigger']),
                         (made, pattern, started['server_ids'], started['started_by'],
                          started['trigger']))
        self.assertTrue(saved['trigger'].startswith(NAME + '.'))
        self.workflow.mistral.cron_triggers.delete.assert_called_once_with(NAME)
        self.assertEqual(('30 4 * * 1', 'test_user', False),
                         (saved['pattern'], saved['owner'], saved['paused']))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_while_the_schedule_fires_leaves_that_firing_its_trigger_and_secrets(self):
        self.serve_a_secret_input()
        self.workflow.fire(NAME)
        self.workflow.keep(record(secret_names=['db_password'], secret_ref=NAME + '/old'))

        res = self.client.post(change_url(), mysql_form(repeat='0 2 * * *',
                                                        input__db_password='swordfish'))

        # Its release deletes them when it ends (the rolling workflow's release).
        self.workflow.mistral.cron_triggers.delete.assert_not_called()
        self.assertEqual([], self.workflow.secrets_forgotten())
        self.assertIn('The firing now running goes on as it was; the next firing runs the '
                      'change.', [str(m) for m in get_messages(res.wsgi_request)])

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_paused_schedule_changes_and_stays_paused(self):
        self.serve()
        self.workflow.keep(record(paused=True, owner='someone'))

        self.client.post(change_url(), mysql_form(repeat='30 4 * * 1'))

        self.assertEqual(['environments_update'], self.workflow.written())
        saved = self.workflow.saved(NAME)
        self.assertEqual(('30 4 * * 1', 'someone', True),
                         (saved['pattern'], saved['owner'], saved['paused']))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_mistral_refused_leaves_the_old_trigger_as_it_was(self):
        self.serve()
        self.workflow.keep(record())
        self.workflow.mistral.cron_triggers.create.side_effect = ConnectionError('refused')

        res = self.client.post(change_url(), mysql_form(repeat='30 4 * * 1'))

        self.assertEqual(['cron_triggers_create'], self.workflow.written())
        [message] = [str(m) for m in get_messages(res.wsgi_request)]
        self.assertIn('It keeps what it ran and when.', message)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_keeps_new_secrets_apart_and_forgets_the_old_once_it_stands(self):
        self.serve_a_secret_input()
        old_ref = NAME + '/old'
        self.workflow.keep(record(input_values={'backup_dir': 'nightly'},
                                  secret_names=['db_password'], secret_ref=old_ref))
        secret_store.put(self.workflow.swift, old_ref, {'db_password': 'hunter2'})

        res = self.client.get(change_url())
        self.assertEqual('hunter2', res.context['form']['input__db_password'].value())
        # Kept in the field to be sent back, not shown on the screen.
        self.assertContains(res, 'type="password" name="input__db_password"')

        self.client.post(change_url(), mysql_form(repeat='0 2 * * *',
                                                  input__db_password='swordfish'))

        [new_ref] = self.workflow.secrets()
        self.assertEqual(({'db_password': 'swordfish'}, None), self.workflow.secrets()[new_ref])
        self.assertNotEqual(old_ref, new_ref)
        [(_name, started, _pattern, _workflow)] = self.workflow.triggers_made()
        self.assertEqual(new_ref, started['secret_ref'])
        self.assertEqual([old_ref], self.workflow.secrets_forgotten())

        # Refused: the old trigger stays, with the old secrets, and the new ones go.
        self.workflow.writes.reset_mock()
        self.workflow.mistral.cron_triggers.create.side_effect = ConnectionError('refused')
        self.client.post(change_url(), mysql_form(repeat='0 2 * * *',
                                                  input__db_password='swordfish'))
        self.workflow.mistral.cron_triggers.delete.assert_not_called()
        [refused_ref] = [call.args[1] for call in self.workflow.swift.put_object.call_args_list]
        self.assertEqual([refused_ref], self.workflow.secrets_forgotten())
        self.assertEqual([new_ref], list(self.workflow.secrets()))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_needs_a_pattern_or_a_time(self):
        self.serve()
        self.workflow.keep(record())

        res = self.client.post(change_url(), mysql_form())

        self.assertIn('repeat', res.context['form'].errors)
        self.assertEqual([], self.workflow.written())

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_another_projects_schedule_is_not_found(self):
        self.serve()
        # Mistral shows an admin every project's.
        self.workflow.keep(record(project='2'))

        for send in (self.client.get, lambda url: self.client.post(url, mysql_form(
                repeat='30 4 * * 1'))):
            self.assertEqual(404, send(change_url()).status_code)
        self.assertEqual([], self.workflow.written())

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_mistral_environment_of_the_project_that_is_no_schedule_is_left_alone(self):
        # The project's own, made in Mistral by other means, holding what a record holds;
        # a cron trigger may be named as it is.
        other = 'nightly-settings'
        self.serve()
        self.mock_schedule_records.return_value = []
        self.mock_cron_triggers_list.return_value = []
        self.mock_rolling_runs_list.return_value = []
        self.workflow.keep(record(other))

        # The panel's read of a schedule, as the command line's
        # (runner.scheduling.schedules.record_get).
        with self.assertRaises(LookupError):
            api.mistral.schedule_record_get(mock.Mock(**{'user.project_id': '1'}), other)
        # Change's address takes a schedule's name only; the table's actions, its rows'.
        self.assertEqual(404, self.client.get(f'{INDEX_URL}{other}/change/').status_code)
        for action in ('pause', 'resume', 'delete'):
            self.client.post(INDEX_URL, {'action': f'schedules__{action}__{other}'})
        self.assertEqual([], self.workflow.written())

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_whose_component_is_gone_says_so(self):
        self.serve()
        self.workflow.keep(record(component_id='00000000-0000-4000-8000-000000000000'))

        res = self.client.get(change_url())

        self.assertRedirectsNoFollow(res, INDEX_URL)
        self.assertIn("The schedule's component is gone",
                      str(list(get_messages(res.wsgi_request))[0]))


class MistralPagesTests(helpers.TestCase):

    def test_schedules_past_mistrals_page_are_read_page_by_page(self):
        rows = [mock.Mock(project_id='1') for i in range(runner_schedules.PAGE + 1)]
        for i, row in enumerate(rows):
            row.name = f'hdd-{i}'

        rows.sort(key=lambda row: row.name)

        def pages(limit, sort_keys, sort_dirs, name):
            after = name[len('gt:'):]
            return [row for row in rows if row.name > after][:limit]
        client = mock.Mock()
        client.environments.list.side_effect = pages
        client.cron_triggers.list.side_effect = pages

        request = mock.Mock(**{'user.project_id': '1'})
        with mock.patch.object(api.mistral, 'mistralclient', return_value=client):
            self.assertEqual(rows, api.mistral.schedule_records(request))
            self.assertEqual(rows, api.mistral.cron_triggers_list(request))
        self.assertEqual(2, client.environments.list.call_count)
