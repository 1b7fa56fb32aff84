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

"""Operations followed to their end with no page open, on the real cloud: Mistral records a
form run's timeout in Heat on time and applies a Zaqar result nobody polls for; a schedule
firing every minute tries a failing server again and, after its last try, Zaqar posts one
notice to the webhook subscribed to the schedule, naming the server and its exit code.

A run whose result waits in Swift with nobody to apply it (Heat's listing still shows it
running) is settled by the next firing, which then runs that server, not left out as busy.

No browser and no status poll run here: the only readers are Heat's own API and Mistral's.
The run that never reports starts first and is checked last, so that its minute passes
while the others run.
"""

import datetime
import json
import re

import pytest

from devcloud import servers
import heat_deploy_runner as runner
from heat_deploy_runner.configs import derived
from heat_deploy_runner.following import notices
from heat_deploy_runner.signalling import deadlines
from heat_deploy_runner.signalling import tempurl
from heat_deploy_runner import workflows
from tests.conftest import schedule_operations
from tests.integration import corpus
from tests.integration import dashboard
from tests.integration import test_schedules
from tests.integration import waiting
from tests.integration import webhook as webhook_mod

# Its operations wait minutes on Mistral's tries and notices.
pytestmark = pytest.mark.second_cloud


@pytest.fixture
def webhook():
    """(the address of a local webhook receiver, the JSON bodies it has received)."""
    with webhook_mod.receiving() as found:
        yield found


@pytest.fixture(scope='module')
def made_operations(heat, find_transport):
    """A list for the ids of the operations the module starts from the form: their runs are
    deleted afterwards (later modules count a server's deployments)."""
    made = []
    yield made
    for operation_id in made:
        for run in _runs_of(heat, operation_id):
            runner.delete(heat, run.id, find_transport)


@pytest.fixture(scope='module', autouse=True)
def never_reporting(user, heat, demo_resources, made_operations):
    """(the operation id, run, deadline and server of a form run whose script sleeps past
    its one minute: its result comes after the deadline, to a TempURL that has expired)."""
    server = demo_resources['monitor_server']
    response = user.post(f'/project/components/{demo_resources["monitoring"]}/run/', {
        'action': 'CHECK', 'servers': [server], 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '1', 'input__threshold_percent': '90', 'input__pause_seconds': '65',
        'input__path': '.'})
    assert 'Started CHECK on 1 server.' in dashboard.messages(response.text), (
        corpus.form_errors(response.text), corpus.alerts(response.text))
    operation_id = _operation_of(response)
    made_operations.append(operation_id)
    [run] = _runs_of(heat, operation_id)
    deadline = deadlines.deadline(derived.as_dict(heat.software_configs.get(run.config_id)))
    return operation_id, run, deadline, server


def _rotate_keys_form(servers, **fields):
    return dict({'action': 'ROTATE_KEYS', 'servers': servers, 'transport': 'TEMP_URL_SIGNAL',
                 'timeout': '10', 'input__db_dsn': 'mysql://db/demo',
                 'input__cache_size_mb': '64', 'input__pause_seconds': '0',
                 'input__key_secret': ''}, **fields)


def _operation_of(response):
    found = re.search(r'/project/deployments/operations/([0-9a-f-]{36})/', response.url)
    assert found, response.url
    return found.group(1)


def _follower(mistral, operation_id, timeout=120):
    """The follow execution of the operation, once it has ended."""
    def ended():
        execution = mistral.executions.get(operation_id)
        return execution if execution.state not in workflows.RUNNING_STATES else None
    found = waiting.wait_for(f'the follower of {operation_id}', ended, timeout)
    assert found.workflow_name == workflows.FOLLOW_WORKFLOW
    return found


def _runs_of(heat, operation_id):
    return [heat.software_deployments.get(run.id) for run in heat.software_deployments.list()
            if (run.input_values or {}).get('heat_deploy_dashboard', {}).get('operation')
            == operation_id]


