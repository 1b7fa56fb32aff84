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

"""One way to do each thing, across the dashboard and the runner: a second way would drift
from the first (a secret kept without its undo, a run in batches started without its
notices' context)."""

import pathlib
import re

import heat_deploy_dashboard
import heat_deploy_runner

DASHBOARD = pathlib.Path(heat_deploy_dashboard.__file__).resolve().parent
RUNNER = pathlib.Path(heat_deploy_runner.__file__).resolve().parent


def _calling(pattern):
    """The modules of both packages whose code matches ``pattern``, as package/path."""
    found = set()
    for package in (DASHBOARD, RUNNER):
        for path in package.rglob('*.py'):
            if re.search(pattern, path.read_text(encoding='utf-8')):
                found.add(f'{package.name}/{path.relative_to(package)}')
    return found


def test_secret_inputs_are_kept_only_through_the_runners_seam():
    # secret_store.keep names, undoes and bounds them, for the dashboard and the command
    # line alike (both hand it the project's Object Storage, or None); nothing else puts them.
    assert _calling(r'secret_store\.put\(') == set()
    assert _calling(r'secret_store\.keep\(') == {
        'heat_deploy_runner/workflows/rolling.py', 'heat_deploy_runner/scheduling/schedules.py'}


def test_runs_in_batches_start_only_through_the_runners_start():
    assert _calling(r'\brolling_start\(') == {
        'heat_deploy_dashboard/api/mistral.py',
        'heat_deploy_dashboard/content/run_action/forms.py'}
    assert _calling(r'\brolling\.start\(') == {
        'heat_deploy_dashboard/api/mistral.py', 'heat_deploy_runner/osc/component_run.py'}


def test_a_rolling_workflows_input_is_read_only_by_run_request():
    # Its keys are a released shape (RunRequest.workflow_input); a panel or a command reads
    # them as Asked (an Execution's asked), never key by key.
    assert _calling(r'workflow_input\.get\(|workflow_input\[|asked\.get\(') == {
        'heat_deploy_runner/running/run_request.py'}
    assert _calling(r'json\.loads\([\w.]*\.input\b') == {
        'heat_deploy_runner/workflows/executions.py'}


def test_a_schedule_of_retention_is_told_apart_only_by_its_kind():
    # runner.scheduling.schedule_kinds keeps all that sets it apart; other code asks a kind what
    # it does (runs_on_servers, unchangeable, trigger_input), never whether it is retention.
    assert _calling(r"is_retention|\.retention\b|RETENTION_KIND|(record|variables)"
                    r"(\.get\(|\[)'kind'") == {
        'heat_deploy_runner/scheduling/schedule_kinds.py'}


def _counted(pattern):
    """{package/path: how often its code matches ``pattern``}, of both packages."""
    found = {}
    for package in (DASHBOARD, RUNNER):
        for path in package.rglob('*.py'):
            count = len(re.findall(pattern, path.read_text(encoding='utf-8')))
            if count:
                found[f'{package.name}/{path.relative_to(package)}'] = count
    return found


_SCHEDULES = 'heat_deploy_runner/scheduling/schedules.py'
_WORKFLOWS = 'heat_deploy_runner/workflows/__init__.py'
# Every call of python-mistralclient's v2 client the product makes, written once: where.
# The dashboard's api/mistral.py makes the client from the request and the command line from
# its session, and both call the runner's function that makes the call.
MISTRAL_CALLS = {
    'environments.list': {_SCHEDULES: 1}, 'environments.get': {_SCHEDULES: 1},
    'environments.create': {_SCHEDULES: 1}, 'environments.update': {_SCHEDULES: 1},
    'environments.delete': {_SCHEDULES: 1},
    'cron_triggers.list': {_SCHEDULES: 1}, 'cron_triggers.create': {_SCHEDULES: 1},
    'cron_triggers.delete': {_SCHEDULES: 1},
    'workflows.list': {_WORKFLOWS: 1}, 'workflows.create': {_WORKFLOWS: 1},
    # A run in batches, and the sweep of a start Heat left unanswered: two workflows.
    'executions.create': {'heat_deploy_runner/workflows/rolling.py': 1,
                          'heat_deploy_runner/pruning/orphans.py': 1},
    'executions._create': {'heat_deploy_runner/following/followers.py': 1},
    'executions.get': {'heat_deploy_runner/workflows/executions.py': 1},
    # A cancel's two updates: Mistral takes the state and the description apart.
    'executions.update': {'heat_deploy_runner/workflows/rolling.py': 2},
    # The project's latest operations in batches (the Schedules panel's), and those still
    # running (a schedule's firing).
    'executions.list': {'heat_deploy_runner/workflows/executions.py': 1, _SCHEDULES: 1},
}


def test_each_mistral_call_is_written_once_in_the_runner():
    for call, where in MISTRAL_CALLS.items():
        assert _counted(r'\.' + re.escape(call) + r'\b') == where, call
    # And no other call of it.
    made = {found.group(1) for package in (DASHBOARD, RUNNER) for path in package.rglob('*.py')
            for found in re.finditer(r'\.((?:environments|cron_triggers|workflows|executions)'
                                     r'\.\w+)\(', path.read_text(encoding='utf-8'))}
    assert made <= set(MISTRAL_CALLS)


def test_object_storage_and_zaqar_are_called_by_the_runner_only_each_kind_by_one_module():
    # Signal objects (tempurl), secret inputs (secret_store), archived runs (archive).
    assert _calling(r'\b(put|get|head|delete)_(object|container)\(') == {
        'heat_deploy_runner/signalling/tempurl.py', 'heat_deploy_runner/workflows/secret_store.py',
        'heat_deploy_runner/pruning/archive.py'}
    # Signal queues (zaqar), notices' subscriptions and queues (notices).
    assert _calling(r'\b_?zaqar\.(queue|subscriptions?)\(') == {
        'heat_deploy_runner/signalling/zaqar.py', 'heat_deploy_runner/following/notices.py'}


def test_the_dashboard_calls_the_runner_for_each_mistral_and_object_storage_call():
    # Its api/ makes the clients (traced, pooled) and hands them to the runner's functions.
    assert {path for path in _calling(
        r'environments\.get|cron_triggers\.create|executions\.create|put_object')
        if path.startswith('heat_deploy_dashboard/')} == set()
