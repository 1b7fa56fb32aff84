import copy

from heatclient.common import deployment_utils
from heatclient.v1.software_configs import SoftwareConfig
import pytest

from heat_deploy_runner.derived import build_derived_config
from heat_deploy_runner.derived import derived_input_values
from heat_deploy_runner.derived import is_derived_for
from heat_deploy_runner.tempurl import TempUrlSignal

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
    SOURCE, SoftwareConfig(None, copy.deepcopy(SOURCE), loaded=True)])
def test_no_signal_matches_heatclient(source):
    ours = _ours(source, 'NO_SIGNAL')
    assert ours == _heatclient(source, 'NO_SIGNAL')
    assert [each['name'] for each in ours['inputs']] == [
        'target', 'port', 'compress', 'note', 'level', 'deploy_server_id',
        'deploy_action', 'deploy_signal_transport']


def test_temp_url_signal_matches_heatclient():
    target = TempUrlSignal(FakeSwift()).prepare('mysql-BACKUP', 60)
    signal_id = target.values['deploy_signal_id']
    ours = _ours(SOURCE, 'TEMP_URL_SIGNAL', target.inputs)
    assert ours == _heatclient(SOURCE, 'TEMP_URL_SIGNAL', signal_id)
    assert [each['name'] for each in ours['inputs']][-5:] == [
        'deploy_server_id', 'deploy_action', 'deploy_signal_transport',
        'deploy_signal_id', 'deploy_signal_verb']


def test_declared_inputs_get_override_or_default():
    values = derived_input_values(_ours(SOURCE, 'NO_SIGNAL'))
    assert values['target'] == '/srv/backup'
    assert values['port'] == 3306
    assert values['compress'] is None
    assert values['note'] == 'nightly'


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
