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

"""Software Configs: creating a config from typed fields or a definition file, and
"editing" one, which is copying it into a new one."""

import html

from django.core.files.uploadedfile import SimpleUploadedFile
from heatclient import exc as heat_exc

from tests.unit import components_data as demo
from tests.unit import configs_case as case
from tests.unit import helpers

NEW_ID = '0000000e-0000-4000-8000-000000000000'
BODY = '#!/bin/sh\necho "$greeting"\n'
INPUTS = '- name: greeting\n  type: String\n  default: hello\n- name: count\n  type: Number\n'


def _form(**changes):
    posted = {'name': 'hello', 'group': 'script', 'body_format': 'text', 'config': BODY,
              'inputs': INPUTS, 'outputs': '- name: result\n', 'options': ''}
    posted.update(changes)
    return posted


def _post_modal(client, url, posted):
    """Post where the form comes back: as ajax, the modal alone."""
    return client.post(url, posted, HTTP_X_REQUESTED_WITH='XMLHttpRequest')


def _definition(text):
    return SimpleUploadedFile('definition.yaml', text.encode(), 'application/yaml')


class CreateConfigTests(case.ConfigsTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_form_offers_the_usual_groups_and_shows_the_command(self):
        res = self.get_ajax(case.CREATE_URL)

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'project/configs/_create.html')
        for group in ('script', 'component', 'ansible', 'puppet', 'Heat::Ungrouped'):
            self.assertContains(res, f'<option value="{group}">')
        self.assertContains(res, 'enctype="multipart/form-data"')
        self.assertContains(res, '<code>openstack software config create --group script '
                                 'NAME</code>')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_creates_the_config_from_the_fields_and_opens_its_page(self):
        self.mock_config_create.return_value = case.resource(case.HELLO)

        res = self.client.post(case.CREATE_URL, _form(options='timeout: 30'))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, case.url('detail'))
        self.mock_config_create.assert_called_once_with(
            helpers.IsHttpRequest(), name='hello', group='script', config=BODY,
            inputs=[{'name': 'greeting', 'type': 'String', 'default': 'hello'},
                    {'name': 'count', 'type': 'Number'}],
            outputs=[{'name': 'result'}], options={'timeout': 30})

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_one_definition_file_can_give_the_whole_config(self):
        self.mock_config_create.return_value = case.resource(case.HELLO)
        definition = ('config: |\n  #!/bin/sh\n  echo hi\ninputs:\n  - name: who\n'
                      'outputs:\n  - name: said\n    error_output: false\n'
                      'options: {x: 1}\n')

        self.client.post(case.CREATE_URL, _form(
            config='', inputs='', outputs='', definition_file=_definition(definition)))

        self.mock_config_create.assert_called_once_with(
            helpers.IsHttpRequest(), name='hello', group='script',
            config='#!/bin/sh\necho hi\n', inputs=[{'name': 'who'}],
            outputs=[{'name': 'said', 'error_output': False}], options={'x': 1})

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_component_config_is_data_with_a_list_of_configs(self):
        self.mock_config_create.return_value = case.resource(demo.REPORT)
        body = ('{"configs": [{"actions": ["REPORT"], "tool": "script", '
                '"config": "#!/bin/sh\\ndate"}]}')

        text = _post_modal(self.client, case.CREATE_URL, _form(group='component', config=body))
        data = self.client.post(case.CREATE_URL, _form(group='component', config=body,
                                                       body_format='data'))

        self.assertFormErrors(text, 1)
        self.assertContains(text, 'A component config is a mapping with a')
        self.assertNoFormErrors(data)
        self.assertEqual({'configs': [{'actions': ['REPORT'], 'tool': 'script',
                                       'config': '#!/bin/sh\ndate'}]},
                         self.mock_config_create.call_args.kwargs['config'])

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_each_mistake_is_named_on_its_field_and_nothing_is_created(self):
        mistakes = {
            'inputs': ('- name: a\n  type: [unclosed',
                       'not valid YAML or JSON (line 3, column 1)'),
            'outputs': ('- name: a\n- name: a\n', 'The name a is used twice.'),
            'options': ('- a list', 'Write the options as a mapping'),
            'config': (BODY, 'Give the config once'),
        }
        bad_inputs = {
            'type': ('- name: n\n  type: Integer\n', 'n: the type must be one of'),
            'default': ('- name: n\n  type: Number\n  default: seven\n',
                        'The input n must be a number, not &quot;seven&quot;.'),
            'key': ('- name: n\n  defualt: 1\n', 'n: unknown keys defualt.'),
        }
        cases = {field: (_form(**{field: text}), error)
                 for field, (text, error) in mistakes.items()}
        cases['config'] = (_form(config_file=SimpleUploadedFile('c.sh', b'x')),
                           mistakes['config'][1])
        cases.update({f'input {what}': (_form(inputs=text), error)
                      for what, (text, error) in bad_inputs.items()})
        for what, (posted, error) in cases.items():
            with self.subTest(what):
                res = _post_modal(self.client, case.CREATE_URL, posted)

                self.assertFormErrors(res, 1)
                self.assertContains(res, error)
        self.mock_config_create.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_name_no_hook_can_run_is_refused_on_its_field_and_nothing_is_created(self):
        control = ('Entry 1: its name holds a control character (%s). No hook can run a '
                   'config with it')
        cases = {
            'NUL as a YAML escape': ('inputs', _form(inputs='- name: "a\\u0000b"\n'),
                                     control % 'U+0000'),
            'a tab in an output': ('outputs', _form(outputs='- name: "out\\tput"\n'),
                                   control % 'U+0009'),
            'a line break in a JSON input': ('inputs', _form(inputs='[{"name": "a\\nb"}]'),
                                             control % 'U+000A'),
            'in the definition file': ('definition_file', _form(
                inputs='', outputs='',
                definition_file=_definition('inputs:\n- name: "x\\u001b"\n')),
                control % 'U+001B'),
            'an equals sign': ('inputs', _form(inputs='- name: a=b\n'),
                               'a=b: an input&#x27;s name cannot hold &quot;=&quot;'),
        }
        for what, (field, posted, error) in cases.items():
            with self.subTest(what):
                res = _post_modal(self.client, case.CREATE_URL, posted)

                self.assertFormErrors(res, 1)
                self.assertIn(field, res.context['form'].errors)
                self.assertContains(res, error)
        self.mock_config_create.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_what_the_definition_file_gives_cannot_be_typed_too(self):
        res = _post_modal(self.client, case.CREATE_URL, _form(
            definition_file=_definition('inputs: [{name: a}]\n')))

        self.assertFormErrors(res, 1)
        self.assertContains(res, 'The definition file gives these too')
        self.mock_config_create.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_heat_refusing_is_a_sentence_without_its_raw_text(self):
        self.mock_config_create.side_effect = heat_exc.HTTPBadRequest(
            message='Traceback: StackValidationFailed in software_config_io')

        res = self.client.post(case.CREATE_URL, _form())

        self.assertContains(res, 'Unable to create the software config')
        self.assertNotContains(res, 'Traceback')