def test_a_zaqar_result_is_applied_with_no_page_open(user, heat, mistral, demo_resources,
                                                     made_operations):
    server = demo_resources['web_server']
    response = user.post(f'/project/components/{demo_resources["wordpress"]}/run/',
                         _rotate_keys_form([server], transport='ZAQAR_SIGNED_URL_SIGNAL'))
    operation_id = _operation_of(response)
    made_operations.append(operation_id)
    [run] = _runs_of(heat, operation_id)
    # Heat never reads a Zaqar queue: only the follower's claim ends this run.
    ended = waiting.wait_for('the Zaqar result applied', lambda: (
        lambda found: found if found.status != 'IN_PROGRESS' else None)(
            heat.software_deployments.get(run.id)), timeout=120, interval=2)
    assert ended.status == 'COMPLETE', ended.status_reason
    assert 'rotated the secret keys' in ended.output_values['deploy_stdout']
    assert json.loads(_follower(mistral, operation_id).output)['outcome']['counts'] == {
        'COMPLETE': 1}


@pytest.fixture
def one_table_on_one_server(cloud):
    """A table only demo-db-1 holds: a BACKUP of it is COMPLETE there, and fails (exit 3, "no
    such table") on demo-db-2, each time, as a server whose state went wrong would."""
    table = (servers.root(cloud.layout, 'demo-db-1')
             / 'var/lib/heat-config/heat-config-script/mysql/data/unattended.table')
    table.write_text('rows of unattended\n')
    yield table.stem
    table.unlink()


def _result_nobody_applied(heat, swift, find_transport, config_id, server, cleanup):
    """A run on the server whose result waits in Swift with no follower and no page to apply
    it: Heat's listing shows it running."""
    [run] = runner.start(heat, find_transport, runner.RunRequest(
        config_id=config_id, action='BACKUP', server_ids=(server,), name='unfollowed',
        input_values={'pause_seconds': 0})).created
    cleanup.append(run)
    # Heat makes the signal object empty; the server's PUT fills it.
    location = tempurl.signal_location(derived.derived_input_values(run.config))
    waiting.wait_for('its result in Swift', lambda: swift.head_object(*location).get(
        'content-length') != '0', timeout=90, interval=1)
    [row] = [each for each in heat.software_deployments.list(server_id=server)
             if each.id == run.id]
    assert row.status == 'IN_PROGRESS'
    return run


def _plan(mistral, operation_id):
    """What the firing's plan decided (its batches and the servers it left out as busy)."""
    # Mistral lists tasks without their results.
    [task] = [each for each in mistral.tasks.list(workflow_execution_id=operation_id)
              if each.name == 'plan']
    return json.loads(mistral.tasks.get(task.id).result)


def test_a_schedule_tries_a_failing_server_three_times_then_notifies_once(
        user, heat, swift, mistral, zaqar, find_transport, demo_resources, made_schedules,
        webhook, one_table_on_one_server, cleanup):
    url, received = webhook
    good, bad = demo_resources['db_server_1'], demo_resources['db_server_2']
    unapplied = _result_nobody_applied(heat, swift, find_transport, demo_resources['mysql'],
                                       good, cleanup)
    _page, before = test_schedules._schedule_rows(user)
    response = user.post(f'/project/components/{demo_resources["mysql"]}/run/', {
        'action': 'BACKUP', 'servers': [good, bad], 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '10', 'repeat': test_schedules.EVERY_MINUTE, 'retries': '2',
        'retry_delay': '10', 'input__backup_dir': 'unattended', 'input__retention_days': '5',
        'input__tables': one_table_on_one_server, 'input__labels': '{}',
        'input__pause_seconds': '0', 'input__backup_file': ''})
    assert 'Scheduled BACKUP on 2 servers.' in dashboard.messages(response.text)
    [name] = set(test_schedules._schedule_rows(user)[1]) - set(before)
    made_schedules.append(name)
    notices.subscribe(zaqar, name, notices.ON_FAILURE, url)

    operation_id = waiting.wait_for(
        'the first firing', lambda: next(iter(schedule_operations(mistral, name)), None),
        timeout=test_schedules.FIRST_FIRING_SECONDS + 30)
    ended = waiting.wait_for('the operation to end', lambda: (
        lambda found: found if found.state not in workflows.RUNNING_STATES else None)(
            mistral.executions.get(operation_id)), timeout=120, interval=1)
    # Paused before the next minute's firing (pausing deletes the trigger and its trust).
    user.post('/project/schedules/', {'action': f'schedules__pause__{name}'})
    # The run nobody applied was settled (COMPLETE) by the firing's look, not taken as busy.
    assert _plan(mistral, operation_id)['skipped'] == []
    assert heat.software_deployments.get(unapplied.id).status == 'COMPLETE'
    # Recorded, then failed as any operation with more failures than allowed (0).
    assert (ended.state, ended.state_info) == (
        'ERROR', 'Servers failed: 1, more than the 0 allowed.')
    assert json.loads(ended.output)['outcome']['counts'] == {'COMPLETE': 1, 'FAILED': 1}

    runs = _runs_of(heat, operation_id)
    tries = sorted(run.input_values['heat_deploy_dashboard'].get('try', 1)
                   for run in runs if run.server_id == bad)
    assert tries == [1, 2, 3]
    assert all(run.status == 'FAILED' for run in runs if run.server_id == bad)
    assert [run.status for run in runs if run.server_id == good] == ['COMPLETE']
    page = user.get(f'/project/deployments/operations/{operation_id}/')
    assert '3 of 3' in page.text

    waiting.wait_for('the notice', lambda: received, timeout=30)
    ours = [each['body'] for each in received if each['body']['operation'] == operation_id]
    assert len(ours) == 1, received
    [notice] = ours
    [failed] = notice['failed_servers']
    assert (failed['server_id'], failed['tries'], failed['exit_code']) == (bad, 3, 3)
    assert failed['server_name'] == 'demo-db-2'
    assert 'no such table: unattended' in failed['stderr']
    assert notice['link'].endswith(f'/project/deployments/operations/{operation_id}/')


