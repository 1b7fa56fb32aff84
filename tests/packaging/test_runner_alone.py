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

"""The runner's wheel, installed alone with its [mistral] and [cli] extras, as on a Mistral host
or an operator's laptop: no Horizon, no Django, and every action and command it declares
loads.

A Mistral host installs heat-deploy-runner into Mistral's environment, never Horizon
(runner/README.md). This builds the runner's wheel as alone.py does (its copy of
the sources, its build env), installs it into a venv of its own under build/packaging/ that
sees nothing of the project's venv (pip install -c constraints.txt '<wheel>[mistral,cli]'), runs
pip check, and then, with that venv's python (-I, from a folder outside the source tree),
imports every module of heat_deploy_runner, finds neither Django nor Horizon (nor the plugin),
loads every entry point the installed distribution declares (the Mistral actions, the
`openstack` commands), and lists
the workflows shipped as package data. The source's entry points and workflows are those of
the installed distribution, so that an entry point or a workflow lost on the way fails too.

venv-runner/ is kept, and reused, and the wheel reinstalled into it, on the same terms as
alone.py's venv/ (see its docstring). A new one downloads mistral-lib and the
clients' dependencies.
"""

import json
import time

import pytest

from tests.packaging import alone

VENV = alone.WORK / 'venv-runner'
VENV_STAMP = alone.WORK / 'venv-runner.json'
PROBE_DIR = alone.WORK / 'probe-runner'
SOURCE = alone.REPO / alone.PROJECTS[alone.RUNNER]
EXTRA = '[mistral,cli]'
# Never on a Mistral host for the runner's sake: the dashboard's side, as distributions and
# as the top-level modules they bring.
FORBIDDEN = {'django', 'horizon', 'heat-deploy-dashboard', 'heat-dashboard'}
# Required by pbr, and left out of constraints.txt as pip freeze leaves it out.
UNPINNED = {'setuptools'}
FORBIDDEN_MODULES = ('django', 'horizon', 'openstack_dashboard', 'openstack_auth',
                     'heat_deploy_dashboard', 'heat_dashboard')

# Run by the clean venv's python: what it can import and load, as JSON on stdout.
PROBE = '''
import importlib
import importlib.metadata
import importlib.util
import json
import pathlib
import pkgutil
import sys
import traceback

import heat_deploy_runner

failed = {}
for module in pkgutil.walk_packages(heat_deploy_runner.__path__, 'heat_deploy_runner.',
                                    onerror=lambda name: None):
    try:
        importlib.import_module(module.name)
    except Exception:
        failed[module.name] = traceback.format_exc()
entry_points = []
for entry_point in importlib.metadata.distribution('heat-deploy-runner').entry_points:
    row = {'group': entry_point.group, 'name': entry_point.name, 'value': entry_point.value}
    try:
        row['loaded'] = repr(entry_point.load())
    except Exception:
        row['error'] = traceback.format_exc()
    entry_points.append(row)
package = pathlib.Path(heat_deploy_runner.__file__).parent
forbidden = %r
print(json.dumps({
    'package': heat_deploy_runner.__file__,
    'modules': sorted(name for name in sys.modules if name.startswith('heat_deploy_runner')),
    'failed': failed,
    'entry_points': entry_points,
    'workflows': sorted(path.name for path in (package / 'workflows').glob('*.yaml')),
    'findable': [name for name in forbidden if importlib.util.find_spec(name) is not None],
    'imported': sorted(name for name in sys.modules if name.split('.')[0] in forbidden),
    'sys_path': sys.path,
}))
''' % (FORBIDDEN_MODULES,)


def _declared_entry_points():
    """(group, name, value) of every entry point runner/pyproject.toml declares."""
    project = alone.toml(SOURCE / 'pyproject.toml')['project']
    groups = dict(project.get('entry-points', {}), console_scripts=project.get('scripts', {}),
                  gui_scripts=project.get('gui-scripts', {}))
    return sorted((group, name, value) for group, entries in groups.items()
                  for name, value in entries.items())


@pytest.fixture(scope='module')
def runner_venv():
    """The runner's wheel built and its venv ready, build/packaging/ locked meanwhile."""
    with alone.alone_in_venv(alone.RUNNER, VENV, VENV_STAMP, EXTRA,
                             'venv of the runner alone') as timings:
        yield timings


def test_the_runner_installs_alone_without_horizon_and_loads_its_actions(runner_venv):
    timings = runner_venv

    started = time.monotonic()
    alone.run(alone.PIP + ['--python', alone.python(VENV), 'check'])
    timings['pip check of the runner alone'] = time.monotonic() - started

    started = time.monotonic()
    PROBE_DIR.mkdir(parents=True, exist_ok=True)
    probe = json.loads(alone.run([alone.python(VENV), '-I', '-c', PROBE], timeout=300,
                                 cwd=PROBE_DIR, env=alone.environment(PROBE_DIR)).stdout)
    timings['runner imported, its entry points loaded'] = time.monotonic() - started
    alone.report_timings(timings, name='timings-runner.json')

    # The runner, its declared dependencies, mistral-lib and the openstack client, each pinned
    # by constraints.txt
    # (but setuptools): no Django, no Horizon, no pip.
    names = alone.names_in(VENV)
    assert {alone.RUNNER, 'mistral-lib', 'python-openstackclient'} <= names
    assert names & FORBIDDEN == set(), names & FORBIDDEN
    assert names & alone.PROJECT_ONLY == set()
    assert 'pip' not in names
    unpinned = names - {alone.RUNNER} - UNPINNED - alone.pinned()
    assert unpinned == set(), f'not pinned by constraints.txt: {unpinned}'

    # From the installed wheel, every module importing, nothing of Django or Horizon there.
    assert alone.inside(probe['package'], VENV), probe['package']
    alone.assert_isolated(probe['sys_path'], VENV)
    assert probe['failed'] == {}, '\n'.join(probe['failed'].values())
    sources = {'.'.join(path.relative_to(SOURCE).with_suffix('').parts).removesuffix(
        '.__init__') for path in (SOURCE / 'heat_deploy_runner').rglob('*.py')}
    assert sources <= set(probe['modules']), sources - set(probe['modules'])
    assert probe['findable'] == [], probe['findable']
    assert probe['imported'] == [], probe['imported']

    # Every entry point loads, and they are those the source declares.
    failed = [f'{each["group"]} {each["name"]} = {each["value"]}\n{each["error"]}'
              for each in probe['entry_points'] if 'error' in each]
    assert failed == [], '\n'.join(failed)
    assert sorted((each['group'], each['name'], each['value'])
                  for each in probe['entry_points']) == _declared_entry_points()

    # The workflows, as package data: all of the source's.
    assert probe['workflows'] == sorted(
        path.name for path in (SOURCE / 'heat_deploy_runner' / 'workflows').glob('*.yaml'))
