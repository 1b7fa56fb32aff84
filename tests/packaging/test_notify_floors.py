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

"""heat-deploy-notify on an image's Python, with the oldest dependencies it allows: its wheel
installed on Python 3.9 (its requires-python; CentOS Stream 9's) with each dependency pinned
at the floor notify/pyproject.toml gives, and both programs working there.
heat-deploy-script-hook sends a running script's snapshots to a live target;
heat-deploy-notify posts a result through a signed URL, a 503 tried again (urllib3's Retry);
[zaqar-signal]'s keystoneauth1 makes the session it logs in with.

Python 3.9 is looked for under pyenv's versions (this kind of machine has one there), then as
python3.9 on the PATH; without one the test is skipped, saying so. Its venv
(build/packaging/venv-notify-floors/) is made afresh each run: a dozen small downloads.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from tests.packaging import alone
from tests.unit.notify import hooks

VENV = alone.WORK / 'venv-notify-floors'
PROBE_DIR = alone.WORK / 'probe-notify-floors'
PYPROJECT = alone.REPO / 'notify' / 'pyproject.toml'
IMAGE_PYTHON = '3.9'


def _image_python():
    """A Python 3.9 that runs (pyenv's shims on the PATH name versions not selected)."""
    pyenv = pathlib.Path(os.environ.get('PYENV_ROOT') or pathlib.Path.home() / '.pyenv')
    candidates = [*sorted(pyenv.glob(f'versions/{IMAGE_PYTHON}.*/bin/python{IMAGE_PYTHON}'),
                          reverse=True), shutil.which(f'python{IMAGE_PYTHON}')]
    for candidate in filter(None, candidates):
        if subprocess.run([str(candidate), '-c', ''], capture_output=True).returncode == 0:
            return str(candidate)
    pytest.skip(f'no Python {IMAGE_PYTHON} on this machine')


def _floors():
    """{distribution: floor} of every dependency, the extras' included."""
    project = alone.toml(PYPROJECT)['project']
    requirements = [*project['dependencies'],
                    *(each for extra in project['optional-dependencies'].values()
                      for each in extra)]
    floors = {}
    for requirement in requirements:
        match = re.fullmatch(r'([A-Za-z0-9_.-]+)>=([0-9.]+)', requirement)
        assert match, f'{requirement}: each dependency has a floor, and only that'
        floors[match[1]] = match[2]
    return floors


@pytest.fixture(scope='module')
def floors_venv():
    image_python = _image_python()
    floors = _floors()
    with alone.locked():
        wheels = alone.build_wheels(alone.NOTIFY)
        shutil.rmtree(VENV, ignore_errors=True)
        alone.run([image_python, '-m', 'venv', VENV])
        alone.run([alone.python(VENV), '-m', 'pip', 'install', '-q', '--no-compile',
                   f'{wheels[alone.NOTIFY]}[zaqar-signal]',
                   *(f'{name}=={floor}' for name, floor in floors.items())])
        yield floors


def _run(program, *args, **kwargs):
    PROBE_DIR.mkdir(parents=True, exist_ok=True)
    return subprocess.run([str(VENV / 'bin' / program), *map(str, args)], cwd=PROBE_DIR,
                          capture_output=True, timeout=120, **kwargs)


def test_the_floors_install_on_the_images_python(floors_venv):
    alone.run([alone.python(VENV), '-m', 'pip', 'check'])
    versions = _run('python', '-c', 'import importlib.metadata as m, json, sys; json.dump({'
                    'name: m.version(name) for name in sys.argv[1:]}, sys.stdout)',
                    *floors_venv)
    assert json.loads(versions.stdout) == floors_venv
    version = _run('python', '-c', 'import sys; print("%d.%d" % sys.version_info[:2])')
    assert version.stdout.decode().strip() == IMAGE_PYTHON


def test_the_script_hook_sends_snapshots_with_them(floors_venv):
    target = hooks.LiveTarget()
    try:
        config = hooks.config('#!/bin/sh\necho one\nsleep 1.5\necho two >&2\n',
                              inputs=hooks.swift_inputs(target))
        done = _run('heat-deploy-script-hook', input=json.dumps(config).encode(),
                    env=alone.environment(PROBE_DIR,
                                          HEAT_SCRIPT_WORKING=str(PROBE_DIR / 'working'),
                                          HEAT_SCRIPT_OUTPUTS=str(PROBE_DIR / 'outputs')))
    finally:
        target.close()

    assert json.loads(done.stdout) == {'deploy_stdout': 'one\n', 'deploy_stderr': 'two\n',
                                       'deploy_status_code': 0}
    bodies = target.bodies()
    assert len(bodies) >= 2 and bodies[0]['stdout'] == 'one\n'
    assert {key: bodies[-1][key] for key in ('final', 'stdout', 'stderr', 'stdout_bytes')} == {
        'final': True, 'stdout': 'one\n', 'stderr': 'two\n', 'stdout_bytes': 4}


def test_the_notifier_posts_a_result_and_tries_a_503_again_with_them(floors_venv):
    answers = iter([503])
    target = hooks.LiveTarget(answer=lambda request: next(answers, 201))
    config = PROBE_DIR / 'zaqar-config.json'
    PROBE_DIR.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({'id': 'c1', 'inputs': [
        {'name': name, 'value': value} for name, value in (
            ('deploy_signal_transport', 'ZAQAR_SIGNED_URL_SIGNAL'),
            ('deploy_zaqar_endpoint', target.url), ('deploy_zaqar_queue', 'q1'),
            ('deploy_zaqar_project_id', 'p1'), ('deploy_zaqar_paths', '/v2/queues/q1/messages'),
            ('deploy_zaqar_methods', 'POST'), ('deploy_zaqar_expires', '2030-01-01T00:00:00'),
            ('deploy_zaqar_signature', '5ec12e7'))]}))
    try:
        done = _run('heat-deploy-notify', config, input=b'{"deploy_stdout": "done"}',
                    env=alone.environment(PROBE_DIR))
    finally:
        target.close()

    assert done.returncode == 0, done.stderr.decode()
    assert [request.path for request in target.requests] == ['/v2/queues/q1/messages'] * 2
    assert [body['messages'][0]['body'] for body in target.bodies()] == [
        {'deploy_stdout': 'done'}] * 2


def test_zaqar_signals_keystoneauth1_makes_its_session_with_them(floors_venv):
    done = _run('python', '-c', 'from keystoneauth1.identity import v3\n'
                'from keystoneauth1 import session\n'
                'auth = v3.Password(auth_url="http://127.0.0.1:9/v3", user_id="u", '
                'password="p", project_id="x")\n'
                'print(type(session.Session(auth=auth, timeout=30)).__name__)')
    assert done.stdout.decode().strip() == 'Session', done.stderr.decode()
