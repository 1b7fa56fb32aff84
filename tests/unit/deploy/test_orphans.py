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

"""The derived configs no run uses: Heat made them after a start had stopped waiting (while
heat-engine was down), and retention sweeps them, never anyone else's config; a start Heat
left unanswered hands Mistral the sweep of its own."""

import datetime
import functools
import json

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
import pytest

from heat_deploy_runner import derived_input_values
from heat_deploy_runner import Operation
from heat_deploy_runner.pruning import orphans
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.running.starting import unanswered
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from heat_deploy_runner import workflows
from tests.unit.deploy.mistral_fakes import FakeMistral

PROJECT = 'project-1'
OPERATION = Operation('op-1', 'alice', '2026-11-27T12:00:00Z', source=None)


@pytest.fixture
def find_transport(swift):
    return functools.partial(transport_for, swift=swift)


@pytest.fixture
def source(heat):
    return heat.add_config(name='mysql', inputs=[{'name': 'db_password', 'type': 'String'}])


def _start(heat, find_transport, source, server='s1'):
    return start(heat, find_transport, RunRequest(config_id=source, action='BACKUP',
                                                  server_ids=[server]),
                 Operation('op-1', 'alice', '2026-11-27T12:00:00Z', source=source))


def _unanswered_config(heat, find_transport, source):
    """Heat makes the config, but the start stopped waiting for its answer."""
    heat.fail_after('software_configs.create', ks_exc.ConnectTimeout('heat-engine is down'))
    with pytest.raises(ks_exc.ConnectTimeout):
        _start(heat, find_transport, source)
    heat._failures_after.clear()
    [orphan] = [config_id for config_id in heat.configs if config_id != source]
    return orphan


def _later(than=orphans.AGE + datetime.timedelta(minutes=1)):
    # The in-memory Heat writes the real time a config is made.
    return datetime.datetime.now(datetime.timezone.utc) + than


def _sweep(heat, find_transport, now=None):
    return orphans.sweep(heat, find_transport, PROJECT, now or _later())


def test_a_config_made_after_its_start_stopped_waiting_is_swept_once_old_enough(
        heat, swift, find_transport, source):
    orphan = _unanswered_config(heat, find_transport, source)

    # A start still under way may yet make its deployment.
    assert _sweep(heat, find_transport, _later(orphans.AGE / 2)).configs == []
    assert orphan in heat.configs

    done = _sweep(heat, find_transport)

    assert [config['id'] for config in done.configs] == [orphan] and done.leftovers == []
    assert set(heat.configs) == {source}
    # Safe to run again.
    assert _sweep(heat, find_transport).configs == []


def test_a_deployment_that_went_unanswered_leaves_its_config_and_signal_target_swept(
        heat, swift, find_transport, source):
    heat.fail('software_deployments.create', ks_exc.ConnectTimeout('heat-engine is down'))
    heat.fail('software_deployments.list', ks_exc.ConnectFailure('heat-engine is down'))
    with pytest.raises(ks_exc.ConnectTimeout):
        _start(heat, find_transport, source)
    heat._failures.clear()
    [orphan] = [config_id for config_id in heat.configs if config_id != source]
    container, _object = signal_location(derived_input_values(heat.configs[orphan]))
    assert container in swift.containers

    assert [config['id'] for config in _sweep(heat, find_transport).configs] == [orphan]
    assert container not in swift.containers


def _config(heat, name='mysql-BACKUP', options=None, inputs=None, **fields):
    return heat.add_config(name=name, options=options if options is not None else {
        'heat_deploy_dashboard': OPERATION.as_option()}, inputs=inputs if inputs is not None
        else [{'name': 'deploy_server_id', 'value': 's1'},
              {'name': 'deploy_action', 'value': 'BACKUP'}], **fields)


@pytest.mark.parametrize('whose', [
    'a stack', 'no action', 'named otherwise', 'another project', 'a run'])
def test_a_config_not_of_the_dashboard_or_that_a_run_uses_is_never_swept(
        heat, find_transport, source, whose):
    if whose == 'a run':
        config_id = _start(heat, find_transport, source).created[0].config_id
    else:
        config_id = _config(heat, **{
            'a stack': {'options': {}},
            'no action': {'inputs': [{'name': 'deploy_server_id', 'value': 's1'}]},
            'named otherwise': {'name': 'my copy'},
            'another project': {'project': 'not-' + PROJECT}}[whose])

    assert _sweep(heat, find_transport).configs == []
    assert config_id in heat.configs and source in heat.configs


