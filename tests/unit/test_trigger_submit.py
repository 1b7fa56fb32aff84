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

"""Submitting the "Run an Action" form: what is run, and what the user is
told."""

import copy
import dataclasses
from unittest import mock

from django.contrib.messages import get_messages
from django.urls import reverse
from heatclient import exc as heat_exc

from heat_deploy_dashboard.content import directory
import heat_deploy_runner as runner
from heat_deploy_runner.running.starting import DEPLOYMENT_FAILED
from heat_deploy_runner.running.starting import SIGNAL_FAILED
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import TRIGGER_MOCKS
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers

DEPLOYMENTS_URL = reverse('horizon:project:deployments:index')


OPERATION = runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'test_user',
                             '2026-11-23T08:00:00Z')
# Where a submit that started runs leads: their operation's page.
OPERATION_URL = reverse('horizon:project:deployments:operation', args=[OPERATION.id])


def started(*servers):
    return runner.Started(created=data.triggered(
        [dict(data.DEPLOYMENTS[3], server_id=server) for server in servers]),
        operation=OPERATION)


class TriggerSubmitTests(ComponentsTestCase):

    def post(self, url, posted):
        # Not as ajax: Horizon would turn the redirect and the messages
        # into headers for its JavaScript.
        return self.client.post(url, posted)

    def post_modal(self, url, posted):
        """Post where the form comes back: as ajax, the modal alone."""
        return self.client.post(url, posted,
                                HTTP_X_REQUESTED_WITH='XMLHttpRequest')

    def _messages(self, res):
        return [(m.level_tag, str(m)) for m in get_messages(res.wsgi_request)]

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_runs_the_action_with_the_coerced_values(self):
        self.serve()
        self.mock_start_runs.return_value = started(data.DB_1, data.DB_2)

        res = self.post(trigger_url(data.MYSQL_ID), mysql_form(
            input__retention_days='14', input__compress=None,
            input__tables='users, posts, comments',
            input__labels='{"schedule": "nightly"}', timeout='30'))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.mock_start_runs.assert_called_once_with(
            helpers.IsHttpRequest(), runner.RunRequest(
                data.MYSQL_ID, 'BACKUP', (data.DB_1, data.DB_2),
                {'backup_dir': 'backups', 'retention_days': 14,
                 'compress': False, 'tables': ['users', 'posts', 'comments'],
                 'labels': {'schedule': 'nightly'}, 'backup_file': ''},
                'TEMP_URL_SIGNAL', 30, 'mysql'),
            mock.ANY, mock.ANY, mock.ANY)
        self.assertEqual([('success', 'Started BACKUP on 2 servers.')],
                         self._messages(res))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_deployments_page_names_the_new_runs_without_reading_their_configs(self):
        self.serve()
        # A config no page has read yet.
        [deployment] = data.triggered([dict(data.DEPLOYMENTS[3], server_id=data.DB_1,
                                            config_id='a-new-derived-config')])
        self.mock_start_runs.return_value = runner.Started(
            created=[deployment], operation=OPERATION)
        self.post(trigger_url(data.MYSQL_ID), mysql_form(servers=[data.DB_1]))
        self.mock_config_get.reset_mock()
        self.mock_deployments_list.return_value = [deployment]

        page = self.client.get(DEPLOYMENTS_URL)

        self.assertContains(page, 'mysql-BACKUP')
        self.mock_config_get.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_one_server_is_one_server(self):
        self.serve()
        self.mock_start_runs.return_value = started(data.DB_2)

        res = self.post(trigger_url(data.MYSQL_ID),
                        mysql_form(servers=[data.DB_2]))

        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.assertEqual((data.DB_2,),
                         self.mock_start_runs.call_args.args[1].server_ids)
        self.assertEqual([('success', 'Started BACKUP on 1 server.')],
                         self._messages(res))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_servers_still_running_can_be_left_out_and_are_named(self):
        self.serve()
        self.mock_start_runs.return_value = dataclasses.replace(
            started(data.DB_2), busy=[data.DB_1])

        res = self.post(trigger_url(data.MYSQL_ID), mysql_form(leave_out_busy='on'))

        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.assertTrue(self.mock_start_runs.call_args.args[1].leave_out_busy)
        self.assertEqual([('success', 'Started BACKUP on 1 server.'),
                          ('info', 'Left out, still running an earlier run: %s.'
                           % data.DB_1)], self._messages(res))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_unticked_busy_servers_are_run_too(self):
        self.serve()
        self.mock_start_runs.return_value = started(data.DB_1)

        self.post(trigger_url(data.MYSQL_ID), mysql_form(servers=[data.DB_1]))

        self.assertFalse(self.mock_start_runs.call_args.args[1].leave_out_busy)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_wrong_values_are_field_errors_and_nothing_is_run(self):
        self.serve()
        wrong = {
            'input__retention_days': ('seven', 'must be a number'),
            'input__labels': ('{"schedule": ', 'must be a JSON object'),
            'input__compress': ('maybe', 'must be true or false'),
        }
        for field, (value, error) in wrong.items():
            with self.subTest(field):
                res = self.post_modal(trigger_url(data.MYSQL_ID),
                                      mysql_form(**{field: value}))

                self.assertEqual(200, res.status_code)
                errors = res.context['form'].errors
                self.assertEqual([field], list(errors))
                self.assertIn(error, errors[field][0])
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_every_wrong_input_gets_its_own_error(self):
        self.serve()

        res = self.post_modal(trigger_url(data.MYSQL_ID), mysql_form(
            input__retention_days='x', input__labels='"text"'))

        self.assertEqual({'input__retention_days', 'input__labels'},
                         set(res.context['form'].errors))
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_an_input_without_default_is_required(self):
        self.serve()

        res = self.post_modal(trigger_url(data.WORDPRESS_ID), {
            'action': 'ROTATE_KEYS', 'servers': [data.WEB],
            'transport': 'NO_SIGNAL', 'timeout': '60',
            'input__db_dsn': '', 'input__cache_size_mb': '64'})

        self.assertTrue(res.context['form'].fields['input__db_dsn'].required)
        self.assertFormErrors(res, 1)
        self.assertIn('input__db_dsn', res.context['form'].errors)
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_blank_number_with_a_default_uses_the_default(self):
        self.serve()
        self.mock_start_runs.return_value = started(data.WEB)

        self.post(trigger_url(data.WORDPRESS_ID), {
            'action': 'FLUSH_CACHE', 'servers': [data.WEB],
            'transport': 'NO_SIGNAL', 'timeout': '60',
            'input__db_dsn': 'mysql://db/demo', 'input__cache_size_mb': ''})

        self.assertEqual({'db_dsn': 'mysql://db/demo'},
                         self.mock_start_runs.call_args.args[1].input_values)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_lifecycle_action_needs_a_confirmation(self):
        self.serve()
        self.mock_start_runs.return_value = started(data.DB_1)

        unconfirmed = self.post_modal(trigger_url(data.MYSQL_ID),
                                      mysql_form(action='CREATE'))
        self.mock_start_runs.assert_not_called()
        confirmed = self.post(trigger_url(data.MYSQL_ID), mysql_form(
            action='CREATE', confirm_lifecycle='on'))

        self.assertEqual(['confirm_lifecycle'],
                         list(unconfirmed.context['form'].errors))
        self.assertContains(unconfirmed, 'CREATE is a lifecycle action')
        self.assertRedirectsNoFollow(confirmed, OPERATION_URL)
        self.assertEqual('CREATE', self.mock_start_runs.call_args.args[1].action)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_only_the_components_servers_can_be_chosen(self):
        self.serve()

        res = self.post_modal(trigger_url(data.MYSQL_ID),
                              mysql_form(servers=[data.WEB]))

        self.assertIn('servers', res.context['form'].errors)
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_submit_is_checked_against_the_form_it_came_from(self):
        self.serve()
        self.mock_start_runs.return_value = started(data.DB_1)
        self.get_ajax(trigger_url(data.MYSQL_ID))
        shown = (self.heat_list_calls(), self.mock_stack_template.call_count)

        refused = self.post_modal(trigger_url(data.MYSQL_ID), mysql_form(servers=[data.WEB]))
        ran = self.post(trigger_url(data.MYSQL_ID), mysql_form(servers=[data.DB_1]))

        self.assertIn('servers', refused.context['form'].errors)
        self.assertRedirectsNoFollow(ran, OPERATION_URL)
        self.mock_start_runs.assert_called_once()
        # Neither submit listed the project's configs, deployments and stacks again, nor
        # read the stack's template.
        self.assertEqual(((1, 1, 1), 1), shown)
        self.assertEqual(shown, (self.heat_list_calls(), self.mock_stack_template.call_count))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_what_is_kept_for_the_submit_is_one_run_a_server(self):
        self.serve()
        shown = self.get_ajax(trigger_url(data.MYSQL_ID))

        kept = directory.component_as_shown(shown.wsgi_request, data.MYSQL_ID)

        # The whole component has three runs on its two servers; thousands of runs would
        # not fit in one memcached item.
        self.assertEqual(3, len(shown.context['component'].deployments))
        self.assertEqual([data.DB_1, data.DB_2], kept.server_ids)
        self.assertEqual(2, len(kept.deployments))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_form_shown_in_another_project_is_not_used(self):
        self.serve()
        self.get_ajax(trigger_url(data.MYSQL_ID))
        other_project = mock.Mock()
        other_project.user.project_id = 'another-project'

        with mock.patch.object(directory, 'component_for_form') as built_again:
            found = directory.component_as_shown(other_project, data.MYSQL_ID)

        self.assertIs(built_again.return_value, found)
        built_again.assert_called_once_with(other_project, data.MYSQL_ID)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_inputs_named_like_the_forms_fields_do_not_collide(self):
        clashing = copy.deepcopy(data.REPORT)
        clashing['inputs'] = [{'name': name, 'type': 'String',
                               'default': 'input ' + name}
                              for name in ('action', 'servers', 'timeout')]
        deployment = dict(data.DEPLOYMENTS[0], config_id=data.REPORT_ID,
                          server_id=data.WEB)
        self.serve(configs=[clashing], deployments=[deployment])
        self.mock_start_runs.return_value = started(data.WEB)

        res = self.post(trigger_url(data.REPORT_ID), {
            'action': 'REPORT', 'servers': [data.WEB],
            'transport': 'NO_SIGNAL', 'timeout': '5',
            'input__action': 'a', 'input__servers': 's',
            'input__timeout': 't'})

        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.assertEqual(runner.RunRequest(
            data.REPORT_ID, 'REPORT', (data.WEB,), {'action': 'a', 'servers': 's', 'timeout': 't'},
            'NO_SIGNAL', 5, 'nightly-report'), self.mock_start_runs.call_args.args[1])

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_each_failed_server_gets_one_sentence(self):
        self.serve()
        failure = runner.Message(DEPLOYMENT_FAILED,
                                 {'action': 'BACKUP', 'server': data.DB_2})
        result = started(data.DB_1)
        result.failures.append((data.DB_2, failure))
        self.mock_start_runs.return_value = result

        res = self.post(trigger_url(data.MYSQL_ID), mysql_form())

        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.assertEqual(
            [('success', 'Started BACKUP on 1 server.'),
             ('error', f'Could not start BACKUP on server {data.DB_2}: its '
                       'deployment could not be created.')],
            self._messages(res))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_when_every_server_failed_the_form_stays_with_the_reasons(self):
        self.serve()
        self.mock_start_runs.return_value = runner.Started(
            failures=[(server, runner.Message(
                SIGNAL_FAILED,
                {'action': 'BACKUP', 'server': server}))
                for server in (data.DB_1, data.DB_2)])

        res = self.post(trigger_url(data.MYSQL_ID), mysql_form())

        self.assertEqual(200, res.status_code)
        errors = res.context['form'].non_field_errors()
        self.assertEqual(2, len(errors))
        self.assertIn(f'on server {data.DB_1}: the place for its result',
                      errors[0])
        self.assertEqual([], self._messages(res))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_heat_down_on_submit_is_a_sentence_not_a_500(self):
        self.serve()
        self.mock_start_runs.side_effect = heat_exc.CommunicationError(
            message='Error communicating with http://heat.example.com '
                    '[Errno 111] Connection refused')

        res = self.post(trigger_url(data.MYSQL_ID), mysql_form())

        self.assertEqual(200, res.status_code)
        self.assertEqual(
            [('error', 'Unable to start BACKUP: the orchestration service '
                       'could not be reached or answered with an error. '
                       'Nothing was started. Try again later, or ask your '
                       'cloud administrator to check Heat.')],
            self._messages(res))
        self.assertNotContains(res, 'Connection refused')

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_value_the_deploy_package_refuses_is_a_form_error(self):
        self.serve()
        self.mock_start_runs.side_effect = runner.InputError(
            runner.Message('The timeout must be a whole number of minutes '
                           'greater than zero.'))

        res = self.post_modal(trigger_url(data.MYSQL_ID), mysql_form())

        self.assertEqual(200, res.status_code)
        self.assertIn('The timeout must be a whole number',
                      res.context['form'].non_field_errors()[0])


class TemplateDefaultsTests(ComponentsTestCase):

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_without_the_stacks_template_an_empty_default_is_not_required(self):
        self.serve()
        self.mock_stack_template.side_effect = Exception('stack gone')

        res = self.get_ajax(trigger_url(data.WORDPRESS_ID))

        self.assertFalse(res.context['form'].fields['input__db_dsn'].required)
        # The form's inputs and the stack's wiring both asked for it, each in vain.
        self.mock_stack_template.assert_called_with(helpers.IsHttpRequest(),
                                                    f'demo/{data.STACK_ID}')
