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

"""Command-line run cost: `openstack software component run ... --wait` against the same runs
from Run Action's form, until every run has ended; and the command line's own start-up.

The same work as rolling_cost's form: BACKUP of the demo's mysql component on both demo db
servers, TEMP_URL_SIGNAL, run by their real agents, the form's runs followed as the run page
polls them. The command is a process of its own, logged in through the OS_* variables, as an
operator runs it: its time includes OpenStackClient's start-up and its login, measured apart
as `openstack software component run --help` (the plugin loaded, no call made).
"""

import os
import subprocess

from devcloud.services import identity
import heat_deploy_runner as runner

from bench import measure
from bench import rolling_cost


def _openstack(layout, openstack, *argv):
    env = dict(os.environ, **identity.cli_environment(layout))
    return subprocess.run([openstack, *argv], env=env, capture_output=True, text=True,
                          timeout=rolling_cost.TIMEOUT_SECONDS, check=False)


def measure_cli_run(layout, openstack, heat, swift, config_id, server_ids):
    contenders = rolling_cost._Contenders(heat, swift, None, None, config_id, server_ids)

    def by_cli():
        argv = ['software', 'component', 'run', config_id, 'BACKUP', '--wait',
                '-f', 'value', '-c', 'operation']
        for server_id in server_ids:
            argv += ['--server', server_id]
        for name, value in rolling_cost.INPUTS.items():
            argv += ['--input', f'{name}={value}']
        done = _openstack(layout, openstack, *argv)
        if done.returncode != 0:
            contenders.failures.append(f'cli: {done.stderr.strip()[-300:]}')
            return []
        operation_id = done.stdout.strip()
        return [run.id for server_id in server_ids
                for run in heat.software_deployments.list(server_id=server_id)
                if getattr(runner.operation_of_run(run), 'id', None) == operation_id]

    def start_up():
        done = _openstack(layout, openstack, 'software', 'component', 'run', '--help')
        if done.returncode != 0:
            contenders.failures.append(f'--help: {done.stderr.strip()[-300:]}')
        return []

    samples, left = rolling_cost.run_rounds(
        heat, swift, {'form': contenders.by_form, 'cli': by_cli, 'cli_start_up': start_up})
    return {
        'samples': {name: measure.rounded(values) for name, values in samples.items()},
        'medians': {name: round(measure.median(values), 4) for name, values in samples.items()},
        'cli_over_form': measure.ratio(samples['cli'], samples['form']),
        'servers': len(server_ids),
        'failures': contenders.failures,
        'cleanup_leftovers': [str(message) for message in left],
    }
