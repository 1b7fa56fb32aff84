"""Change Schedule (Run Action's form filled in from a schedule's record, a new trigger made
before the old one goes, its secrets kept apart until the new trigger stands, a firing of the
old trigger left to finish), and Mistral's lists read past its 1,000-row page."""

from unittest import mock

from django.contrib.messages import get_messages
from django.urls import reverse

from heat_deploy_dashboard import api
from heat_deploy_runner import schedules as runner_schedules
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit.test_schedules import INDEX_URL
from tests.unit.test_schedules import NAME
from tests.unit.test_schedules import record
from tests.unit.test_schedules import SCHEDULE_MOCKS


def change_url(name=NAME):
    return reverse('horizon:project:schedules:change', args=[name])


class ChangeScheduleTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_the_form_opens_with_what_the_schedule_runs_and_when(self):
        self.serve()
        self.mock_schedule_record_get.return_value = record(
            input_values={'backup_dir': 'nightly', 'retention_days': 14}, batch_size=1,
            retries=2, retry_delay=30)

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
        self.mock_firing.return_value = False
        self.mock_schedule_record_get.return_value = record(owner='someone')
        calls = mock.Mock()
        for name in ('cron_trigger_delete', 'cron_trigger_create', 'schedule_record_save'):
            calls.attach_mock(getattr(self, 'mock_' + name), name)

        res = self.client.post(change_url(), mysql_form(repeat='30 4 * * 1',
                                                        servers=[data.DB_2]))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, INDEX_URL)
        self.assertEqual(['cron_trigger_create', 'schedule_record_save', 'cron_trigger_delete'],
                         [call[0] for call in calls.mock_calls])
        args, kwargs = self.mock_cron_trigger_create.call_args
        saved = self.mock_schedule_record_save.call_args.args[2]
        self.assertEqual((saved['trigger'], '30 4 * * 1', [data.DB_2], 'test_user',
                          saved['trigger']),
                         (args[1], kwargs['pattern'], args[2]['server_ids'],
                          args[2]['started_by'], args[2]['trigger']))
        self.assertTrue(saved['trigger'].startswith(NAME + '.'))
        self.mock_cron_trigger_delete.assert_called_once_with(helpers.IsHttpRequest(), NAME)
        self.assertEqual(('30 4 * * 1', 'test_user', False),
                         (saved['pattern'], saved['owner'], saved['paused']))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_while_the_schedule_fires_leaves_that_firing_its_trigger_and_secrets(self):
        self.serve_a_secret_input()
        self.mock_firing.return_value = True
        self.mock_schedule_record_get.return_value = record(
            secret_names=['db_password'], secret_ref=NAME + '/old')

        res = self.client.post(change_url(), mysql_form(repeat='0 2 * * *',
                                                        input__db_password='swordfish'))

        self.mock_firing.assert_called_once_with(helpers.IsHttpRequest(), NAME)
        # Its release deletes them when it ends (the rolling workflow's release).
        self.mock_cron_trigger_delete.assert_not_called()
        self.mock_secrets_forget.assert_not_called()
        self.assertIn('The firing now running goes on as it was; the next firing runs the '
                      'change.', [str(m) for m in get_messages(res.wsgi_request)])

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_paused_schedule_changes_and_stays_paused(self):
        self.serve()
        self.mock_schedule_record_get.return_value = record(paused=True, owner='someone')

        self.client.post(change_url(), mysql_form(repeat='30 4 * * 1'))

        self.mock_cron_trigger_create.assert_not_called()
        self.mock_cron_trigger_delete.assert_not_called()
        saved = self.mock_schedule_record_save.call_args.args[2]
        self.assertEqual(('30 4 * * 1', 'someone', True),
                         (saved['pattern'], saved['owner'], saved['paused']))

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_mistral_refused_leaves_the_old_trigger_as_it_was(self):
        self.serve()
        self.mock_schedule_record_get.return_value = record()
        self.mock_cron_trigger_create.side_effect = ConnectionError('refused')

        res = self.client.post(change_url(), mysql_form(repeat='30 4 * * 1'))

        self.mock_cron_trigger_delete.assert_not_called()
        self.mock_schedule_record_save.assert_not_called()
        [message] = [str(m) for m in get_messages(res.wsgi_request)]
        self.assertIn('It keeps what it ran and when.', message)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_keeps_new_secrets_apart_and_forgets_the_old_once_it_stands(self):
        self.serve_a_secret_input()
        old_ref = NAME + '/old'
        self.mock_schedule_record_get.return_value = record(
            input_values={'backup_dir': 'nightly'}, secret_names=['db_password'],
            secret_ref=old_ref)
        self.mock_secrets_get.return_value = {'db_password': 'hunter2'}
        self.mock_firing.return_value = False

        res = self.client.get(change_url())
        self.assertEqual('hunter2', res.context['form']['input__db_password'].value())
        # Kept in the field to be sent back, not shown on the screen.
        self.assertContains(res, 'type="password" name="input__db_password"')

        self.client.post(change_url(), mysql_form(repeat='0 2 * * *',
                                                  input__db_password='swordfish'))

        new_ref = self.mock_secrets_put.call_args.args[1]
        self.assertNotEqual(old_ref, new_ref)
        self.assertEqual(new_ref, self.mock_cron_trigger_create.call_args.args[2]['secret_ref'])
        self.mock_secrets_forget.assert_called_once_with(helpers.IsHttpRequest(), old_ref)

        # Refused: the old trigger stays, with the old secrets, and the new ones go.
        self.mock_secrets_forget.reset_mock()
        self.mock_cron_trigger_delete.reset_mock()
        self.mock_cron_trigger_create.side_effect = ConnectionError('refused')
        self.client.post(change_url(), mysql_form(repeat='0 2 * * *',
                                                  input__db_password='swordfish'))
        self.mock_cron_trigger_delete.assert_not_called()
        self.mock_secrets_forget.assert_called_once_with(
            helpers.IsHttpRequest(), self.mock_secrets_put.call_args.args[1])

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_needs_a_pattern_or_a_time(self):
        self.serve()
        self.mock_schedule_record_get.return_value = record()

        res = self.client.post(change_url(), mysql_form())

        self.assertIn('repeat', res.context['form'].errors)
        self.mock_cron_trigger_delete.assert_not_called()

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_another_projects_schedule_is_not_found(self):
        self.serve()
        self.mock_schedule_record_get.side_effect = api.mistral.mistral_base.APIException(
            404, 'not found')

        for send in (self.client.get, lambda url: self.client.post(url, mysql_form(
                repeat='30 4 * * 1'))):
            self.assertEqual(404, send(change_url()).status_code)
        self.mock_cron_trigger_delete.assert_not_called()
        self.mock_schedule_record_save.assert_not_called()

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_whose_component_is_gone_says_so(self):
        self.serve()
        self.mock_schedule_record_get.return_value = record(
            component_id='00000000-0000-4000-8000-000000000000')

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
