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

"""An operation started at once from the command line, followed by Mistral
(runner.following.followers) where it is in the catalog; what `operation show` says of what follows
an operation and of the outcome recorded; and the tries of a run in batches (--retries,
--retry-delay)."""

import json
from unittest import mock

from keystoneauth1 import exceptions as ks_exc
from mistralclient.api import base as mistral_base
from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import operations as osc_operations
from heat_deploy_runner.osc import schedules as osc_schedules
from heat_deploy_runner.running import operations
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows import rolling as rolling_mod
from tests.unit.deploy.mistral_fakes import FakeMistral
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import new_runs
from tests.unit.deploy.osc.app import PROJECT
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown
from tests.unit.deploy.osc.app import USER


@pytest.fixture
def mistral():
    return FakeMistral(PROJECT)


@pytest.fixture
def app(heat, swift, mistral):
    return App(heat, SERVERS, swift=swift, mistral=mistral)


def _run(app, *extra):
    return shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
                 '--server', 's2', *extra)


def _kept_operation(run):
    return run['input_values'][OPERATION_OPTION]


def test_a_run_at_once_is_followed_by_mistral_under_the_operations_id(heat, component, app,
                                                                      mistral):
    result = _run(app)

    made = new_runs(heat)
    assert {_kept_operation(each)['runner'] for each in made} == {operations.FOLLOWED}
    follower = mistral.executions.get(result['operation'])
    [workflow] = mistral.workflows.made
    assert (follower.workflow_name, workflow.name) == (workflows.FOLLOW_WORKFLOW,) * 2
    asked = json.loads(follower.input)
    assert sorted(asked['deployment_ids']) == sorted(each['id'] for each in made)
    assert (asked['action_name'], asked['server_names'], asked['link']) == (
        'BACKUP', {'s1': 'demo-db-1', 's2': 'demo-db-2'}, None)
    assert app.stderr.getvalue() == ''


def test_without_mistral_the_runs_say_nothing_follows_them(heat, component, swift):
    _run(App(heat, SERVERS, swift=swift))

    assert [_kept_operation(each).get('runner') for each in new_runs(heat)] == [None, None]


def test_mistral_refusing_to_follow_warns_and_the_runs_stand(heat, component, app, mistral):
    mistral.executions.refusal = mistral_base.APIException(500, 'engine down')
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1')

    with mock.patch.object(made, 'produce_output') as produce:
        assert made.run(parsed) == 0

    operation = dict(zip(*produce.call_args.args[1:]))['operation']
    assert app.stderr.getvalue() == (
        'Warning: the workflow service (Mistral) could not be asked to follow operation '
        f'{operation}. Its runs go on, but nothing records their time-outs or sends its '
        'notices unless --wait or a dashboard page watches it.\n')
    assert [each['status'] for each in new_runs(heat)] == ['IN_PROGRESS']


def test_a_start_heat_left_unanswered_hands_mistral_the_sweep_of_its_operation(
        heat, component, app, mistral):
    heat.fail('software_configs.create', ks_exc.ConnectTimeout('no answer in 30 s'))
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1')

    with pytest.raises(osc_exc.CommandError):
        made.run(parsed)

    [sweep] = [each for each in mistral.executions.rows.values()
               if each.workflow_name == workflows.SWEEP_WORKFLOW]
    asked = json.loads(sweep.input)
    assert (asked['action_name'], asked['after']) == ('BACKUP', 120)
    assert asked['operation_id'] not in mistral.executions.rows


def test_in_batches_the_tries_go_into_the_rolling_workflows_input(heat, component, swift):
    mistral = mock.Mock()
    mistral.workflows.list.return_value = []
    mistral.workflows.create.return_value = [mock.Mock(id='wf-1')]
    mistral.executions.create.return_value = mock.Mock(id='exec-1')
    app = App(heat, SERVERS, swift=swift, mistral=mistral)

    _run(app, '--batch-size', '1', '--retries', '2', '--retry-delay', '30')

    asked = mistral.executions.create.call_args.kwargs['workflow_input']
    assert (asked['batch_size'], asked['retries'], asked['retry_delay']) == (1, 2, 30)
    mistral.workflows.create.assert_called_once_with(
        workflows.definition(workflows.ROLLING_WORKFLOW), scope='private')


