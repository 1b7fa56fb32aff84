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

"""Derived software configs: the per-run copy of a config that Heat deploys.

A config is immutable and shared; a run needs its own input values, the
server id, the action and where to send the result. Like the CLI
(heatclient.common.deployment_utils.build_derived_config_params), a run
therefore posts a *derived* config and points its deployment at it. The
input order and shape here are the CLI's, so servers, hooks and Heat itself
see what they see for ``openstack software deployment create``.

The values take the shape the action's tool takes (``values_as``). The stock
script hook (heat-agents' hook-script) puts every input into the script's
environment as it is, and a Number, a Boolean or no value at all stops it
with a TypeError before the script runs: for it each value is text, as the
CLI sends it. Hooks that write the inputs to a file (ansible, puppet's hiera,
salt, chef) get typed values, where types survive and matter.
"""

import copy
import json
from collections.abc import Iterable, Mapping

from heatclient import exc as heat_exc

from heat_deploy_runner.configs import inputs as input_types
from heat_deploy_runner.messages import InputError

SERVER_ID = 'deploy_server_id'
ACTION = 'deploy_action'
SIGNAL_TRANSPORT = 'deploy_signal_transport'

DEFAULT_GROUP = 'Heat::Ungrouped'
COMPONENT_GROUP = 'component'
SCRIPT_TOOL = 'script'
# The hooks that hand inputs to what they run as environment variables: text only.
TEXT_TOOLS = frozenset({SCRIPT_TOOL})
# The key of a derived config's options that holds the operation that started its run
# (operations.py); a hook reads only the options it knows.
OPERATION_OPTION = 'heat_deploy_dashboard'


def as_dict(resource) -> dict:
    """A heatclient resource (or an already plain mapping) as a dict."""
    if hasattr(resource, 'to_dict'):
        return resource.to_dict()
    return dict(resource)


def config_or_none(heat, config_id: str):
    """The config read from Heat, or None when it is gone."""
    try:
        return heat.software_configs.get(config_id)
    except heat_exc.HTTPNotFound:
        return None


def string_input(name: str, value, description: str) -> dict:
    """One String input of a derived config, shaped as heatclient shapes it."""
    return {'name': name, 'description': description,
            'type': 'String', 'value': value}


def tool_of(source: Mapping, action: str) -> str:
    """The hook the server runs for this action: a component's entry's tool (as
    55-heat-config picks it), otherwise the config's group."""
    group = source.get('group') or DEFAULT_GROUP
    if group != COMPONENT_GROUP:
        return group
    for entry in (source.get('config') or {}).get('configs') or []:
        if action in (entry.get('actions') or ()):
            return entry.get('tool') or ''
    return ''


def values_as(tool: str, declared: Mapping, value):
    """A declared input's value as the tool takes it: text for the script hook, exactly
    what the CLI sends (a Number as its decimal text, a Boolean true or false, a
    CommaDelimitedList a,b, Json its JSON text, no value empty), otherwise of its type."""
    if tool not in TEXT_TOOLS:
        if value is None or value == '':
            return value
        try:
            return input_types.coerce_value(declared['name'], declared.get('type'), value)
        except InputError:
            # A default Heat took and the tool will judge: passed on as it is.
            return value
    if value is None:
        return ''
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, list) and declared.get('type') == input_types.COMMA_DELIMITED_LIST:
        return ','.join(str(item) for item in value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _options(source_options, operation_option):
    # The source's options without an operation of its own (a config copied from a run's
    # derived config has one), and this run's operation.
    options = {key: value for key, value in (source_options or {}).items()
               if key != OPERATION_OPTION}
    if operation_option:
        options[OPERATION_OPTION] = operation_option
    return options


def build_derived_config(source, *, name: str, action: str, server_id: str,
                         input_values: Mapping[str, object],
                         signal_transport: str,
                         signal_inputs: Iterable[dict] = (),
                         operation_option: dict | None = None) -> dict:
    """Return the body to POST as the derived software config.

    ``source`` is the config to run (heatclient resource or dict);
    ``input_values`` the already coerced overrides; ``signal_inputs`` the
    transport's own inputs (see SignalTarget.inputs); ``operation_option``
    the operation that starts the run (operations.Operation.as_option).
    Neither argument is modified.
    """
    source = as_dict(source)
    overrides = dict(input_values)
    tool = tool_of(source, action)
    inputs = copy.deepcopy(source.get('inputs')) or []
    for declared in inputs:
        declared['value'] = values_as(tool, declared, overrides.pop(
            declared['name'], declared.get('default')))
    inputs.extend({'name': extra, 'type': 'String',
                   'value': values_as(tool, {'name': extra}, value)}
                  for extra, value in overrides.items())
    inputs.extend([
        string_input(SERVER_ID, server_id,
                     'ID of the server being deployed to'),
        string_input(ACTION, action,
                     'Name of the current action being deployed'),
        string_input(SIGNAL_TRANSPORT, signal_transport,
                     'How the server should signal to heat with the '
                     'deployment output values.'),
    ])
    inputs.extend(copy.deepcopy(list(signal_inputs)))
    return {
        'group': source.get('group') or DEFAULT_GROUP,
        'config': source.get('config') or '',
        'options': _options(source.get('options'), operation_option),
        'inputs': inputs,
        'outputs': source.get('outputs') or [],
        'name': name,
    }


def derived_input_values(config) -> dict:
    """{input name: value} of a config, as Heat reads them on refresh.

    An input without a value reads as None (Heat's InputConfig.input_data).
    """
    return {each['name']: each.get('value')
            for each in as_dict(config).get('inputs') or []}


def is_derived_for(config, server_id: str) -> bool:
    """Whether ``config`` is a derived config made for this server's run.

    Deleting a deployment deletes its config only when this holds: a
    deployment created straight from a source config must not take the
    source config with it.
    """
    return derived_input_values(config).get(SERVER_ID) == server_id