def test_only_configs_no_deployment_uses_are_read_and_not_the_sources_of_runs(
        heat, find_transport, source):
    for server in ('s1', 's2', 's3'):
        _start(heat, find_transport, source, server)
    stacks = heat.add_config(name='stack-config')
    before = len(heat.called('software_configs.get'))

    _sweep(heat, find_transport)

    assert [call[1] for call in heat.called('software_configs.get')[before:]] == [(stacks,)]


def test_a_config_heat_does_not_delete_is_left_and_said(
        heat, find_transport, source):
    orphan = _unanswered_config(heat, find_transport, source)
    heat.fail('software_configs.delete', ks_exc.ConnectFailure('heat-api is down'))

    done = _sweep(heat, find_transport)

    assert done.configs == [] and orphan in heat.configs
    assert [str(message) for message in done.leftovers] == [
        f'The configuration {orphan}, which no run uses, could not be deleted.']


def test_retention_sweeps_too_and_says_which_a_dry_run_only_says(
        heat, swift, find_transport, source):
    orphan = _unanswered_config(heat, find_transport, source)

    def prune(dry_run):
        return retention.prune(heat, swift, find_transport, PROJECT, retention.Policy(),
                               _later(), dry_run=dry_run)

    assert [config['id'] for config in prune(dry_run=True).swept] == [orphan]
    assert orphan in heat.configs
    done = prune(dry_run=False)
    assert [config['id'] for config in done.swept] == [orphan] and done.runs == []
    assert orphan not in heat.configs


def _swept_later(mistral):
    return [json.loads(each.input) for each in mistral.executions.rows.values()
            if each.workflow_name == workflows.SWEEP_WORKFLOW]


@pytest.mark.parametrize('error', [
    ks_exc.ConnectTimeout('heat-api held it past the wait'),
    heat_exc.HTTPInternalServerError('MessagingTimeout')], ids=['no answer', '500'])
def test_a_start_heat_left_unanswered_hands_mistral_the_sweep_of_its_operation(
        heat, find_transport, source, error):
    mistral = FakeMistral(PROJECT)
    operation = Operation('op-2', 'alice', '2026-11-27T12:00:00Z', source=source)
    heat.fail_after('software_configs.create', error)
    try:
        what = start(heat, find_transport, RunRequest(
            config_id=source, action='BACKUP', server_ids=['s1']), operation)
    except Exception as raised:
        what = raised
    heat._failures_after.clear()
    [orphan] = [config_id for config_id in heat.configs if config_id != source]
    elsewhere = _config(heat)

    assert unanswered(what) if isinstance(what, Exception) else what.unanswered
    orphans.sweep_later(mistral, PROJECT, operation, 'BACKUP')

    assert _swept_later(mistral) == [
        {'operation_id': 'op-2', 'action_name': 'BACKUP',
         'after': orphans.SWEEP_AFTER.total_seconds()}]
    # What the sweep then does, however young the config: that operation's only.
    now = datetime.datetime.now(datetime.timezone.utc)
    done = orphans.sweep(heat, find_transport, PROJECT, now, 'op-2', 'BACKUP')
    assert [config['id'] for config in done.configs] == [orphan]
    assert set(heat.configs) == {source, elsewhere}


@pytest.mark.parametrize('error', [
    heat_exc.HTTPBadRequest('maximum software configs per tenant, 10'),
    ks_exc.ConnectFailure('heat-api is down')], ids=['refused', 'never reached'])
def test_a_start_heat_refused_or_never_heard_is_not_unanswered(
        heat, find_transport, source, error):
    heat.fail('software_configs.create', error)
    try:
        what = _start(heat, find_transport, source)
    except Exception as raised:
        what = raised

    assert not (unanswered(what) if isinstance(what, Exception) else what.unanswered)


def test_a_server_heat_left_unanswered_among_runs_started_is_said(
        heat, find_transport, source):
    assert not _start(heat, find_transport, source).unanswered

    heat.fail('software_configs.create', heat_exc.HTTPServiceUnavailable('engine'))

    assert _start(heat, find_transport, source, 's2').unanswered


def test_mistral_refusing_the_sweep_leaves_it_to_retention(heat, find_transport, source):
    mistral = FakeMistral(PROJECT)
    mistral.executions.create = _refused

    orphans.sweep_later(mistral, PROJECT, OPERATION, 'BACKUP')

    assert mistral.executions.rows == {}


def _refused(*_args, **_kwargs):
    raise ks_exc.ConnectFailure('Mistral is down')
