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

"""Inputs, outputs, options and definition files, checked as Heat checks them."""

import pytest

from heat_deploy_runner.configs import definition
from heat_deploy_runner import InputError


def test_yaml_and_json_both_load_and_dates_stay_text():
    assert definition.load('- name: a\n  default: 2024-01-31\n') == [
        {'name': 'a', 'default': '2024-01-31'}]
    assert definition.load('[{"name": "a"}]') == [{'name': 'a'}]
    assert definition.load('  \n') is None


def test_broken_yaml_says_where():
    with pytest.raises(InputError, match=r'not valid YAML or JSON \(line 2, column 5\)'):
        definition.load('a: 1\nb: c: d\n')


def test_inputs_of_every_type_with_fitting_defaults_pass_unchanged():
    inputs = [{'name': 'n', 'type': 'Number', 'default': '7'},
              {'name': 'b', 'type': 'Boolean', 'default': True, 'replace_on_change': True},
              {'name': 'j', 'type': 'Json', 'default': {'a': 1}},
              {'name': 'l', 'type': 'CommaDelimitedList', 'default': 'a,b'},
              {'name': 's', 'description': 'no type means String'},
              # Heat lets an empty default through for any type.
              {'name': 'e', 'type': 'Number', 'default': ''}]

    assert definition.check_inputs(inputs) == inputs
    assert definition.check_inputs(None) == []


@pytest.mark.parametrize('inputs, message', [
    ({'name': 'a'}, 'Write a list'),
    (['a'], 'Entry 1 is not a mapping'),
    ([{'type': 'String'}], 'Entry 1 needs a name.'),
    ([{'name': 'a'}, {'name': 'a'}], 'The name a is used twice.'),
    ([{'name': 'a', 'typ': 'String'}], 'a: unknown keys typ.'),
    ([{'name': 'a', 'type': 'Integer'}], 'a: the type must be one of'),
    ([{'name': 'a', 'default': 'x', 'type': 'Number'}], 'The input a must be a number'),
    ([{'name': 'a', 'replace_on_change': 'yes'}], 'a: replace_on_change must be true'),
    ([{'name': 'a', 'description': ['x']}], 'a: description must be text.'),
])
def test_wrong_inputs_are_named(inputs, message):
    with pytest.raises(InputError, match=message):
        definition.check_inputs(inputs)


@pytest.mark.parametrize('name, character', [
    ('a\x00b', 'U+0000'), ('a\tb', 'U+0009'), ('line\n', 'U+000A'), ('a\rb', 'U+000D'),
    ('a\x1bb', 'U+001B'), ('a\x7fb', 'U+007F'), ('a\x85b', 'U+0085'),
])
def test_a_name_with_a_control_character_is_refused_without_showing_it(name, character):
    for check in (definition.check_inputs, definition.check_outputs):
        with pytest.raises(InputError) as raised:
            check([{'name': 'fine'}, {'name': name}])

        assert str(raised.value).startswith(
            f'Entry 2: its name holds a control character ({character}).')
        assert name not in str(raised.value)


def test_a_control_character_written_as_a_yaml_escape_is_refused_too():
    loaded = definition.load('- name: "a\\u0000b"\n')
    assert loaded == [{'name': 'a\x00b'}]
    with pytest.raises(InputError, match=r'control character \(U\+0000\)'):
        definition.check_inputs(loaded)
    with pytest.raises(InputError, match=r'Entry 1: its name holds a control character'):
        definition.check_definition(definition.load('outputs:\n- name: "out\\n"\n'))


def test_an_empty_name_is_refused():
    for name in ('', '  ', None, 7):
        with pytest.raises(InputError, match='Entry 1 needs a name.'):
            definition.check_outputs([{'name': name}])


def test_an_input_name_cannot_hold_an_equals_sign_which_no_environment_variable_can():
    with pytest.raises(InputError, match='a=b: an input\'s name cannot hold "="'):
        definition.check_inputs([{'name': 'a=b'}])
    # An output is a file name to the script hooks, where "=" is fine.
    assert definition.check_outputs([{'name': 'a=b'}]) == [{'name': 'a=b'}]


def test_names_in_common_use_are_not_refused():
    names = ['greeting', 'deploy_server_id', 'Camel', 'with-dash', 'dotted.name', 'x1',
             '1st', 'with space', 'Grüße', '名前', '_private']
    inputs = [{'name': name} for name in names]
    assert definition.check_inputs(inputs) == inputs
    assert definition.check_outputs(inputs) == inputs


def test_outputs_take_their_own_keys():
    outputs = [{'name': 'result', 'error_output': True, 'type': 'String'}]
    assert definition.check_outputs(outputs) == outputs
    with pytest.raises(InputError, match='unknown keys default'):
        definition.check_outputs([{'name': 'r', 'default': 1}])
    with pytest.raises(InputError, match='error_output must be true or false'):
        definition.check_outputs([{'name': 'r', 'error_output': 'maybe'}])


def test_a_definition_gives_the_parts_it_has_each_checked():
    assert definition.check_definition({'config': 'echo', 'options': None}) == {
        'config': 'echo', 'options': {}}
    with pytest.raises(InputError, match='Unknown keys in the definition: group.'):
        definition.check_definition({'group': 'script'})
    with pytest.raises(InputError, match='A definition is a mapping'):
        definition.check_definition(['inputs'])
    with pytest.raises(InputError, match='The name x is used twice'):
        definition.check_definition({'inputs': [{'name': 'x'}, {'name': 'x'}]})


def test_a_body_is_text_or_data_and_a_components_has_configs():
    assert definition.check_body('#!/bin/sh\necho hi', 'script') == '#!/bin/sh\necho hi'
    assert definition.check_body('echo hi', 'Heat::Ungrouped') == 'echo hi'
    assert definition.check_body(None, 'script') == ''
    assert definition.check_body({'configs': []}, 'component') == {'configs': []}
    with pytest.raises(InputError, match='A component config is a mapping'):
        definition.check_body('echo hi', 'component')
    with pytest.raises(InputError, match='must be a mapping'):
        definition.check_body(['a'], 'script')


@pytest.mark.parametrize('script', ['echo hi', '\n#!/bin/sh\necho hi', ' #!/bin/sh'])
def test_a_script_without_a_shebang_first_is_refused(script):
    # heat-agents' hook-script executes the file: the kernel wants #! in its first bytes.
    with pytest.raises(InputError, match='begin it with a #! line'):
        definition.check_body(script, 'script')
    component = {'configs': [{'actions': ['CREATE'], 'tool': 'script', 'config': '#!/bin/sh'},
                             {'actions': ['BACKUP', 'RESTORE'], 'tool': 'script',
                              'config': script}]}
    with pytest.raises(InputError, match='The script for BACKUP, RESTORE'):
        definition.check_body(component, 'component')


def test_other_tools_bodies_are_theirs_to_judge():
    component = {'configs': [{'actions': ['CREATE'], 'tool': 'ansible',
                              'config': '- hosts: localhost'}]}
    assert definition.check_body(component, 'component') == component
    assert definition.check_body('- hosts: localhost', 'ansible') == '- hosts: localhost'


def test_dump_keeps_the_authors_key_order_and_nothing_for_empty():
    assert definition.dump([{'name': 'a', 'type': 'Number'}]) == '- name: a\n  type: Number\n'
    assert definition.dump({}) == ''
    assert definition.dump(None) == ''
