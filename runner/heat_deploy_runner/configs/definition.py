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

"""A software config as a person writes it, checked the way Heat checks it.

Inputs, outputs and options are written in YAML (JSON is YAML too), as in
a template's OS::Heat::SoftwareConfig, or together in a definition file as
for `openstack software config create --definition-file`. Heat checks them
only in its engine (heat/engine/software_config_io.py) and answers with its
schema's wording; here each mistake gets a sentence, and nothing is sent to
Heat until all are right.
"""

import unicodedata

from heatclient.common import template_format
import yaml

from heat_deploy_runner.configs.derived import COMPONENT_GROUP
from heat_deploy_runner.configs.derived import SCRIPT_TOOL
from heat_deploy_runner.configs import inputs as input_types
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message

TYPES = (input_types.STRING, input_types.NUMBER, input_types.BOOLEAN,
         input_types.JSON, input_types.COMMA_DELIMITED_LIST)
INPUT_KEYS = ('name', 'type', 'default', 'description', 'replace_on_change',
              'value')
OUTPUT_KEYS = ('name', 'type', 'description', 'error_output')
# The CLI's definition file holds inputs, outputs and options and takes the
# body from --config-file; "config" here lets one file hold a whole config.
DEFINITION_KEYS = ('config', 'inputs', 'outputs', 'options')

NOT_YAML = gettext_noop(
    'This is not valid YAML or JSON (line %(line)s, column %(column)s).')
NOT_A_LIST = gettext_noop(
    'Write a list, one "- name: ..." entry for each.')
NOT_AN_ENTRY = gettext_noop(
    'Entry %(number)s is not a mapping of keys to values.')
NO_NAME = gettext_noop('Entry %(number)s needs a name.')
NAME_TWICE = gettext_noop('The name %(name)s is used twice.')
NAME_CONTROL = gettext_noop(
    'Entry %(number)s: its name holds a control character (%(character)s). '
    'No hook can run a config with it: write the name without control '
    'characters such as NUL, tab or line breaks.')
INPUT_NAME_EQUALS = gettext_noop(
    '%(name)s: an input\'s name cannot hold "=". The script hooks give each '
    'input to the script as an environment variable of that name, and such '
    'a name stops them before the script runs.')
UNKNOWN_KEYS = gettext_noop(
    '%(name)s: unknown keys %(keys)s. The keys are %(allowed)s.')
BAD_TYPE = gettext_noop(
    '%(name)s: the type must be one of %(types)s.')
NOT_TEXT = gettext_noop('%(name)s: %(key)s must be text.')
NOT_FLAG = gettext_noop('%(name)s: %(key)s must be true or false.')
OPTIONS_NOT_MAPPING = gettext_noop(
    'Write the options as a mapping of keys to values.')
DEFINITION_NOT_MAPPING = gettext_noop(
    'A definition is a mapping with the keys config, inputs, outputs and '
    'options, each optional.')
DEFINITION_UNKNOWN_KEYS = gettext_noop(
    'Unknown keys in the definition: %(keys)s. The keys are config, inputs, '
    'outputs and options.')
BODY_NOT_MAPPING = gettext_noop(
    'Structured data must be a mapping of keys to values.')
NO_SHEBANG = gettext_noop(
    'The server\'s script hook runs the script as a program: begin it with a '
    '#! line, such as #!/bin/sh. Without one the server reports "Exec '
    'format error" and the script never runs.')
NO_SHEBANG_IN_ENTRY = gettext_noop(
    'The script for %(actions)s: the server\'s script hook runs it as a '
    'program, so begin it with a #! line, such as #!/bin/sh. Without one the '
    'server reports "Exec format error" and the script never runs.')
COMPONENT_BODY = gettext_noop(
    'A component config is a mapping with a "configs" list, one entry per '
    'script and the actions it runs for.')


def load(text: str):
    """The YAML or JSON ``text`` as data; None when it is blank.

    Dates stay text, as heatclient loads them: JSON has no dates.
    """
    if not text or not text.strip():
        return None
    try:
        return yaml.load(text, Loader=template_format.yaml_loader)
    except yaml.YAMLError as error:
        mark = getattr(error, 'problem_mark', None)
        raise InputError(Message(NOT_YAML, {
            'line': mark.line + 1 if mark else 1,
            'column': mark.column + 1 if mark else 1})) from None


def control_character(name: str):
    """The first control character of a name, as U+XXXX; None without one."""
    for character in name:
        if unicodedata.category(character) == 'Cc':
            return 'U+%04X' % ord(character)
    return None


