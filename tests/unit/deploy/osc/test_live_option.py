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

"""--live, on the in-memory clouds: `component run`, `run create`, runs in batches, schedules
and `operation retry` ask for live output as the Run Action form does (RunRequest.live: each
server given a live target), never with NO_SIGNAL."""

import json

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner.configs import derived
from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import operations as osc_operations
from heat_deploy_runner.osc import schedules as osc_schedules
from heat_deploy_runner.signalling import live
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import new_runs
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown

NO_SIGNAL_REFUSED = ('Live output comes back the way the result does, and NO_SIGNAL sends '
                     'nothing back: give another --transport, or leave out --live.')


def _live(heat, run):
    return live.is_live(derived.derived_input_values(heat.configs[run['config_id']]))


@pytest.mark.parametrize('asked', [True, False])
def test_component_run_gives_each_server_a_live_target_when_asked(heat, mysql, app, asked):
    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1', '--server',
          's2', *(['--live'] if asked else []))

    assert [_live(heat, each) for each in new_runs(heat)] == [asked, asked]


def test_run_create_gives_its_server_a_live_target(heat, app):
    hello = heat.add_config(name='hello', group='script', config='echo hi', inputs=[])

    shown(component_run.CreateRun, app, '--config', hello, '--server', 's1', '--live')

    [made] = [each for each in heat.deployments.values() if each['config_id'] != hello]
    assert _live(heat, made)


@pytest.mark.parametrize('command_class, argv', [
    (component_run.RunComponent, ('mysql', 'BACKUP', '--server', 's1')),
    (component_run.CreateRun, ('--config', '<mysql>', '--server', 's1')),
    (osc_schedules.CreateSchedule, ('mysql', 'BACKUP', '--server', 's1', '--repeat',
                                    '0 2 * * *'))])
def test_live_output_with_no_signal_is_refused_and_nothing_made(
        heat, swift, mysql, mistral, command_class, argv):
    app = App(heat, SERVERS, swift=swift, mistral=mistral)
    before = (dict(heat.configs), dict(heat.deployments))
    argv = [mysql if each == '<mysql>' else each for each in argv]
    made, parsed = command(command_class, app, *argv, '--live', '--transport', 'NO_SIGNAL')

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    assert str(refused.value) == NO_SIGNAL_REFUSED
    assert (heat.configs, heat.deployments) == before
    assert (swift.containers, mistral.environments.rows, mistral.executions.rows) == (
        {}, {}, {})


def test_runs_in_batches_ask_the_rolling_workflow_for_live_output(heat, swift, mysql, mistral):
    app = App(heat, SERVERS, swift=swift, mistral=mistral)

    result = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
                   '--server', 's2', '--batch-size', '1', '--live')

    asked = json.loads(mistral.executions.get(result['operation']).input)
    assert asked['live'] is True


def test_a_schedule_keeps_live_output_and_shows_it(mysql, swift, heat, mistral):
    app = App(heat, SERVERS, swift=swift, mistral=mistral)

    made = shown(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1',
                 '--repeat', '0 2 * * *', '--live')
    record = mistral.environments.get(made['name']).variables
    changed = shown(osc_schedules.ChangeSchedule, app, made['name'], 'mysql', 'BACKUP',
                    '--server', 's1', '--repeat', '0 3 * * *')

    assert (record['live'], made['live']) == (True, True)
    # Changed, a schedule is given anew what it runs: without --live, no live output.
    assert changed['live'] is False


def test_operation_retry_asks_live_output_again_as_the_failed_runs_had_it(heat, mysql, app):
    first = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
                  '--live')
    for each in new_runs(heat):
        each['status'] = 'FAILED'
    before = set(heat.deployments)

    shown(osc_operations.RerunFailedOperation, app, first['operation'])

    [again] = [heat.deployments[each] for each in set(heat.deployments) - before]
    assert _live(heat, again)
