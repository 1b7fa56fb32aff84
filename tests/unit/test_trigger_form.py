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

"""The "Run an Action" form as it opens: its fields, choices and defaults."""

import copy
import re

import heat_deploy_runner as runner
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import PolicyEnforcedTestCase
from tests.unit.components_case import TRIGGER_MOCKS
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data


def _input_tag(res, name, value=None):
    """The <input> tag of the field (or of one of its choices)."""
    pattern = r'<input[^>]* name="%s"%s[^>]*>' % (
        re.escape(name), '' if value is None
        else r' value="%s"' % re.escape(value))
    return re.search(pattern, res.content.decode()).group(0)


class TriggerFormTests(ComponentsTestCase):

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_form_has_a_typed_field_per_input_with_its_default(self):
        self.serve()

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'run_action/_run_action.html')
        form = res.context['form']
        widgets = {name: type(form.fields['input__' + name].widget).__name__
                   for name in ('backup_dir', 'retention_days', 'compress',
                                'tables', 'labels', 'backup_file')}
        self.assertEqual({'backup_dir': 'TextInput',
                          'retention_days': 'NumberInput',
                          'compress': '_PostedCheckbox',
                          'tables': 'TextInput',
                          'labels': 'Textarea',
                          'backup_file': 'TextInput'}, widgets)
        self.assertEqual(
            {'backup_dir': 'backups', 'retention_days': '7',
             'compress': 'true', 'tables': 'users,posts',
             'labels': '{\n  "schedule": "manual"\n}', 'backup_file': ''},
            {name: form['input__' + name].initial
             for name in widgets})
        # Every input here has a default, the empty string included.
        self.assertFalse(any(form.fields['input__' + name].required
                             for name in widgets))
        self.assertContains(res, 'data-hdd-default="backups"')
        self.assertRegex(_input_tag(res, 'input__compress'), r' checked\b')
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_action_servers_and_inputs_lead_and_how_it_runs_is_folded(self):
        self.serve()

        opened = self.get_ajax(trigger_url(data.MYSQL_ID)).content.decode()
        changed = self.get_ajax(trigger_url(data.MYSQL_ID, '?timeout=5')).content.decode()

        names = re.findall(r'name="(action|servers|input__\w+|transport|timeout)"', opened)
        order = list(dict.fromkeys(names))
        self.assertEqual(['action', 'servers'], order[:2])
        self.assertLess(order.index('input__backup_file'), order.index('transport'))
        folded = opened[opened.index('<details class="hdd-how-it-runs"'):]
        self.assertIn('name="transport"', folded)
        self.assertIn('name="timeout"', folded)
        self.assertNotIn('name="input__', folded)
        self.assertIn('<details class="hdd-how-it-runs">', opened)
        self.assertIn('<details class="hdd-how-it-runs" open>', changed)
        # The lifecycle confirmation shows for a lifecycle action only (lifecycle_confirm.js).
        self.assertRegex(opened, r'name="confirm_lifecycle"[^>]*data-hdd-for-actions='
                                 r'"CREATE UPDATE DELETE SUSPEND RESUME"|data-hdd-for-actions='
                                 r'"CREATE UPDATE DELETE SUSPEND RESUME"[^>]*'
                                 r'name="confirm_lifecycle"')

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_custom_actions_come_first_and_all_servers_are_chosen(self):
        self.serve()

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        form = res.context['form']
        self.assertEqual(
            [('Custom actions', [('BACKUP', 'BACKUP'),
                                 ('RESTORE', 'RESTORE')]),
             ('Lifecycle actions', [('CREATE', 'CREATE')])],
            [(str(label), choices)
             for label, choices in form.fields['action'].choices])
        self.assertEqual('BACKUP', form['action'].initial)
        self.assertEqual(sorted([data.DB_1, data.DB_2]),
                         form['servers'].initial)
        self.assertEqual('TEMP_URL_SIGNAL', form['transport'].initial)
        self.assertEqual(60, form['timeout'].initial)
        self.assertEqual((1, 1, 1), self.heat_list_calls())

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_equivalent_command_is_shown(self):
        self.serve()

        res = self.get_ajax(trigger_url(
            data.MYSQL_ID, '?server=' + data.DB_2 + '&input__retention_days=30'
            '&input__backup_dir=backups'))

        self.assertEqual(
            f'openstack software component run mysql BACKUP --server {data.DB_2} '
            '--input retention_days=30', res.context['commands'])
        self.assertContains(res, 'it does not follow your changes')

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_every_server_in_the_components_order_is_shown_as_all_servers(self):
        self.serve()
        ordered = self.get_ajax(trigger_url(data.MYSQL_ID)).context['form']['servers'].initial
        query = ''.join(f'&server={each}' for each in ordered)

        every = self.get_ajax(trigger_url(data.MYSQL_ID, '?x=1' + query))
        reversed_ = self.get_ajax(trigger_url(
            data.MYSQL_ID, '?x=1' + ''.join(f'&server={each}' for each in ordered[::-1])))

        self.assertEqual('openstack software component run mysql BACKUP --all-servers',
                         every.context['commands'])
        # Batches take the servers in order: another order is said server by server.
        self.assertIn(f'--server {ordered[1]} --server {ordered[0]}',
                      reversed_.context['commands'])

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_form_has_its_own_page_too(self):
        self.serve()

        res = self.client.get(trigger_url(data.MYSQL_ID))

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'run_action/run_action.html')
        self.assertContains(res, 'name="input__backup_dir"')

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_link_may_preselect_the_action(self):
        self.serve()

        res = self.get_ajax(trigger_url(data.MYSQL_ID, '?action=RESTORE'))

        self.assertEqual('RESTORE', res.context['form']['action'].initial)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_without_object_storage_the_tempurl_choice_is_disabled(self):
        self.serve()
        self.service_catalog[:] = [s for s in self.service_catalog
                                   if s['type'] != 'object-store']

        res = self.get_ajax(trigger_url(data.MYSQL_ID))
        posted = self.client.post(trigger_url(data.MYSQL_ID), mysql_form())

        self.assertEqual('NO_SIGNAL', res.context['form']['transport'].initial)
        self.assertRegex(_input_tag(res, 'transport', 'TEMP_URL_SIGNAL'),
                         r' disabled\b')
        self.assertContains(res, 'it needs Object Storage, which is not in '
                                 'your service catalog')
        self.assertEqual(['transport'], list(posted.context['form'].errors))
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_with_object_storage_the_tempurl_choice_is_enabled(self):
        self.serve()

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        self.assertNotRegex(_input_tag(res, 'transport', 'TEMP_URL_SIGNAL'),
                            r' disabled\b')
        self.assertNotContains(res, 'it needs Object Storage')

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_without_messaging_the_zaqar_choice_is_disabled_with_the_reason(self):
        self.serve()

        res = self.get_ajax(trigger_url(data.MYSQL_ID))
        posted = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            transport='ZAQAR_SIGNED_URL_SIGNAL'))

        self.assertEqual('TEMP_URL_SIGNAL', res.context['form']['transport'].initial)
        self.assertRegex(_input_tag(res, 'transport', 'ZAQAR_SIGNED_URL_SIGNAL'),
                         r' disabled\b')
        self.assertContains(res, 'which stock heat-agents lacks): not available, it needs '
                                 'Messaging, which is not in your service catalog')
        self.assertEqual(['transport'], list(posted.context['form'].errors))
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_with_messaging_the_zaqar_choice_is_offered_and_runs(self):
        self.serve()
        test_data.with_messaging(self)
        self.mock_start_runs.return_value = runner.Started(
            created=data.triggered([data.DEPLOYMENTS[3]]),
            operation=runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'test_user',
                                       '2026-11-23T08:00:00Z'))

        res = self.get_ajax(trigger_url(data.MYSQL_ID))
        posted = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            transport='ZAQAR_SIGNED_URL_SIGNAL'))

        self.assertNoFormErrors(posted)
        self.assertEqual(
            ['TEMP_URL_SIGNAL', 'ZAQAR_SIGNED_URL_SIGNAL', 'NO_SIGNAL'],
            [name for name, _label in res.context['form'].fields['transport'].choices])
        self.assertNotRegex(_input_tag(res, 'transport', 'ZAQAR_SIGNED_URL_SIGNAL'),
                            r' disabled\b')
        self.assertNotContains(res, 'not in your service catalog')
        self.assertEqual('ZAQAR_SIGNED_URL_SIGNAL',
                         self.mock_start_runs.call_args.args[1].transport)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_with_messaging_only_the_zaqar_choice_is_the_default(self):
        self.serve()
        self.service_catalog[:] = [s for s in self.service_catalog
                                   if s['type'] != 'object-store']
        test_data.with_messaging(self)

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        self.assertEqual('ZAQAR_SIGNED_URL_SIGNAL',
                         res.context['form']['transport'].initial)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_descriptions_and_defaults_are_escaped(self):
        mysql = copy.deepcopy(data.MYSQL)
        mysql['inputs'][0].update(description='<b onmouseover="x">d</b>',
                                  default='"><script>alert(1)</script>')
        self.serve(configs=[mysql, data.DERIVED[0]])

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        self.assertNotContains(res, '<script>alert(1)</script>')
        self.assertNotContains(res, '<b onmouseover')
        # Horizon puts help text in the tooltip unescaped: ours is escaped.
        self.assertContains(
            res, 'title="&lt;b onmouseover=&quot;x&quot;&gt;d&lt;/b&gt;"')
        self.assertIn('value="&quot;&gt;&lt;script&gt;',
                      _input_tag(res, 'input__backup_dir'))


