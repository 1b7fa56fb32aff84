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
        'heat_deploy_runner/rolling.py', 'heat_deploy_runner/schedules.py'}


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
        'heat_deploy_runner/run_request.py'}
    assert _calling(r'json\.loads\([\w.]*\.input\b') == {'heat_deploy_runner/executions.py'}


def test_a_schedule_of_retention_is_told_apart_only_by_its_kind():
    # runner.schedule_kinds keeps all that sets it apart; other code asks a kind what it
    # does (runs_on_servers, unchangeable, trigger_input), never whether it is retention.
    assert _calling(r"is_retention|\.retention\b|RETENTION_KIND|(record|variables)"
                    r"(\.get\(|\[)'kind'") == {
        'heat_deploy_runner/schedule_kinds.py'}