def _entries(value, allowed_keys):
    """(name, entry) for each entry of an input or output list."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError(Message(NOT_A_LIST))
    named, seen = [], set()
    for number, entry in enumerate(value, start=1):
        if not isinstance(entry, dict):
            raise InputError(Message(NOT_AN_ENTRY, {'number': number}))
        name = entry.get('name')
        if not isinstance(name, str) or not name.strip():
            raise InputError(Message(NO_NAME, {'number': number}))
        # Heat stores any text, but a hook gets inputs as environment
        # variables and outputs as file names: a NUL stops it, and no other
        # control character belongs in a name. The name itself is not shown:
        # it would carry the character into the page.
        control = control_character(name)
        if control:
            raise InputError(Message(NAME_CONTROL, {'number': number,
                                                    'character': control}))
        if name in seen:
            raise InputError(Message(NAME_TWICE, {'name': name}))
        seen.add(name)
        unknown = sorted(str(key) for key in entry if key not in allowed_keys)
        if unknown:
            raise InputError(Message(UNKNOWN_KEYS, {
                'name': name, 'keys': ', '.join(unknown),
                'allowed': ', '.join(allowed_keys)}))
        if entry.get('type', input_types.STRING) not in TYPES:
            raise InputError(Message(BAD_TYPE, {'name': name,
                                                'types': ', '.join(TYPES)}))
        if not isinstance(entry.get('description', ''), str):
            raise InputError(Message(NOT_TEXT, {'name': name,
                                                'key': 'description'}))
        named.append((name, entry))
    return named


def _check_flag(name: str, entry: dict, key: str) -> None:
    if key in entry and not isinstance(entry[key], bool):
        raise InputError(Message(NOT_FLAG, {'name': name, 'key': key}))


def check_inputs(value) -> list[dict]:
    """Declared inputs, as Heat would accept them and a hook can run them;
    raises InputError."""
    for name, entry in _entries(value, INPUT_KEYS):
        if '=' in name:
            raise InputError(Message(INPUT_NAME_EQUALS, {'name': name}))
        _check_flag(name, entry, 'replace_on_change')
        default = entry.get('default')
        # Heat lets an empty default through whatever the type (a legacy of
        # defaults that were all strings).
        if default is not None and default != '':
            input_types.coerce_value(name, entry.get('type'), default)
    return value or []


def check_outputs(value) -> list[dict]:
    """Declared outputs, as Heat would accept them; raises InputError."""
    for name, entry in _entries(value, OUTPUT_KEYS):
        _check_flag(name, entry, 'error_output')
    return value or []


def check_options(value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(Message(OPTIONS_NOT_MAPPING))
    return value


def check_data(value) -> dict:
    """A config body given as data."""
    if not isinstance(value, dict):
        raise InputError(Message(BODY_NOT_MAPPING))
    return value


def check_body(value, group: str):
    """The config body: text as written, or structured data (a mapping)."""
    if value is None:
        value = ''
    if not isinstance(value, str):
        check_data(value)
    # The component hook reads configs[].actions/config/tool; anything else
    # deploys but does nothing on the server.
    if group == COMPONENT_GROUP and not (
            isinstance(value, dict) and isinstance(value.get('configs'), list)):
        raise InputError(Message(COMPONENT_BODY))
    if group == SCRIPT_TOOL and _not_a_program(value):
        raise InputError(Message(NO_SHEBANG))
    if group == COMPONENT_GROUP:
        for entry in value['configs']:
            if (isinstance(entry, dict) and entry.get('tool') == SCRIPT_TOOL
                    and _not_a_program(entry.get('config'))):
                raise InputError(Message(NO_SHEBANG_IN_ENTRY, {
                    'actions': ', '.join(map(str, entry.get('actions') or []))}))
    return value


def _not_a_program(script) -> bool:
    """Text that the script hook would fail to execute: something, but no #! first."""
    return isinstance(script, str) and bool(script.strip()) and not script.startswith('#!')


def check_definition(value) -> dict:
    """The parts a definition file gives, each checked; only those given."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(Message(DEFINITION_NOT_MAPPING))
    unknown = sorted(str(key) for key in value if key not in DEFINITION_KEYS)
    if unknown:
        raise InputError(Message(DEFINITION_UNKNOWN_KEYS,
                                 {'keys': ', '.join(unknown)}))
    checks = {'inputs': check_inputs, 'outputs': check_outputs,
              'options': check_options}
    return {key: checks[key](part) if key in checks else part
            for key, part in value.items()}


class _Dumper(yaml.SafeDumper):
    """Writes text of several lines (scripts) as a block, as typed."""


def _text(dumper, value):
    return dumper.represent_scalar('tag:yaml.org,2002:str', value,
                                   style='|' if '\n' in value else None)


_Dumper.add_representer(str, _text)


def dump(value) -> str:
    """Data as YAML a person reads and edits, in its own key order; '' for
    nothing."""
    if value in (None, [], {}, ''):
        return ''
    return yaml.dump(value, Dumper=_Dumper, default_flow_style=False,
                     sort_keys=False, allow_unicode=True)