class ReaderTriggerPolicyTests(PolicyEnforcedTestCase):
    user_roles = ['reader']

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_reader_cannot_open_or_submit_the_form(self):
        for send in (self.client.get, self.client.post):
            with self.subTest(send.__name__):
                res = send(trigger_url(data.MYSQL_ID), mysql_form(),
                           HTTP_X_REQUESTED_WITH='XMLHttpRequest')

                self.assertEqual(403, res.status_code)
        self.mock_start_runs.assert_not_called()


class ServerChoosersTests(ComponentsTestCase):
    """Above the servers, their filters by name, stack and last run (server_choice.js) read
    what each checkbox says of its server."""

    def serve_servers_of_stacks(self, stack_name):
        self.serve()
        # demo-db-1 of the demo stack; demo-db-2 of a nested stack of it, named so.
        self.mock_resources_list.side_effect = lambda request, stack, resource_type=None, **kw: (
            data.resource_list([
                {'resource_name': name, 'physical_resource_id': server_id,
                 'resource_type': resource_type, 'attributes': {'name': name},
                 # heatclient reads a resource's stack_name from its link.
                 'links': [{'rel': 'stack', 'href': f'http://heat/v1/p/stacks/{held}/1'}]}
                for name, server_id, held in (('demo-db-1', data.DB_1, 'demo'),
                                              ('demo-db-2', data.DB_2, stack_name))])
            if resource_type == 'OS::Heat::DeployedServer' else data.resource_list())

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_each_server_says_its_stacks_and_how_each_action_last_went_on_it(self):
        self.serve_servers_of_stacks('demo-group-x')

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        self.assertEqual(200, res.status_code)
        db_1, db_2 = (_input_tag(res, 'servers', server) for server in (data.DB_1, data.DB_2))
        self.assertIn('data-hdd-stacks="demo"', db_1)
        self.assertIn('data-hdd-stacks="demo demo-group-x"', db_2)
        self.assertIn('data-hdd-last="{&quot;BACKUP&quot;: &quot;IN_PROGRESS&quot;, '
                      '&quot;CREATE&quot;: &quot;COMPLETE&quot;}"', db_1)
        self.assertIn('data-hdd-last="{&quot;CREATE&quot;: &quot;COMPLETE&quot;}"', db_2)
        choosers = res.content.decode()
        choosers = choosers[choosers.index('<div class="hdd-server-choosers" hidden>'):]
        self.assertIn('<option value="demo-group-x">demo-group-x</option>', choosers)
        self.assertIn('<option value="NEVER">It never ran</option>', choosers)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_stack_name_is_shown_as_text(self):
        attack = '{$ 7*7 $}<b onclick=x>"'
        self.serve_servers_of_stacks(attack)

        res = self.get_ajax(trigger_url(data.MYSQL_ID)).content.decode()

        self.assertNotIn('<b onclick', res)
        self.assertNotIn('{$', res)
        # Horizon's escape turns AngularJS's {$ $} into {% %}: in the filter's option (its
        # value and text) and in the server's stacks.
        self.assertEqual(3, res.count('{% 7*7 %}&lt;b onclick=x&gt;&quot;'))

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_one_server_needs_no_choosers(self):
        self.serve(deployments=[each for each in data.DEPLOYMENTS
                                if each['server_id'] != data.DB_2])

        res = self.get_ajax(trigger_url(data.MYSQL_ID))

        self.assertEqual(200, res.status_code)
        self.assertNotContains(res, 'hdd-server-choosers')
