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

"""The wheel, installed alone with its declared dependencies, serves every page of the plugin;
and so it does beside heat-dashboard, the official Heat plugin.

`pip install .` into an existing Horizon must bring everything the plugin imports. This builds
the two wheels of this repository (pip wheel --no-deps): heat-deploy-runner (runner/, which
the plugin requires, and which is on no index) and the plugin's. It installs them into a venv
of its own under build/packaging/ that sees nothing of the project's venv, as an operator
would, both wheels named (pip install -c constraints.txt <runner wheel> <plugin wheel>), runs
pip check, and then, with that venv's python and the repository off sys.path, renders every
page of the plugin under Horizon's test settings with the plugin enabled from the installed
package (render_panels.py), and has a user without roles refused the Deploy form.

Then the same Horizon gets heat-dashboard (pip install -c constraints.txt heat-dashboard, in a
copy of that venv, so that the venv of the wheels alone stays as it was): pip check again, and
every page of the plugin rendered with both plugins enabled, heat-dashboard's enabled files and
its _1699 settings file applied before ours, twice: with its policy files copied where that
file names them (its registration of the "orchestration" scope is kept), and without (ours
takes its place, and still refuses a user without roles). heat-dashboard's Stacks page is
rendered in both, its listing stood in. The two renders run side by side.

test_runner_alone.py installs the runner's wheel alone, as a Mistral host would, and
test_notify_alone.py the notifier's; the wheels and venvs are made by alone.py.
"""

import pathlib
import shutil
import subprocess
import time

import pytest
from tests.packaging.alone import assert_isolated
from tests.packaging.alone import BESIDE
from tests.packaging.alone import build_wheels
from tests.packaging.alone import clean_venv
from tests.packaging.alone import DASHBOARD
from tests.packaging.alone import distributions
from tests.packaging.alone import environment
from tests.packaging.alone import HEAT_DASHBOARD
from tests.packaging.alone import HEAT_DASHBOARD_MODES
from tests.packaging.alone import HERE
from tests.packaging.alone import inside
from tests.packaging.alone import load
from tests.packaging.alone import locked
from tests.packaging.alone import names_in
from tests.packaging.alone import PANELS
from tests.packaging.alone import pinned
from tests.packaging.alone import PIP
from tests.packaging.alone import PROJECT_ONLY
from tests.packaging.alone import python
from tests.packaging.alone import RENDER_DIR
from tests.packaging.alone import report_timings
from tests.packaging.alone import run
from tests.packaging.alone import RUNNER
from tests.packaging.alone import VENV
from tests.packaging.alone import venv_beside_heat_dashboard


def _start_render(venv, mode=''):
    """render_panels.py under venv's python, started; its folder and report."""
    folder = RENDER_DIR / (mode or 'alone')
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    report = folder / 'report.json'
    # -I: no PYTHON* variables, no user site, not even the script's own folder on sys.path;
    # from its folder, outside the source tree.
    process = subprocess.Popen([str(python(venv)), '-I', str(HERE / 'render_panels.py')],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=environment(
                                   folder, RENDER_WORK_DIR=str(folder),
                                   RENDER_REPORT=str(report), RENDER_HEAT_DASHBOARD=mode))
    return process, report


def _finish_render(started):
    process, report = started
    try:
        _stdout, stderr = process.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        process.kill()
        _stdout, stderr = process.communicate()
    return process.returncode, stderr, load(report)


def _assert_pages(returncode, stderr, report, venv):
    """Every page of the plugin answered 200, all of it from the installed wheels in venv, and
    a user without roles was refused the Deploy form."""
    assert report is not None, (
        f'render_panels.py wrote no report (exit {returncode})\n{stderr[-8000:]}')
    failed = [page for page in report.get('pages', []) if page.get('error')]
    assert failed == [] and returncode == 0 and report['passed'], (
        'pages that did not answer as they should:\n'
        + '\n'.join(f'{page["route"]} {page.get("url")} -> {page.get("status")}: '
                    f'{page["error"]}' for page in failed)
        + f'\n--- render_panels.py (exit {returncode})\n{stderr[-8000:]}')

    # Every panel, with its pages.
    assert PANELS <= set(report['panels'])
    rendered = {page['route'].split(':')[0] for page in report['pages']
                if page.get('status') == 200}
    assert set(report['panels']) <= rendered
    routes = {page['route'] for page in report['pages']}
    for panel in PANELS:
        assert {f'{panel}:index', f'{panel}:detail'} <= routes

    # Policy is checked, against files that exist: the test user may deploy, a user without
    # roles may not (403, or a redirect to the login page), nor post the form.
    installed = report['installed']
    assert installed['policy_check_function'] == 'openstack_auth.policy.check'
    assert installed['policy_files_exist'], installed['policy_files']
    refusal = report['refusal']
    assert refusal['default_user'] == 200, refusal
    assert refusal['roles'] == [], refusal
    assert len(refusal['no_roles']) == 2, refusal
    for status, location in zip(refusal['no_roles'], refusal['no_roles_redirects']):
        assert status == 403 or (status == 302 and '/auth/login/' in location), refusal
    assert refusal['trouble'] == [], refusal

    # All of it from the installed wheels.
    assert inside(installed['prefix'], venv)
    assert inside(installed['package'], venv)
    assert len(installed['enabled']) >= len(PANELS) + 1
    for path in installed['enabled'] + installed['panels'] + installed['snippets']:
        assert inside(path, venv), path
    assert_isolated(installed['sys_path'], venv)

    # Nothing but the wheels and their dependencies (and heat-dashboard, where it was added).
    names = distributions(installed['distributions'])
    assert {DASHBOARD, RUNNER} <= names
    assert names & PROJECT_ONLY == set()
    assert 'pip' not in names
    return installed, names


