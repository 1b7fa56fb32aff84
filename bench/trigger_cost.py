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

"""Trigger cost: Run Action's form submit until the deployment exists, against the API calls
that trigger needs and against `openstack software deployment create`.

All three start the same run: BACKUP of the demo's mysql component on one demo server, with
NO_SIGNAL (the CLI of python-heatclient 5.3.0 fails on TEMP_URL_SIGNAL; that failure is
recorded too). The form is timed until its redirect comes back, the redirect not followed: the
deployment exists then. The raw baseline is heat_deploy_runner.start on a bare
heatclient: exactly the calls a trigger needs (read the config, create the derived config,
create the deployment).
"""

import os
import subprocess
import uuid

from devcloud.services import identity
import heat_deploy_runner as runner

from bench import measure

ROUNDS = 5
INPUTS = {'backup_dir': 'bench', 'retention_days': 7, 'tables': 'users,posts',
          'labels': '{"via": "bench"}', 'pause_seconds': 0, 'backup_file': '', 'log_lines': 0}


def _cli_env(layout):
    return dict(os.environ, **identity.cli_environment(layout))


def _cli(layout, openstack, config_id, server_id, transport):
    argv = [openstack, 'software', 'deployment', 'create', '--config', config_id,
            '--server', server_id, '--action', 'BACKUP', '--signal-transport', transport]
    for name, value in INPUTS.items():
        argv += ['--input-value', f'{name}={value}']
    argv.append(f'cli-{uuid.uuid4().hex[:8]}')
    return subprocess.run(argv, env=_cli_env(layout), capture_output=True, text=True,
                          timeout=120, check=False)


def _running(heat):
    return {d.id for d in heat.software_deployments.list() if d.status == 'IN_PROGRESS'}


def measure_trigger(layout, dashboard, raw_heat, openstack, component_id, server_id):
    form = f'/project/components/{component_id}/run/'
    data = {'action': 'BACKUP', 'servers': [server_id], 'transport': 'NO_SIGNAL',
            'timeout': '60'}
    data.update({f'input__{name}': str(value) for name, value in INPUTS.items()})
    failures = []

    def by_form():
        response = dashboard.post(form, data, allow_redirects=False)
        if response.status_code != 302:
            failures.append(f'form answered {response.status_code}')

    def by_api():
        runner.start(
            raw_heat, runner.transport_for, runner.RunRequest(
                config_id=component_id, action='BACKUP', server_ids=[server_id],
                input_values=INPUTS, transport='NO_SIGNAL'))

    def by_cli():
        done = _cli(layout, openstack, component_id, server_id, 'NO_SIGNAL')
        if done.returncode != 0:
            failures.append(f'CLI failed: {done.stderr.strip()[-300:]}')

    dashboard.get(form)
    running_before = _running(raw_heat)
    samples = measure.interleaved({'form': by_form, 'api': by_api, 'cli': by_cli}, ROUNDS)
    temp_url = _cli(layout, openstack, component_id, server_id, 'TEMP_URL_SIGNAL')
    # The CLI creates a NO_SIGNAL run IN_PROGRESS, and nothing ever finishes it: cancelled
    # here, or every later page would keep polling them.
    left_running = _running(raw_heat) - running_before
    for deployment_id in left_running:
        runner.cancel(raw_heat, deployment_id, 'bench', runner.transport_for)
    return {
        'samples': {name: measure.rounded(values) for name, values in samples.items()},
        'form_over_api': measure.ratio(samples['form'], samples['api']),
        'form_over_cli': measure.ratio(samples['form'], samples['cli']),
        'failures': failures,
        'cli_runs_left_in_progress': len(left_running),
        'cli_temp_url_signal': {
            'exit_status': temp_url.returncode,
            'error': (temp_url.stderr.strip().splitlines() or [''])[-1][:300],
        },
    }
