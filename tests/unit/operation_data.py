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

"""One operation of three runs among five, served through the mocked API seam: what the
operation page's tests and the policy tests share."""

from heatclient.v1 import software_configs

import heat_deploy_runner as runner
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner.running import operations
from tests.unit import test_data

RUN_IDS = [f'00000000-0000-4000-8000-00000000000{n}' for n in range(5)]
SOURCE = '7c0d1e2f-3a4b-4c5d-8e6f-708192a3b4c5'
OPERATION = runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'test_user',
                             '2026-11-23T08:00:00Z', SOURCE)


def config_get(request, config_id):
    """A side effect for api.heat.config_get: the source component (Heat's name for it is
    its stack's), and the derived configs of runs 1 to 3 carrying the operation, named after
    it as its stack knows it."""
    if config_id == SOURCE:
        return software_configs.SoftwareConfig(None, {
            'id': SOURCE, 'name': 'demo-mysql-wsddc3qmqnyi', 'group': 'component', 'config': {},
            'inputs': [], 'outputs': [], 'options': {}}, loaded=True)
    config = test_data.named_config(request, config_id)
    if config_id in ('config-001', 'config-002', 'config-003'):
        return software_configs.SoftwareConfig(None, dict(
            config.to_dict(), name='mysql-BACKUP',
            options={OPERATION_OPTION: OPERATION.as_option()},
            inputs=[{'name': 'backup_dir', 'type': 'String', 'value': '/srv/<b>x</b>'}]),
            loaded=True)
    return config


def runs(statuses=('COMPLETE', 'IN_PROGRESS', 'FAILED', 'COMPLETE', 'COMPLETE')):
    """A run per status, run-00N's config config-00N: runs 1 to 3 are the operation's."""
    return [test_data.deployment(dict(
        test_data.DEPLOYMENTS[0], id=RUN_IDS[n], config_id=f'config-{n:03d}',
        server_id=f'server-{n}', status=status, creation_time=f'2025-03-01T00:{n:02d}:00Z',
        input_values=operations.as_input_values(OPERATION if 1 <= n <= 3 else None)))
        for n, status in enumerate(statuses)]