@pytest.fixture(scope='module')
def wheel_and_venv():
    """Both wheels built and the clean venv ready, build/packaging/ locked meanwhile."""
    with locked() as timings:
        started = time.monotonic()
        wheels = build_wheels(RUNNER, DASHBOARD)
        timings['wheels built'] = time.monotonic() - started
        clean_venv(wheels, timings)
        yield wheels, timings


def test_the_wheel_installs_alone_and_serves_every_panel(wheel_and_venv):
    _wheels, timings = wheel_and_venv

    started = time.monotonic()
    run(PIP + ['--python', python(VENV), 'check'])
    timings['pip check'] = time.monotonic() - started

    started = time.monotonic()
    returncode, stderr, report = _finish_render(_start_render(VENV))
    timings['pages rendered'] = time.monotonic() - started
    report_timings(timings)

    installed, names = _assert_pages(returncode, stderr, report, VENV)
    # Alone: no heat-dashboard, the policy files ours, from the installed wheels.
    assert HEAT_DASHBOARD not in names
    assert installed['heat_dashboard'] is None
    assert installed['snippet_warnings'] == []
    for path in installed['policy_files']:
        assert inside(path, VENV), path
    assert 'heat_dashboard_page' not in report


def test_the_wheel_serves_every_panel_beside_heat_dashboard(wheel_and_venv):
    wheels, timings = wheel_and_venv
    since = len(timings)

    venv_beside_heat_dashboard(wheels, timings)
    started = time.monotonic()
    run(PIP + ['--python', python(BESIDE), 'check'])
    timings['pip check beside heat-dashboard'] = time.monotonic() - started

    started = time.monotonic()
    renders = {mode: _start_render(BESIDE, mode) for mode in HEAT_DASHBOARD_MODES}
    results = {mode: _finish_render(render) for mode, render in renders.items()}
    timings['pages rendered beside heat-dashboard, both ways side by side'] = \
        time.monotonic() - started
    report_timings(timings, since)

    # Only heat-dashboard and what it needs were added, each pinned by constraints.txt.
    added = names_in(BESIDE) - names_in(VENV)
    assert HEAT_DASHBOARD in added
    assert added <= pinned(), f'not pinned by constraints.txt: {added - pinned()}'
    assert names_in(VENV) <= names_in(BESIDE)

    for mode, (returncode, stderr, report) in results.items():
        installed, names = _assert_pages(returncode, stderr, report, BESIDE)
        assert names == names_in(BESIDE), mode
        heat_dashboard = installed['heat_dashboard']
        assert heat_dashboard['mode'] == mode
        assert inside(heat_dashboard['package'], BESIDE)
        # Its enabled files, _16*.py, all of them applied, and its _1699 settings file
        # before ours.
        assert [pathlib.Path(each).name[:3] for each in heat_dashboard['enabled']] == \
            ['_16'] * len(heat_dashboard['enabled']) and len(heat_dashboard['enabled']) >= 5
        assert heat_dashboard['panels']
        for path in heat_dashboard['enabled'] + heat_dashboard['panels']:
            assert inside(path, BESIDE), path
        assert [pathlib.Path(each).name for each in installed['snippets']] == [
            '_1699_orchestration_settings.py', '_1799_heat_deploy_dashboard_settings.py']

        conf = pathlib.Path(installed['policy_files_path'])
        if mode == 'policy-copied':
            # heat-dashboard's registration is kept: its own files, where it named them.
            assert installed['policy_files'] == [
                str(conf / 'heat_policy.yaml'), str(conf / 'default_policies' / 'heat.yaml')]
            assert heat_dashboard['policy_files_are_its_own'] == [True, True]
            assert installed['snippet_warnings'] == []
            # ...and in force for heat-dashboard's own actions too: Launch Stack is offered to
            # a member, not to a user without roles.
            page = report['heat_dashboard_page']
            assert page['offers_launch_stack'] and not page['offers_launch_stack_without_roles']
        else:
            # Named but missing: ours take their place, and the log says so for each.
            for path, name in zip(installed['policy_files'],
                                  ('heat_policy.yaml', 'default_policies/heat.yaml')):
                assert inside(path, BESIDE) and path.endswith(
                    'heat_deploy_dashboard/conf/' + name), path
            assert heat_dashboard['policy_files_are_its_own'] == [False, False]
            assert len(installed['snippet_warnings']) == 2, installed['snippet_warnings']
            for warning, name in zip(installed['snippet_warnings'],
                                     ('heat_policy.yaml', 'default_policies/heat.yaml')):
                assert str(conf / name) in warning, warning

        # heat-dashboard's own page, in the same Horizon, with both plugins' panels.
        page = report['heat_dashboard_page']
        assert page['status'] == 200 and page['listing_called'] == 2, page
        assert all(page['shows'].values()), page['shows']
        assert page['trouble'] == [], page