def test_run_action_leaves_out_a_server_still_running_but_settles_a_waiting_result_first(
        user, heat, swift, find_transport, demo_resources, made_operations, cleanup):
    waiting_result, busy = demo_resources['db_server_1'], demo_resources['db_server_2']
    unapplied = _result_nobody_applied(heat, swift, find_transport, demo_resources['mysql'],
                                       waiting_result, cleanup)
    [running] = runner.start(heat, find_transport, runner.RunRequest(
        config_id=demo_resources['mysql'], action='BACKUP', server_ids=(busy,),
        name='still-running', input_values={'pause_seconds': 60})).created
    cleanup.append(running)

    response = user.post(f'/project/components/{demo_resources["mysql"]}/run/', {
        'action': 'BACKUP', 'servers': [waiting_result, busy], 'leave_out_busy': 'on',
        'transport': 'TEMP_URL_SIGNAL', 'timeout': '10', 'input__backup_dir': 'unattended',
        'input__retention_days': '5', 'input__tables': '', 'input__labels': '{}',
        'input__pause_seconds': '0', 'input__backup_file': ''})

    said = dashboard.messages(response.text)
    assert 'Started BACKUP on 1 server.' in said, (said, corpus.form_errors(response.text))
    assert f'Left out, still running an earlier run: demo-db-2 ({busy[:8]}).' in said
    operation_id = _operation_of(response)
    made_operations.append(operation_id)
    assert [run.server_id for run in _runs_of(heat, operation_id)] == [waiting_result]
    # Its result applied by the look that decided it was not busy.
    assert heat.software_deployments.get(unapplied.id).status == 'COMPLETE'
    assert heat.software_deployments.get(running.id).status == 'IN_PROGRESS'


def test_a_form_run_that_never_reports_is_timed_out_in_heat_with_no_page_open(
        heat, mistral, never_reporting):
    operation_id, run, deadline, server = never_reporting
    # heatclient's show, as any script would: it records no timeout of its own.
    ended = waiting.wait_for('the timeout recorded', lambda: (
        lambda found: found if found.status != 'IN_PROGRESS' else None)(
            heat.software_deployments.get(run.id)), timeout=150, interval=2)
    recorded_at = datetime.datetime.now(datetime.timezone.utc)
    assert ended.status == 'FAILED'
    assert ended.status_reason.startswith('Timed out: ')
    assert (recorded_at - deadline).total_seconds() <= 60
    outcome = json.loads(_follower(mistral, operation_id).output)['outcome']
    assert outcome['counts'] == {'FAILED': 1}
    assert outcome['failed'][0]['server_id'] == server
    assert outcome['failed'][0]['reason'].startswith('Timed out: ')