def test_retries_without_batches_run_on_mistral_as_one_batch(heat, component, app, mistral):
    result = _run(app, '--retries', '1')

    rolling = mistral.executions.get(result['operation'])
    asked = json.loads(rolling.input)
    assert (rolling.workflow_name, asked['batch_size'], asked['retries']) == (
        workflows.ROLLING_WORKFLOW, 0, 1)
    assert new_runs(heat) == []


def test_many_servers_run_on_mistral_as_one_batch(heat, component, app, mistral, monkeypatch):
    monkeypatch.setattr(rolling_mod, 'MAX_STARTED_HERE', 1)

    result = _run(app)

    asked = json.loads(mistral.executions.get(result['operation']).input)
    assert (asked['batch_size'], asked['retries'], len(asked['server_ids'])) == (0, 0, 2)
    assert new_runs(heat) == []


@pytest.mark.parametrize('extra, said', [
    (('--retries', '1'), 'Trying a failed server again needs the workflow service (Mistral), '
     'which is not in your service catalog: run it without --retries.'),
    (('--retries', '1', '--batch-size', '1'), 'Runs in batches need the workflow service '
     '(Mistral), which is not in your service catalog: run it without --batch-size and '
     '--retries.'),
    (('--retry-delay', '5'),
     "--retry-delay is the wait between a server's tries: give --retries too."),
])
def test_tries_refused_without_what_they_need_start_nothing(heat, component, swift, extra, said):
    made, parsed = command(component_run.RunComponent, App(heat, SERVERS, swift=swift),
                           'mysql', 'BACKUP', '--server', 's1', *extra)

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    assert str(refused.value) == said
    assert new_runs(heat) == []


@pytest.mark.parametrize('option', [('--retries', '11'), ('--retries', '-1'),
                                    ('--retry-delay', '3601'), ('--retries', 'x')])
def test_tries_out_of_bounds_are_refused_by_the_parser(component, app, option):
    with pytest.raises(SystemExit):
        command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
                *option)


def test_a_schedule_keeps_its_tries(component, app, mistral):
    made = shown(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1',
                 '--repeat', '0 2 * * *', '--retries', '3', '--retry-delay', '60')

    record = mistral.environments.get(made['name']).variables
    assert (record['retries'], record['retry_delay']) == (3, 60)


def test_show_says_which_execution_follows_the_operation(component, app):
    operation = _run(app)['operation']

    result = shown(osc_operations.ShowOperation, app, operation)

    assert result['followed'] == f'followed by Mistral execution {operation} (RUNNING)'
    assert result['runs_in_batches'] == 'no'
    assert 'outcome' not in result and 'batch_size' not in result


def test_show_says_when_nothing_follows_the_operation(heat, component, swift):
    app = App(heat, SERVERS, swift=swift)
    operation = _run(app)['operation']

    result = shown(osc_operations.ShowOperation, app, operation)

    assert result['followed'] == ('not followed: nothing records its timeouts while no page '
                                  'or --wait watches')


def test_show_says_nothing_follows_when_mistral_never_took_the_operation(component, app, mistral):
    mistral.executions.refusal = mistral_base.APIException(500, 'engine down')
    operation = _run(app)['operation']

    result = shown(osc_operations.ShowOperation, app, operation)

    assert result['followed'].startswith(osc_operations.NOT_FOLLOWED + ' (Mistral has no '
                                         f'execution {operation}')


def test_show_tells_the_outcome_the_follower_recorded(component, app, mistral):
    operation = _run(app)['operation']
    follower = mistral.executions.get(operation)
    follower.state = 'SUCCESS'
    follower.output = json.dumps({'outcome': {
        'ended_at': '2026-05-04T10:00:00Z', 'servers': 3,
        'counts': {'COMPLETE': 1, 'FAILED': 1},
        'failed': [{'server_id': 's2', 'status': 'FAILED', 'exit_code': 3,
                    'reason': 'Deployment exited 3', 'stderr': '', 'tries': 2}],
        'refused': [['s3', 'Could not start BACKUP on server s3']], 'not_started': [],
        'gone': [], 'notified': ['heat-deploy-failed-x']}})

    result = shown(osc_operations.ShowOperation, app, operation)

    assert result['followed'] == f'followed by Mistral execution {operation} (SUCCESS)'
    assert (result['ended_at'], result['outcome']) == (
        '2026-05-04T10:00:00Z', '3 servers: 1 COMPLETE, 1 FAILED')
    assert result['failed_servers'].machine_readable() == [
        {'server': 'demo-db-2', 'status': 'FAILED', 'exit_code': 3,
         'reason': 'Deployment exited 3', 'tries': 2}]
    assert result['not_created'].machine_readable() == [
        'demo-web-1: Could not start BACKUP on server s3']
    assert result['notices'] == 'posted to 1 subscribed queue(s)'


