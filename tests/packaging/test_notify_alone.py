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

"""heat-deploy-notify's wheel, installed alone as on a server image: only requests (and
keystoneauth1 with [zaqar-signal]), its program on the PATH, passing a result it does not send
itself on to heat-config-notify.

An image gets heat-deploy-notify beside the stock heat-agents chain (notify/README.md), never
the dashboard, the runner or an OpenStack client. This builds its wheel as
alone.py does, installs it with [zaqar-signal] into a venv of its own under
build/packaging/ that sees nothing of the project's venv, runs pip check, and runs the
installed `heat-deploy-notify` as 55-heat-config does: with no config it says how to call it;
with a TempURL run's config it hands the config and the result to the heat-config-notify it is
told of, unchanged; and its `heat-deploy-script-hook` runs a script as heat-agents' script
hook does. venv-notify/ is kept and reused on the same terms as the others.
"""

import json
import subprocess
import sys

import pytest

from tests.packaging import alone

VENV = alone.WORK / 'venv-notify'
VENV_STAMP = alone.WORK / 'venv-notify.json'
PROBE_DIR = alone.WORK / 'probe-notify'
EXTRA = '[zaqar-signal]'
# All an image needs for it: requests and keystoneauth1, with what they bring.
ALLOWED = {alone.NOTIFY, 'requests', 'urllib3', 'idna', 'charset-normalizer', 'certifi',
           'keystoneauth1', 'iso8601', 'os-service-types', 'pbr', 'stevedore', 'typing-extensions',
           'setuptools'}


@pytest.fixture(scope='module')
def notify_venv():
    with alone.alone_in_venv(alone.NOTIFY, VENV, VENV_STAMP, EXTRA,
                             'venv of the notifier alone') as timings:
        yield timings


def test_the_notifier_installs_alone_and_passes_other_results_on(notify_venv):
    alone.run(alone.PIP + ['--python', alone.python(VENV), 'check'])
    names = alone.names_in(VENV)
    assert alone.NOTIFY in names
    assert names - ALLOWED == set(), names - ALLOWED
    program = VENV / 'bin' / 'heat-deploy-notify'

    PROBE_DIR.mkdir(parents=True, exist_ok=True)
    environment = alone.environment(PROBE_DIR)
    usage = subprocess.run([program], cwd=PROBE_DIR, env=environment, capture_output=True,
                           text=True, timeout=60)
    assert usage.returncode == 1
    assert 'Usage:' in usage.stderr

    seen = PROBE_DIR / 'seen.json'
    stand_in = PROBE_DIR / 'heat-config-notify'
    stand_in.write_text(f'#!{sys.executable}\nimport json, sys\n'
                        f'json.dump([sys.argv[1:], sys.stdin.read()], open({str(seen)!r}, "w"))\n')
    stand_in.chmod(0o755)
    config = PROBE_DIR / 'config.json'
    config.write_text(json.dumps({'id': 'c1', 'inputs': [
        {'name': 'deploy_signal_transport', 'value': 'TEMP_URL_SIGNAL'},
        {'name': 'deploy_signal_id', 'value': 'http://127.0.0.1:9/v1/AUTH_p/c/o'}]}))
    result = json.dumps({'deploy_stdout': 'done', 'deploy_status_code': 0})
    passed = alone.run([program, config], input=result, cwd=PROBE_DIR,
                       env=dict(environment, HEAT_DEPLOY_NOTIFY_NEXT=str(stand_in)))
    assert passed.returncode == 0
    assert json.loads(seen.read_text()) == [[str(config)], result]


def test_the_script_hook_installs_with_it_and_runs_a_script(notify_venv):
    # As 55-heat-config runs hooks/script once an image build has linked it there.
    program = VENV / 'bin' / 'heat-deploy-script-hook'
    PROBE_DIR.mkdir(parents=True, exist_ok=True)
    config = {'id': 'c1', 'inputs': [{'name': 'who', 'value': 'image'}],
              'outputs': [{'name': 'said'}],
              'config': '#!/bin/sh\necho "hello $who"\necho hi > "$heat_outputs_path.said"\n'}
    done = alone.run([program], input=json.dumps(config), cwd=PROBE_DIR,
                     env=alone.environment(PROBE_DIR,
                                           HEAT_SCRIPT_WORKING=str(PROBE_DIR / 'working'),
                                           HEAT_SCRIPT_OUTPUTS=str(PROBE_DIR / 'outputs')))
    assert json.loads(done.stdout) == {'said': 'hi\n', 'deploy_stdout': 'hello image\n',
                                       'deploy_stderr': '', 'deploy_status_code': 0}
