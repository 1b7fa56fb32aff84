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

"""Mistral's own outages during an operation, on the real cloud: its executor killed (SIGKILL)
during a batch's wait, during a start and during a conclusion, and its engine restarted
during a follow.

Mistral delivers an action at most once, and fails an action whose executor was lost once
its heartbeats stop (the local cloud's [action_heartbeat]: 9 s; a minute for an action no
executor had taken yet); the workflows run such an action again, and an action run again
makes no second run and posts no second notice. So each server runs once, the outcome is
recorded within the heartbeat window plus a minute, and one notice is posted. A service is
frozen (SIGSTOP) where a test needs an action to be caught mid-way, and thawed before the
executor is back.
"""

import contextlib
import json
import os
import signal
import time

import pytest

from heat_deploy_runner import workflows
from tests.integration.command_line import openstack
from tests.integration.test_rolling_runs import operation_runs  # noqa: F401 (a fixture)
from tests.integration.test_rolling_runs import rolling  # noqa: F401 (a fixture)
from tests.integration import waiting
from tests.integration import webhook

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud

# The longest the engine's checker waits for an action's heartbeat (first_heartbeat_timeout),
# and a minute more for the workflow to go on.
RECORDED_WITHIN = 60 + 60


@pytest.fixture(scope='module')
def told(zaqar, demo_resources):
    """The bodies of the notices of mysql's operations, as a subscribed webhook gets them."""
    with webhook.subscribed(zaqar, [demo_resources['mysql']]) as received:
        yield received


def _kill(cloud, service):
    """SIGKILL to the service's processes, as a host lost or the OOM killer would: its tasks
    in flight are lost."""
    proc = cloud.sup.running(service)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@contextlib.contextmanager
def _frozen(cloud, service):
    """The service's processes stopped (SIGSTOP) for the block: its callers wait on it."""
    proc = cloud.sup.running(service)
    os.killpg(proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.killpg(proc.pid, signal.SIGCONT)


def _task_running(mistral, execution_id, name):
    def check():
        return any(task.name == name and task.state == 'RUNNING'
                   for task in mistral.tasks.list(workflow_execution_id=execution_id))
    waiting.wait_for(f'task {name} of {execution_id} to run', check, timeout=60, interval=0.2)
    # Its action is under way on the executor.
    time.sleep(1)


def _ended(mistral, execution_id):
    def check():
        found = mistral.executions.get(execution_id)
        return found if found.state not in workflows.RUNNING_STATES else None
    return waiting.wait_for(f'operation {execution_id} to end', check,
                            timeout=RECORDED_WITHIN + 60, interval=1)


def _backup(mistral, rolling, demo_resources, pause_seconds, batch_size=1):  # noqa: F811
    return mistral.executions.create(rolling, workflow_input={
        'config_id': demo_resources['mysql'], 'name': 'mysql', 'action_name': 'BACKUP',
        'server_ids': [demo_resources['db_server_1'], demo_resources['db_server_2']],
        'started_by': 'demo', 'batch_size': batch_size, 'timeout_minutes': 5,
        'input_values': {'pause_seconds': pause_seconds, 'backup_dir': 'outages'}}).id


def _ran_once_each_and_told_once(mistral, operation_id, runs_of, told, demo_resources):
    ended = _ended(mistral, operation_id)
    assert (ended.state, ended.state_info) == ('SUCCESS', None)
    assert json.loads(ended.output)['outcome']['counts'] == {'COMPLETE': 2}
    assert sorted(run.server_id for run in runs_of(operation_id)) == sorted(
        [demo_resources['db_server_1'], demo_resources['db_server_2']])
    waiting.wait_for('the notice', lambda: any(
        each['body']['operation'] == operation_id for each in told), timeout=30)
    time.sleep(2)
    assert [each['body']['operation'] for each in told].count(operation_id) == 1


def test_an_executor_killed_during_a_batchs_wait_loses_and_doubles_nothing(
        cloud, mistral, rolling, demo_resources, operation_runs, told):  # noqa: F811
    operation_id = _backup(mistral, rolling, demo_resources, pause_seconds=15)
    _task_running(mistral, operation_id, 'wait_batch')

    _kill(cloud, 'mistral-executor')
    cloud.start_service('mistral-executor')

    _ran_once_each_and_told_once(mistral, operation_id, operation_runs, told, demo_resources)


def test_an_executor_killed_during_a_start_loses_and_doubles_nothing(
        cloud, mistral, rolling, demo_resources, operation_runs, told):  # noqa: F811
    # Both servers in one batch: the start makes each one's TempURL in Swift, frozen.
    with _frozen(cloud, 'swift-proxy'):
        operation_id = _backup(mistral, rolling, demo_resources, pause_seconds=1,
                               batch_size=0)
        _task_running(mistral, operation_id, 'run_batch')
        _kill(cloud, 'mistral-executor')
    cloud.start_service('mistral-executor')

    _ran_once_each_and_told_once(mistral, operation_id, operation_runs, told, demo_resources)


def test_an_executor_killed_during_a_conclusion_loses_and_doubles_nothing(
        cloud, mistral, rolling, demo_resources, operation_runs, told):  # noqa: F811
    operation_id = _backup(mistral, rolling, demo_resources, pause_seconds=1,
                           batch_size=0)
    # The conclusion posts its notice to Zaqar, frozen: it waits there.
    with _frozen(cloud, 'zaqar'):
        _task_running(mistral, operation_id, 'conclude')
        _kill(cloud, 'mistral-executor')
    cloud.start_service('mistral-executor')

    _ran_once_each_and_told_once(mistral, operation_id, operation_runs, told, demo_resources)


def test_an_engine_restarted_during_a_follow_loses_and_doubles_nothing(
        cloud, mistral, demo_resources, operation_runs, told):  # noqa: F811
    started = openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP', '--server',
                        'demo-db-1', '--server', 'demo-db-2', '--input', 'pause_seconds=10',
                        '--input', 'backup_dir=outages', '-f', 'json')
    assert started.returncode == 0, started.stderr
    operation_id = json.loads(started.stdout)['operation']
    _task_running(mistral, operation_id, 'wait')

    cloud.stop_service('mistral-engine')
    time.sleep(5)
    cloud.start_service('mistral-engine')

    _ran_once_each_and_told_once(mistral, operation_id, operation_runs, told, demo_resources)
