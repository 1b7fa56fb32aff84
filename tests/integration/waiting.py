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

"""Waiting on the real cloud's state with a deadline, never a fixed sleep."""

import time

import heat_deploy_runner as runner
from heat_deploy_runner.configs import derived
from heat_deploy_runner import Run


def wait_for(what, check, timeout=60, interval=0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f'timed out after {timeout} s waiting for {what}')
        time.sleep(interval)


def finished(heat, deployment_id, timeout=60):
    """The deployment once it is no longer IN_PROGRESS (each show makes Heat read Swift)."""
    def check():
        deployment = heat.software_deployments.get(deployment_id)
        return deployment if deployment.status != 'IN_PROGRESS' else None
    return wait_for(f'deployment {deployment_id} to finish', check, timeout)


def shown(heat, deployment_id, config):
    """The run of this id as Heat shows it now, with its derived config (as the runner's
    collect takes it)."""
    return Run.from_heat(heat.software_deployments.get(deployment_id)).described(
        derived.as_dict(config))


def collected(heat, deployment_id, config, find_transport, timeout=60):
    """The deployment once finished, applying its result as the dashboard's poll does (for a
    transport whose target Heat does not read)."""
    def check():
        deployment = runner.collect(heat, shown(heat, deployment_id, config), find_transport)
        return deployment if deployment.status != 'IN_PROGRESS' else None
    return wait_for(f'deployment {deployment_id} to finish', check, timeout)