def _tried(heat, component_id, server, try_number, status, operation_id='op-1'):
    """A run of a rolling operation's try on ``server``, ended as ``status``."""
    operation = operations.Operation(operation_id, USER, '2026-05-04T09:00:00Z', component_id,
                                     runner=operations.FOLLOWED, try_number=try_number,
                                     tries=3)
    before = set(heat.deployments)
    start(heat, transport_for, RunRequest(config_id=component_id, action='BACKUP',
                                          server_ids=(server,), transport='NO_SIGNAL'),
          operation)
    [made] = set(heat.deployments) - before
    heat.deployments[made]['status'] = status
    return made


def test_show_gives_each_runs_try_and_the_runs_in_batches(heat, component, app, mistral):
    first = _tried(heat, component, 's1', 1, 'FAILED')
    second = _tried(heat, component, 's1', 2, 'COMPLETE')
    mistral.executions.add('op-1', workflows.ROLLING_WORKFLOW, batch_size=1, max_failures=0,
                           retries=2)

    result = shown(osc_operations.ShowOperation, app, 'op-1')

    assert {each['run']: each['try'] for each in result['runs'].machine_readable()} == {
        first: '1 of 3', second: '2 of 3'}
    assert (result['runs_in_batches'], result['batch_size'], result['retries']) == (
        'RUNNING', 1, 2)


def test_a_run_tried_once_shows_no_try(component, app):
    operation = _run(app)['operation']

    result = shown(osc_operations.ShowOperation, app, operation)

    assert [each['try'] for each in result['runs'].machine_readable()] == ['', '']


def test_another_workflows_execution_is_no_operation(component, app, mistral):
    mistral.executions.add('op-2', workflows.RETENTION_WORKFLOW)

    made, parsed = command(osc_operations.ShowOperation, app, 'op-2')
    with pytest.raises(osc_exc.CommandError, match='No operation op-2 in this project.'):
        made.take_action(parsed)


def test_cancel_leaves_the_follower_to_record_the_outcome(heat, component, app, mistral):
    operation = _run(app)['operation']

    result = shown(osc_operations.CancelOperation, app, operation)

    assert mistral.executions.updated == []
    assert result['further_batches_stopped'] is False
    assert {each['status'] for each in new_runs(heat)} == {'FAILED'}


def test_cancel_stops_a_rolling_operations_further_batches(heat, component, app, mistral):
    _tried(heat, component, 's1', 1, 'IN_PROGRESS')
    mistral.executions.add('op-1', workflows.ROLLING_WORKFLOW)

    result = shown(osc_operations.CancelOperation, app, 'op-1')

    # The stop, then who stopped it (Mistral takes the two in separate updates).
    assert mistral.executions.updated == [('op-1', 'CANCELLED'), ('op-1', None)]
    assert result['further_batches_stopped'] is True


def test_rerun_failed_runs_again_only_servers_whose_last_try_failed(heat, component, app, mistral):
    _tried(heat, component, 's1', 1, 'FAILED')
    _tried(heat, component, 's1', 2, 'COMPLETE')
    _tried(heat, component, 's2', 1, 'FAILED')
    _tried(heat, component, 's2', 2, 'FAILED')
    mistral.executions.add('op-1', workflows.ROLLING_WORKFLOW, state='SUCCESS')
    before = set(heat.deployments)

    shown(osc_operations.RerunFailedOperation, app, 'op-1')

    assert [heat.deployments[each]['server_id'] for each in set(heat.deployments) - before] \
        == ['s2']
