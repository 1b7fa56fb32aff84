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

"""Triggering a custom action, cancelling it and deleting it, on the real local cloud."""

import functools

from heatclient import exc as heat_exc
import pytest
from swiftclient import exceptions as swift_exc

from devcloud import servers
import heat_deploy_runner as runner
from tests.integration import waiting


@pytest.fixture
def backup(start_run):
    """Trigger mysql's BACKUP on demo-db-1: (deployment, its derived config)."""
    return functools.partial(start_run, 'mysql', 'BACKUP', 'db_server_1')


def _container(config):
    return runner.derived_input_values(config)['deploy_signal_id'].split('?')[0].split('/')[-2]


def test_backup_runs_with_the_overridden_inputs(heat, backup):
    deployment, config = backup(retention_days=3, compress=False, tables='users,posts',
                                pause_seconds=0)
    assert config.name == 'mysql-BACKUP'
    assert deployment.status == 'IN_PROGRESS'
    assert deployment.action == 'BACKUP'

    done = waiting.finished(heat, deployment.id)
    assert done.status == 'COMPLETE', done.status_reason
    assert done.status_reason == 'Outputs received'
    outputs = done.output_values
    # What the script itself saw.
    assert ('backup_dir=backups retention_days=3 compress=false tables=users,posts'
            in outputs['deploy_stdout'])
    assert outputs['backup_file'].startswith('backups/backup-')
    assert outputs['backup_file'].endswith('.tar')
    assert outputs['table_count'].strip() == '2'
    assert outputs['deploy_status_code'] == 0


def test_a_failing_script_ends_failed_with_its_status_code(heat, backup):
    deployment, _config = backup(tables='no_such_table', pause_seconds=0)
    done = waiting.finished(heat, deployment.id)
    assert done.status == 'FAILED'
    assert done.output_values['deploy_status_code'] == 3
    assert 'no such table: no_such_table' in done.output_values['deploy_stderr']


def test_cancel_stays_cancelled_and_the_late_result_is_kept(cloud, heat, backup,
                                                            find_transport):
    deployment, config = backup(pause_seconds=8)
    marker = servers.deployed_marker(cloud.layout, 'demo-db-1', config.id)
    waiting.wait_for('the agent to start the run', marker.exists, timeout=30)

    cancelled = runner.cancel(heat, deployment.id, 'demo', find_transport)
    assert cancelled.status == 'FAILED'
    assert cancelled.status_reason.startswith('Cancelled by demo at ')
    again = runner.cancel(heat, deployment.id, 'someone-else', find_transport)
    assert again.status_reason == cancelled.status_reason

    transport = find_transport('TEMP_URL_SIGNAL')
    values = runner.derived_input_values(config)
    late = waiting.wait_for('the server\'s late result in Swift',
                            lambda: transport.read_result(values), timeout=30)
    assert 'backup_dir=backups' in late['deploy_stdout']

    after = heat.software_deployments.get(deployment.id)
    assert after.status == 'FAILED'
    assert after.status_reason == cancelled.status_reason
    assert runner.late_result(heat, runner.Run.from_heat(after), find_transport) == late


def test_delete_removes_the_deployment_its_config_and_its_container(heat, swift, backup,
                                                                    find_transport):
    deployment, config = backup(pause_seconds=0)
    waiting.finished(heat, deployment.id)
    container = _container(config)
    swift.head_container(container)

    assert runner.delete(heat, deployment.id, find_transport) == []

    with pytest.raises(heat_exc.HTTPNotFound):
        heat.software_deployments.get(deployment.id)
    with pytest.raises(heat_exc.HTTPNotFound):
        heat.software_configs.get(config.id)
    with pytest.raises(swift_exc.ClientException) as missing:
        swift.head_container(container)
    assert missing.value.http_status == 404
