"""Rolling runs on the real Mistral: the heat_deploy.rolling_v1 workflow, its actions loaded by
Mistral's executor from the installed heat-deploy-runner, runs a component's action on servers
batch after batch, and stops once more servers failed than allowed."""

import json

import pytest

import heat_deploy_runner as deploy
from heat_deploy_runner import workflows
from tests.integration import waiting

FINISHED = ('SUCCESS', 'ERROR', 'CANCELLED')


@pytest.fixture(scope='module')
def rolling(mistral):
    workflows.ensure(mistral)
    workflows.ensure(mistral)  # a second call finds it and makes nothing
    assert [w.name for w in mistral.workflows.list(name=workflows.ROLLING)] == [
        workflows.ROLLING]
    return workflows.ROLLING


@pytest.fixture
def operation_runs(heat, find_transport):
    """A function giving the runs of an operation (a workflow execution); every run it found
    is deleted afterwards."""
    seen = {}

    def runs_of(execution_id):
        runs = [run for run in heat.software_deployments.list()
                if (run.input_values or {}).get('heat_deploy_dashboard', {}).get(
                    'operation') == execution_id]
        seen.update((run.id, run) for run in runs)
        return runs
    yield runs_of
    for run_id in seen:
        deploy.delete(heat, run_id, find_transport)


def _finished(mistral, execution_id, timeout=120):
    def check():
        execution = mistral.executions.get(execution_id)
        return execution if execution.state in FINISHED else None
    return waiting.wait_for(f'execution {execution_id} to finish', check, timeout)


def test_a_rolling_run_stops_after_a_failure_and_starts_no_more(
        mistral, rolling, demo_resources, operation_runs):
    # ROTATE_KEYS edits wordpress/wp-config, which only the web server has: on the first
    # db server it fails.
    servers = [demo_resources[name] for name in ('web_server', 'db_server_1', 'db_server_2')]
    started = mistral.executions.create(rolling, workflow_input={
        'config_id': demo_resources['wordpress'], 'name': 'wordpress',
        'action_name': 'ROTATE_KEYS', 'server_ids': servers, 'started_by': 'demo',
        'input_values': {'pause_seconds': 1}, 'batch_size': 1, 'max_failures': 0})
    done = _finished(mistral, started.id)
    assert done.state == 'ERROR'
    assert done.state_info == ('Stopped: servers failed: 1, more than the 0 allowed; '
                               'not started: 1.')
    runs = {run.server_id: run for run in operation_runs(started.id)}
    assert set(runs) == set(servers[:2]), 'the third server was started'
    assert runs[servers[0]].status == 'COMPLETE'
    assert runs[servers[1]].status == 'FAILED'
    # One batch after the other: the second batch was started once the wait for the first
    # had seen every run of it finished.
    tasks = mistral.tasks.list(workflow_execution_id=started.id)
    [first_wait] = [task for task in tasks if task.name == 'wait_batch'
                    and json.loads(task.published)['i'] == 1]
    [second_start] = [task for task in tasks if task.name == 'run_batch'
                      and runs[servers[1]].id in json.loads(task.published)['deployment_ids']]
    assert second_start.created_at >= first_wait.updated_at


def test_a_rolling_run_of_batches_completes_with_every_output(
        mistral, rolling, demo_resources, operation_runs):
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]
    started = mistral.executions.create(rolling, workflow_input={
        'config_id': demo_resources['mysql'], 'name': 'mysql', 'action_name': 'BACKUP',
        'server_ids': servers, 'started_by': 'demo', 'input_values': {'pause_seconds': 0},
        'batch_size': 1})
    done = _finished(mistral, started.id)
    assert done.state == 'SUCCESS', done.state_info
    runs = operation_runs(started.id)
    assert sorted(run.server_id for run in runs) == sorted(servers)
    for run in runs:
        assert run.status == 'COMPLETE', run.status_reason
        assert run.output_values['backup_file'].startswith('backups/backup-')
        assert run.input_values['heat_deploy_dashboard']['started_by'] == 'demo'
