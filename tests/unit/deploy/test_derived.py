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

import copy

from heatclient.common import deployment_utils
from heatclient.v1.software_configs import SoftwareConfig
import pytest

from heat_deploy_runner import build_derived_config
from heat_deploy_runner.configs.derived import is_derived_for
from heat_deploy_runner.configs.derived import tool_of
from heat_deploy_runner.configs.derived import values_as
from heat_deploy_runner import derived_input_values
from heat_deploy_runner.signalling.tempurl import TempUrlSignal

from .fakes import FakeSwift

SOURCE = {
    'id': 'source-id',
    'name': 'mysql',
    'group': 'component',
    'config': {'configs': [{'actions': ['BACKUP'], 'tool': 'script',
                            'config': 'mysqldump --all > $target'}]},
    'inputs': [
        {'name': 'target', 'type': 'String', 'default': '/backup',
         'description': 'Where the dump goes'},
        {'name': 'port', 'type': 'Number', 'default': 3306},
        {'name': 'compress', 'type': 'Boolean'},
    ],
    'outputs': [{'name': 'size', 'type': 'String'},
                {'name': 'error', 'error_output': True}],
    'options': {'retries': 2},
}
OVERRIDES = {'target': '/srv/backup', 'note': 'nightly', 'level': '9'}
# The same action run by a hook that writes its inputs to a file: values keep their types.
STRUCTURED = copy.deepcopy(SOURCE)
STRUCTURED['config']['configs'][0]['tool'] = 'ansible'


def _as_text(params):
    """heatclient's derived config with each value as the CLI's --input-value sends it."""
    for each in params['inputs']:
        value = each.get('value')
        each['value'] = '' if value is None else str(value)
    return params


def _heatclient(source, transport, signal_id=None, overrides=OVERRIDES):
    return deployment_utils.build_derived_config_params(
        'BACKUP', source, 'mysql-BACKUP', copy.deepcopy(overrides),
        'server-1', transport, signal_id=signal_id)


def _ours(source, transport, signal_inputs=(), overrides=OVERRIDES):
    return build_derived_config(
        source, name='mysql-BACKUP', action='BACKUP', server_id='server-1',
        input_values=overrides, signal_transport=transport,
        signal_inputs=signal_inputs)


@pytest.mark.parametrize('source', [
    STRUCTURED, SoftwareConfig(None, copy.deepcopy(STRUCTURED), loaded=True)])
def test_no_signal_matches_heatclient(source):
    ours = _ours(source, 'NO_SIGNAL')
    assert ours == _heatclient(source, 'NO_SIGNAL')
    assert [each['name'] for each in ours['inputs']] == [
        'target', 'port', 'compress', 'note', 'level', 'deploy_server_id',
        'deploy_action', 'deploy_signal_transport']


def test_temp_url_signal_matches_heatclient():
    target = TempUrlSignal(FakeSwift()).prepare('mysql-BACKUP', 60)
    signal_id = target.values['deploy_signal_id']
    ours = _ours(STRUCTURED, 'TEMP_URL_SIGNAL', target.inputs)
    assert ours == _heatclient(STRUCTURED, 'TEMP_URL_SIGNAL', signal_id)
    assert [each['name'] for each in ours['inputs']][-5:] == [
        'deploy_server_id', 'deploy_action', 'deploy_signal_transport',
        'deploy_signal_id', 'deploy_signal_verb']


def test_a_script_gets_heatclients_config_with_every_value_as_text():
    # heat-agents' hook-script puts each value into the environment as it is: an int or
    # None stops it with a TypeError before the script runs.
    ours = _ours(SOURCE, 'NO_SIGNAL')
    assert ours == _as_text(_heatclient(SOURCE, 'NO_SIGNAL'))


def test_declared_inputs_get_override_or_default():
    values = derived_input_values(_ours(STRUCTURED, 'NO_SIGNAL'))
    assert values['target'] == '/srv/backup'
    assert values['port'] == 3306
    assert values['compress'] is None
    assert values['note'] == 'nightly'