class CopyConfigTests(case.ConfigsTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_copy_form_is_filled_in_from_the_config_with_its_command(self):
        self.serve()

        res = self.get_ajax(case.url('copy'))

        form = res.context['form']
        self.assertEqual(('hello', 'script', 'text', case.HELLO['config']),
                         tuple(form[f].value() for f in ('name', 'group', 'body_format',
                                                         'config')))
        self.assertIn('- name: greeting\n  type: String\n  default: hello\n',
                      form['inputs'].value())
        self.assertEqual('timeout: 30\n', form['options'].value())
        command = html.unescape(res.context['command'])
        self.assertIn("cat > definition.yaml <<'EOF'\ninputs:\n  - name: greeting\n", command)
        self.assertIn("options:\n  timeout: 30\nEOF\n", command)
        self.assertTrue(command.endswith(
            'openstack software config create --group script --definition-file '
            'definition.yaml --config-file config hello'))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_copy_form_holds_the_text_as_stored_where_angularjs_compiles_nothing(self):
        # Horizon's escape would turn {$ $} into {% %}: a submitted copy would change the
        # script. The form is not compiled by AngularJS, so the text is safe as it is.
        script = '#!/bin/sh\nawk \'{$1=""; print}\' data <b>\n'
        self.serve(configs=[dict(case.HELLO, config=script)])

        res = self.get_ajax(case.url('copy'))

        page = res.content.decode()
        self.assertRegex(page, r'<form[^>]*ng-non-bindable')
        self.assertIn('awk &#x27;{$1=&quot;&quot;; print}&#x27; data &lt;b&gt;', page)
        self.assertNotIn('{%1', page)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_name_with_a_control_character_is_refused(self):
        self.serve()

        res = self.client.post(case.url('copy'), _form(name='a\x1b[31mb'))

        self.assertFormErrors(res, 1)
        self.assertContains(res, 'control character (U+001B)')
        self.mock_config_create.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_submitting_a_changed_copy_creates_a_new_config(self):
        self.serve()
        self.mock_config_create.return_value = case.resource(dict(case.HELLO, id=NEW_ID))

        res = self.client.post(case.url('copy'), _form(name='hello-2'))

        self.assertRedirectsNoFollow(res, case.url('detail', NEW_ID))
        self.assertEqual('hello-2', self.mock_config_create.call_args.kwargs['name'])
        self.mock_config_delete.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_component_is_copied_as_data_which_the_cli_cannot_send(self):
        self.serve()

        res = self.get_ajax(case.url('copy', demo.MYSQL_ID))

        self.assertEqual('data', res.context['form']['body_format'].value())
        self.assertIn('configs:\n- actions:\n  - CREATE\n',
                      res.context['form']['config'].value())
        self.assertNotIn('--config-file', res.context['command'])
        self.assertContains(res, 'a config of YAML or JSON data cannot be made with it')
