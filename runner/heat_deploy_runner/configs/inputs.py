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

"""Coercion of input overrides to the Heat type their input declares.

Heat stores derived-config input values exactly as sent and hands them to
the server unchecked, so a "Number" typed as "abc" would only fail on the
server, long after the user left the form. Values are therefore checked and
converted here, following Heat's own parameter rules
(heat/engine/parameters.py, oslo_utils.strutils.bool_from_string).
"""

from collections.abc import Iterable, Mapping
import json
import math

from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message

STRING = 'String'
NUMBER = 'Number'
BOOLEAN = 'Boolean'
JSON = 'Json'
COMMA_DELIMITED_LIST = 'CommaDelimitedList'

# oslo_utils.strutils TRUE_STRINGS / FALSE_STRINGS, which Heat uses strictly.
TRUE_WORDS = frozenset(('1', 't', 'true', 'on', 'y', 'yes'))
FALSE_WORDS = frozenset(('0', 'f', 'false', 'off', 'n', 'no'))

# Inputs the trigger itself adds to every derived config. An undeclared
# override with this prefix would sit beside them and could redirect the
# server's signal, so it is refused.
RESERVED_PREFIX = 'deploy_'

NOT_TEXT = gettext_noop(
    'The input %(name)s must be text.')
NOT_NUMBER = gettext_noop(
    'The input %(name)s must be a number, not "%(value)s".')
NOT_BOOLEAN = gettext_noop(
    'The input %(name)s must be true or false (or yes/no, on/off, 1/0), '
    'not "%(value)s".')
NOT_JSON = gettext_noop(
    'The input %(name)s must be a JSON object or list, not "%(value)s".')
NOT_LIST = gettext_noop(
    'The input %(name)s must be a comma-separated list.')
NO_NAME = gettext_noop(
    'Every input value needs a name.')
RESERVED_NAME = gettext_noop(
    'The input name %(name)s is reserved for the deployment itself.')
UNDECLARED = gettext_noop(
    'No input %(name)s is declared; the inputs are: %(declared)s.')

_SHOWN_VALUE_LENGTH = 40


def _shown(value: object) -> str:
    text = str(value)
    if len(text) > _SHOWN_VALUE_LENGTH:
        return text[:_SHOWN_VALUE_LENGTH - 1] + '\u2026'
    return text


def _error(template: str, name: str, value: object = '') -> InputError:
    return InputError(Message(template, {'name': name,
                                         'value': _shown(value)}))


def _string(name: str, value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise _error(NOT_TEXT, name, value)


def _number(name: str, value: object) -> int | float:
    if isinstance(value, bool):
        raise _error(NOT_NUMBER, name, value)
    if isinstance(value, (int, float)):
        number = value
    elif isinstance(value, str):
        # Heat's Schema.str_to_num order: int first, so "3" stays an int.
        try:
            number = int(value)
        except ValueError:
            try:
                number = float(value)
            except ValueError:
                raise _error(NOT_NUMBER, name, value) from None
    else:
        raise _error(NOT_NUMBER, name, value)
    # NaN and infinity have no JSON spelling, so Heat could not store them.
    if not math.isfinite(number):
        raise _error(NOT_NUMBER, name, value)
    return number


def _boolean(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (str, int)):
        word = str(value).strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise _error(NOT_BOOLEAN, name, value)


def _json(name: str, value: object) -> dict | list:
    parsed = value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            raise _error(NOT_JSON, name, value) from None
    if not isinstance(parsed, (dict, list)):
        raise _error(NOT_JSON, name, value)
    return parsed


def _comma_delimited_list(name: str, value: object) -> list[str]:
    if isinstance(value, str):
        if not value.strip():
            return []
        # Heat itself does not trim; people typing "a, b" mean ["a", "b"].
        return [item.strip() for item in value.split(',')]
    if isinstance(value, (list, tuple)):
        # Heat's CommaDelimitedList parameter turns every item into text.
        return [str(item) for item in value]
    raise _error(NOT_LIST, name, value)


_COERCERS = {
    STRING: _string,
    NUMBER: _number,
    BOOLEAN: _boolean,
    JSON: _json,
    COMMA_DELIMITED_LIST: _comma_delimited_list,
}


def coerce_value(name: str, input_type: str | None, value: object):
    """Return ``value`` converted to Heat type ``input_type``.

    A missing type means String, as in Heat's input schema. Raises
    InputError with a sentence naming the input when the value does not fit.
    """
    return _COERCERS[input_type or STRING](name, value)


def coerce_input_values(declared_inputs: Iterable[Mapping],
                        overrides: Mapping[str, object]) -> dict:
    """Return the overrides converted to their declared input types.

    ``declared_inputs`` are the source config's inputs. An override of None
    means "use the input's default" and is left out, so a form can pass its
    blank optional fields as they are. Undeclared names become String inputs
    of the derived config, as heatclient does.
    """
    types = {declared['name']: declared.get('type')
             for declared in declared_inputs}
    coerced = {}
    for name, value in overrides.items():
        if not name:
            raise InputError(Message(NO_NAME))
        if name not in types and name.startswith(RESERVED_PREFIX):
            raise _error(RESERVED_NAME, name)
        if value is not None:
            coerced[name] = coerce_value(name, types.get(name), value)
    return coerced


def from_text(declared: Mapping, text: str):
    """The value of an input typed as ``text`` (a form field, a command's NAME=VALUE), as its
    declared type takes it; None, its default, for none or a blank number, boolean, list or
    JSON."""
    if text is None or (text == '' and declared.get('type') not in (None, STRING)):
        return None
    return coerce_value(declared['name'], declared.get('type'), text)


def from_texts(declared_inputs: Iterable[Mapping], texts: Mapping[str, str]) -> dict:
    """{name: value} of the inputs typed as ``texts`` (from_text), blanks left to their
    defaults. Raises InputError naming the first input that is not declared or whose text
    does not fit its type."""
    declared = {each['name']: each for each in declared_inputs if each.get('name')}
    values = {}
    for name, text in texts.items():
        if name not in declared:
            raise InputError(Message(UNDECLARED, {
                'name': name, 'declared': ', '.join(sorted(declared)) or '-'}))
        value = from_text(declared[name], text)
        if value is not None:
            values[name] = value
    return values


def as_text(input_type: str | None, value) -> str | None:
    """A value as a person types it in a form field of its type; None for no value.

    The inverse of coerce_value for what a form shows: defaults, and a past run's values
    when it is run again.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if input_type == COMMA_DELIMITED_LIST and isinstance(value, list):
        return ','.join(str(item) for item in value)
    if isinstance(value, (dict, list)):
        # As typed: ü, not \u00fc.
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
    return str(value)