@pytest.mark.parametrize('input_type, value, text', [
    ('String', 'a "quoted"\nline ü', 'a "quoted"\nline ü'),
    ('Number', 2, '2'),
    ('Number', 2.5, '2.5'),
    ('Number', '7', '7'),
    ('Boolean', True, 'true'),
    ('Boolean', False, 'false'),
    ('CommaDelimitedList', ['a', 'b c'], 'a,b c'),
    ('CommaDelimitedList', [], ''),
    ('Json', {'key': ['ü', 1]}, '{"key": ["ü", 1]}'),
    ('Json', [1, 2], '[1, 2]'),
    ('String', None, ''),
])
def test_the_script_hook_gets_text_as_the_cli_sends_it(input_type, value, text):
    assert values_as('script', {'name': 'x', 'type': input_type}, value) == text


@pytest.mark.parametrize('input_type, value, typed', [
    ('Number', '7', 7),
    ('Number', 2.5, 2.5),
    ('Boolean', 'true', True),
    ('CommaDelimitedList', 'users,posts', ['users', 'posts']),
    ('Json', '{"a": 1}', {'a': 1}),
    ('String', 'text', 'text'),
    ('Number', None, None),
    # A default the tool will judge itself: left as Heat took it.
    ('Number', 'many', 'many'),
])
def test_structured_hooks_get_typed_values(input_type, value, typed):
    assert values_as('ansible', {'name': 'x', 'type': input_type}, value) == typed


def test_the_tool_is_the_actions_entrys_or_the_configs_group():
    assert tool_of(SOURCE, 'BACKUP') == 'script'
    assert tool_of(STRUCTURED, 'BACKUP') == 'ansible'
    assert tool_of(SOURCE, 'RESTORE') == ''
    assert tool_of({'group': 'script'}, 'CREATE') == 'script'
    assert tool_of({}, 'CREATE') == 'Heat::Ungrouped'


def test_unknown_overrides_become_string_inputs():
    inputs = _ours(SOURCE, 'NO_SIGNAL')['inputs']
    assert {'name': 'level', 'type': 'String', 'value': '9'} in inputs


def test_the_source_keeps_its_group_config_outputs_and_options():
    ours = _ours(SOURCE, 'NO_SIGNAL')
    assert (ours['group'], ours['config'], ours['outputs'],
            ours['options']) == (SOURCE['group'], SOURCE['config'],
                                 SOURCE['outputs'], SOURCE['options'])
    assert ours['name'] == 'mysql-BACKUP'


def test_an_empty_source_gets_heatclients_defaults():
    ours = _ours({}, 'NO_SIGNAL', overrides={})
    assert ours == _heatclient({}, 'NO_SIGNAL', overrides={})
    assert ours['group'] == 'Heat::Ungrouped'
    assert (ours['config'], ours['options'], ours['outputs']) == ('', {}, [])


def test_nothing_passed_in_is_modified():
    source = copy.deepcopy(SOURCE)
    overrides = dict(OVERRIDES)
    signal_inputs = ({'name': 'deploy_signal_id', 'value': 'u'},)
    ours = _ours(source, 'TEMP_URL_SIGNAL', signal_inputs, overrides)
    ours['inputs'][-1]['value'] = 'changed'
    assert source == SOURCE
    assert overrides == OVERRIDES
    assert signal_inputs == ({'name': 'deploy_signal_id', 'value': 'u'},)


def test_derived_input_values_reads_objects_and_dicts():
    config = _ours(SOURCE, 'NO_SIGNAL')
    as_object = SoftwareConfig(None, config, loaded=True)
    assert derived_input_values(as_object) == derived_input_values(config)
    assert derived_input_values(config)['deploy_action'] == 'BACKUP'
    assert derived_input_values({'inputs': None}) == {}


def test_is_derived_for_its_own_server_only():
    config = _ours(SOURCE, 'NO_SIGNAL')
    assert is_derived_for(config, 'server-1')
    assert not is_derived_for(config, 'server-2')
    assert not is_derived_for(SOURCE, 'server-1')
