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

"""Triggering one action on many servers, and what a failure leaves behind: nothing."""

import pytest

from devcloud import process
import heat_deploy_runner as runner
from tests.integration import waiting

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud

# Heat stores server ids in 36 characters: a longer one makes Heat's database refuse the
# deployment, after its derived config and its Swift container were made.
BAD_SERVER = 'x' * 40


def _configs_named(heat, name):
    return [c for c in heat.software_configs.list(limit=1000) if c.name == name]


def _stores(swift, container):
    """Whether Object Storage stores an object now (the probe is removed again)."""
    try:
        swift.put_container(container)
        swift.put_object(container, 'probe', b'probe')
    except Exception:
        return False
    swift.delete_object(container, 'probe')
    swift.delete_container(container)
    return True


def _containers_of(swift, run_name):
    _headers, containers = swift.get_account(prefix=f'{run_name}-', full_listing=True)
    return [c['name'] for c in containers]


def test_backup_on_two_servers_with_every_input_type_overridden(heat, find_transport,
                                                                demo_resources, cleanup):
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=servers,
            input_values={'backup_dir': 'nightly', 'retention_days': '14', 'compress': 'no',
                          'tables': 'users, comments', 'labels': '{"ticket": "OPS-42"}',
                          'pause_seconds': 1},
            transport='TEMP_URL_SIGNAL'))
    cleanup.extend(result.created)
    assert result.failures == []
    assert sorted(d.server_id for d in result.created) == sorted(servers)

    for deployment in result.created:
        done = waiting.finished(heat, deployment.id)
        assert done.status == 'COMPLETE', done.status_reason
        stdout = done.output_values['deploy_stdout']
        assert ('backup_dir=nightly retention_days=14 compress=false tables=users,comments'
                in stdout)
        assert 'labels={"ticket": "OPS-42"}' in stdout
        assert done.output_values['backup_file'].startswith('nightly/backup-')
        assert done.output_values['backup_file'].endswith('.tar')
        assert done.output_values['table_count'].strip() == '2'


def test_one_bad_server_leaves_nothing_behind_and_the_good_one_runs(
        heat, swift, find_transport, demo_resources, cleanup):
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='fanout',
            server_ids=[demo_resources['db_server_1'], BAD_SERVER],
            input_values={'pause_seconds': 0}, transport='TEMP_URL_SIGNAL'))
    cleanup.extend(result.created)

    [(failed_server, message)] = result.failures
    assert failed_server == BAD_SERVER
    assert str(message) == (f'Could not start BACKUP on server {BAD_SERVER}: its deployment '
                            'could not be created.')
    [good] = result.created
    assert waiting.finished(heat, good.id).status == 'COMPLETE'
    # Only the good server's derived config and container exist.
    assert [c.id for c in _configs_named(heat, 'fanout-BACKUP')] == [good.config_id]
    assert len(_containers_of(swift, 'fanout-BACKUP')) == 1


def test_swift_failing_mid_trigger_leaves_nothing_behind(cloud, heat, swift, find_transport,
                                                         demo_resources):
    # Containers live on the container server; the signal object needs the object server.
    cloud.sup.stop('swift-object')
    try:
        result = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=demo_resources['mysql'], action='BACKUP', name='swiftdown',
                server_ids=[demo_resources['db_server_1']], transport='TEMP_URL_SIGNAL'))
    finally:
        cloud.sup.restart('swift-object', lambda: process.port_open(
            cloud.layout.port('swift_object')))
        # The proxy answers object writes 503 for a while after the object server came back
        # (a later module's TempURL run was refused): the next test starts on a whole cloud.
        waiting.wait_for('Object Storage to store objects again',
                         lambda: _stores(swift, 'swiftdown-probe'), timeout=120, interval=1)
    assert result.created == []
    [(_server, message)] = result.failures
    assert 'could not be prepared in Object Storage' in str(message)
    assert _configs_named(heat, 'swiftdown-BACKUP') == []
    assert _containers_of(swift, 'swiftdown-BACKUP') == []


def test_no_signal_is_complete_at_once(heat, find_transport, demo_resources, cleanup):
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['wordpress'], action='FLUSH_CACHE', name='wordpress',
            server_ids=[demo_resources['web_server']], transport='NO_SIGNAL'))
    cleanup.extend(result.created)
    [deployment] = result.created
    assert deployment.status == 'COMPLETE'
    assert deployment.status_reason == 'Not waiting for outputs signal'
    config = heat.software_configs.get(deployment.config_id)
    assert runner.derived_input_values(config)['deploy_signal_transport'] == 'NO_SIGNAL'
