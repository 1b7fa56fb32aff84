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

"""Rolling runs on the real Mistral: the heat_deploy.rolling_v2 workflow, its actions loaded by
Mistral's executor from the installed heat-deploy-runner, runs a component's action on servers
batch after batch, and stops once more servers failed than allowed; a secret input goes to
the server through the project's Swift, never through Mistral."""

import hashlib
import json
import time
import uuid

import pytest

from devcloud import credentials
import heat_deploy_runner as runner
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows import secret_store
from tests.integration import corpus
from tests.integration import dashboard
from tests.integration import waiting

FINISHED = ('SUCCESS', 'ERROR', 'CANCELLED')


@pytest.fixture(scope='module')
def rolling(mistral, session):
    made = workflows.ensure(mistral, session.get_project_id())
    # A second call finds it and makes nothing.
    assert workflows.ensure(mistral, session.get_project_id()) == made
    assert [w.id for w in mistral.workflows.list(name=workflows.ROLLING_WORKFLOW)] == [made]
    return made


@pytest.fixture
def operation_runs(heat, find_transport):
    """A function giving the runs of an operation (a workflow execution); every run it found
    is deleted afterwards."""
    seen = {}

    def runs_of(execution_id):
        runs = [run for run in heat.software_deployments.list()
                if getattr(runner.operation_of_run(run), 'id', None) == execution_id]
        seen.update((run.id, run) for run in runs)
        return runs
    yield runs_of
    for run_id in seen:
        runner.delete(heat, run_id, find_transport)


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
    [first_judged] = [task for task in tasks if task.name == 'judge'
                      and json.loads(task.published)['i'] == 1]
    [second_start] = [task for task in tasks if task.name == 'run_batch'
                      and runs[servers[1]].id in json.loads(task.published)['deployment_ids']]
    assert second_start.created_at >= first_judged.updated_at


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


def test_from_run_action_a_rolling_run_stops_and_its_page_says_why(
        user, demo_resources, operation_runs):
    """Run Action with batches on the real dashboard: the operation's page follows the
    Mistral execution to its end and names the servers it did not start."""
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]
    form = f'/project/components/{demo_resources["mysql"]}/run/'
    assert 'Servers at a time' in user.get(form).text

    # No such table: the backup fails (exit 3) on the first server, so the second is left.
    response = user.post(form, {
        'action': 'BACKUP', 'servers': servers, 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '10', 'batch_size': '1', 'max_failures': '0',
        'input__backup_dir': 'rolling', 'input__retention_days': '5',
        'input__tables': 'no_such_table', 'input__labels': '{}', 'input__pause_seconds': '0',
        'input__backup_file': ''})

    assert 'Started BACKUP on 2 servers, 1 at a time.' in dashboard.messages(response.text)
    execution_id = response.url.rstrip('/').rsplit('/', 1)[1]

    def stopped():
        page = user.get(f'/project/deployments/operations/{execution_id}/')
        return page if 'hdd-rolling-not-started' in page.text else None
    page = waiting.wait_for('the rolling run to stop', stopped, timeout=120)
    assert ('Stopped: servers failed: 1, more than the 0 allowed; not started: 1.'
            in page.text)
    [run] = operation_runs(execution_id)
    assert (run.server_id, run.status) == (servers[0], 'FAILED')


def test_another_project_and_the_admin_can_neither_see_nor_stop_a_rolling_run(
        cloud, user, mistral, rolling, demo_resources, operation_runs):
    """Mistral shows an admin every project's executions: the page must not. The demo user
    is the positive control, and stops it."""
    # A server no agent reads: its run stays in progress, and so does the rolling run.
    started = mistral.executions.create(rolling, workflow_input={
        'config_id': demo_resources['mysql'], 'name': 'mysql', 'action_name': 'BACKUP',
        'server_ids': ['no-agent-reads-this', demo_resources['db_server_2']],
        'started_by': 'demo', 'batch_size': 1, 'timeout_minutes': 5})
    page = f'/project/deployments/operations/{started.id}/'
    waiting.wait_for('the first batch to start', lambda: operation_runs(started.id))
    for name, password in ((credentials.OTHER_USER, credentials.OTHER_PASSWORD),
                           ('admin', credentials.ADMIN_PASSWORD)):
        intruder = corpus.User(cloud.layout.dashboard_url, name, password)
        shown = intruder.get(page)
        assert shown.status_code == 404 or 'not found' in shown.text.lower(), name
        assert 'no-agent-reads-this' not in shown.text
        intruder.post(page, {'action': 'operation__cancel_all'})
        assert mistral.executions.get(started.id).state == 'RUNNING', name

    user.post(page, {'action': 'operation__cancel_all'})

    assert _finished(mistral, started.id, timeout=30).state == 'CANCELLED'
    [run] = operation_runs(started.id)
    assert run.server_id == 'no-agent-reads-this'
    assert run.status == 'FAILED' and run.status_reason.startswith('Cancelled by demo')


def test_a_secret_given_to_a_run_in_batches_reaches_the_server_but_never_mistral(
        user, mistral, swift, demo_resources, operation_runs):
    """Run Action with batches and a secret input (wordpress's key_secret): Mistral holds a
    reference only, the secret waits in the project's Swift for as long as the run may need
    it, and the server gets it (the key's fingerprint is its output)."""
    key = f'k3y-{uuid.uuid4().hex}'
    response = user.post(f'/project/components/{demo_resources["wordpress"]}/run/', {
        'action': 'ROTATE_KEYS', 'servers': [demo_resources['web_server']],
        'transport': 'TEMP_URL_SIGNAL', 'timeout': '10', 'batch_size': '1',
        'max_failures': '0', 'input__db_dsn': 'mysql://db/demo', 'input__cache_size_mb': '64',
        'input__pause_seconds': '0', 'input__key_secret': key})
    assert 'Started ROTATE_KEYS on 1 server, 1 at a time.' in dashboard.messages(response.text)
    execution_id = response.url.rstrip('/').rsplit('/', 1)[1]

    execution = mistral.executions.get(execution_id)
    assert key not in execution.input
    ref = json.loads(execution.input)['secret_ref']
    headers, body = swift.get_object(secret_store.CONTAINER, ref)
    assert json.loads(body) == {'key_secret': key}
    # Swift removes it by itself once the run cannot need it: one batch of 10 minutes + 1 h.
    assert 0 < int(headers['x-delete-at']) - time.time() <= 600 + 3600

    assert _finished(mistral, execution_id).state == 'SUCCESS'
    assert key not in mistral.executions.get(execution_id).input
    [run] = operation_runs(execution_id)
    assert run.status == 'COMPLETE', run.status_reason
    assert run.output_values['key_fingerprint'] == hashlib.sha256(key.encode()).hexdigest()[:12]
    page = user.get(f'/project/deployments/{run.id}/')
    assert page.status_code == 200 and key not in page.text
