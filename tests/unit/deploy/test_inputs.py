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

import pytest

from heat_deploy_runner import coerce_input_values
from heat_deploy_runner.configs.inputs import coerce_value
from heat_deploy_runner import InputError


@pytest.mark.parametrize('value, expected', [
    ('abc', 'abc'),
    ('', ''),
    ('  spaced  ', '  spaced  '),
    (5, '5'),
    (2.5, '2.5'),
])
def test_string_accepts_text_and_numbers(value, expected):
    assert coerce_value('name', 'String', value) == expected


@pytest.mark.parametrize('value', [True, {'a': 1}, ['a'], None])
def test_string_refuses_other_values(value):
    with pytest.raises(InputError, match='The input name must be text.'):
        coerce_value('name', 'String', value)


def test_missing_type_means_string():
    assert coerce_value('name', None, 7) == '7'


@pytest.mark.parametrize('value, expected', [
    ('3', 3),
    (' 7 ', 7),
    ('-2.5', -2.5),
    ('1e3', 1000.0),
    (4, 4),
    (2.5, 2.5),
])
def test_number(value, expected):
    coerced = coerce_value('port', 'Number', value)
    assert coerced == expected
    assert type(coerced) is type(expected)


@pytest.mark.parametrize('value', [
    'abc', '', '1,5', 'nan', 'inf', float('inf'), True, None, ['1']])
def test_number_refuses(value):
    with pytest.raises(InputError) as raised:
        coerce_value('port', 'Number', value)
    assert str(raised.value).startswith('The input port must be a number')


@pytest.mark.parametrize('word', [
    'true', 'TRUE', 'True', 'yes', 'YeS', 'on', 'ON', '1', 't', 'T', 'y',
    ' y '])
def test_boolean_true_spellings(word):
    assert coerce_value('flag', 'Boolean', word) is True


@pytest.mark.parametrize('word', [
    'false', 'FALSE', 'no', 'No', 'off', 'Off', '0', 'f', 'F', 'n'])
def test_boolean_false_spellings(word):
    assert coerce_value('flag', 'Boolean', word) is False


@pytest.mark.parametrize('value, expected', [
    (True, True), (False, False), (1, True), (0, False)])
def test_boolean_from_values(value, expected):
    assert coerce_value('flag', 'Boolean', value) is expected


@pytest.mark.parametrize('value', ['maybe', '', 'tru', 2, 1.0, None, []])
def test_boolean_refuses(value):
    with pytest.raises(InputError, match='must be true or false'):
        coerce_value('flag', 'Boolean', value)


@pytest.mark.parametrize('value, expected', [
    ('{"a": 1}', {'a': 1}),
    (' [1, "x"] ', [1, 'x']),
    ({'b': [2]}, {'b': [2]}),
    ([1, 2], [1, 2]),
])
def test_json(value, expected):
    assert coerce_value('data', 'Json', value) == expected


@pytest.mark.parametrize('value', ['{', '"text"', '3', '', 5, None])
def test_json_refuses_non_documents(value):
    with pytest.raises(InputError, match='must be a JSON object or list'):
        coerce_value('data', 'Json', value)


@pytest.mark.parametrize('value, expected', [
    ('a, b ,c', ['a', 'b', 'c']),
    ('single', ['single']),
    ('', []),
    ('   ', []),
    ('a,,b', ['a', '', 'b']),
    (['x', 1], ['x', '1']),
    (('t',), ['t']),
])
def test_comma_delimited_list(value, expected):
    assert coerce_value('hosts', 'CommaDelimitedList', value) == expected


@pytest.mark.parametrize('value', [5, {'a': 1}, None])
def test_comma_delimited_list_refuses(value):
    with pytest.raises(InputError, match='must be a comma-separated list'):
        coerce_value('hosts', 'CommaDelimitedList', value)


def test_input_error_is_a_value_error_with_a_translatable_message():
    with pytest.raises(ValueError) as raised:
        coerce_value('port', 'Number', 'abc')
    message = raised.value.message
    assert str(message) == 'The input port must be a number, not "abc".'
    # The template is translated before the values go in.
    assert message.render(lambda template: template.replace(
        'The input', 'Le champ')) == (
        'Le champ port must be a number, not "abc".')


def test_a_long_bad_value_is_shortened_in_the_sentence():
    with pytest.raises(InputError) as raised:
        coerce_value('port', 'Number', 'x' * 500)
    assert len(str(raised.value)) < 120


DECLARED = [
    {'name': 'port', 'type': 'Number', 'default': 3306},
    {'name': 'verbose', 'type': 'Boolean'},
    {'name': 'label'},
]


def test_overrides_follow_their_declared_types():
    overrides = {'port': '3307', 'verbose': 'yes', 'label': 'x',
                 'extra': 12}
    assert coerce_input_values(DECLARED, overrides) == {
        'port': 3307, 'verbose': True, 'label': 'x', 'extra': '12'}
    assert overrides['port'] == '3307'


def test_none_means_use_the_default():
    assert coerce_input_values(DECLARED, {'port': None, 'label': 'x'}) == {
        'label': 'x'}


def test_bad_override_names_its_input():
    with pytest.raises(InputError, match='The input verbose'):
        coerce_input_values(DECLARED, {'port': '1', 'verbose': 'perhaps'})


def test_undeclared_deploy_names_are_reserved():
    with pytest.raises(InputError, match='deploy_signal_id is reserved'):
        coerce_input_values(DECLARED, {'deploy_signal_id': 'http://evil'})


def test_declared_deploy_names_are_the_authors_choice():
    declared = [{'name': 'deploy_dir', 'type': 'String'}]
    assert coerce_input_values(declared, {'deploy_dir': '/srv'}) == {
        'deploy_dir': '/srv'}


def test_an_input_needs_a_name():
    with pytest.raises(InputError, match='needs a name'):
        coerce_input_values(DECLARED, {'': 'x'})


def test_as_text_is_what_a_person_types_for_each_type():
    from heat_deploy_runner.configs.inputs import as_text
    assert as_text('Boolean', True) == 'true'
    assert as_text('CommaDelimitedList', ['a', 'b']) == 'a,b'
    assert as_text('Json', {'b': 1, 'a': [2]}) == '{\n  "a": [\n    2\n  ],\n  "b": 1\n}'
    assert as_text('Number', 14) == '14'
    assert as_text('String', None) is None


def test_as_text_shows_json_text_as_typed_not_escaped():
    from heat_deploy_runner.configs.inputs import as_text
    value = {'greeting': 'Grüß dich', 'cities': ['Zürich', '東京']}
    text = as_text('Json', value)
    assert text == ('{\n  "cities": [\n    "Zürich",\n    "東京"\n  ],\n'
                    '  "greeting": "Grüß dich"\n}')
    assert '\\u' not in text
    # And it is what coerce_value reads back.
    assert coerce_value('labels', 'Json', text) == value
    assert as_text('CommaDelimitedList', ['ä', 'ö']) == 'ä,ö'
