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

"""One service of the shared local cloud stopped for a while: results sent meanwhile still
arrive, the dashboard answers without memcached, Zaqar's messages survive a Redis restart, and
a run cut short by its agent's restart is not run again. Every test starts again what it
stopped, whatever happens, so the cloud is whole for the tests that follow."""

import contextlib
import socket
import time
import uuid

import pytest

from devcloud import servers
from heat_deploy_runner.configs import derived
from heat_deploy_runner.signalling import tempurl
from tests.integration import dashboard
from tests.integration import waiting

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud

ZAQAR = 'ZAQAR_SIGNED_URL_SIGNAL'


@contextlib.contextmanager
def stopped(cloud, *services):
    """The services stopped for the block, and started again after it, even on a failure."""
    try:
        for name in services:
            cloud.stop_service(name)
        yield
    finally:
        for name in reversed(services):
            cloud.start_service(name)


def restart(cloud, service):
    with stopped(cloud, service):
        pass


def started(cloud, server, config):
    """Once the server's agent has taken the run (it marks it before running it)."""
    marker = servers.deployed_marker(cloud.layout, server, config.id)
    waiting.wait_for(f'the agent of {server} to start the run', marker.exists, timeout=30)


def notifying(cloud, server, config):
    """Once the server's 55-heat-config has the result and runs heat-config-notify: it writes
    what it sends beside the deployed marker first."""
    marker = servers.deployed_marker(cloud.layout, server, config.id)
    notify = marker.with_name(f'{config.id}.notify.json')
    waiting.wait_for(f'{server} to send the result', notify.exists, timeout=60)


def _stored(swift, signal):
    """The signal object's headers once it holds a result."""
    try:
        headers = swift.head_object(*signal)
    except Exception:
        return None
    return headers if int(headers['content-length']) else None


def test_a_result_sent_while_swift_cannot_store_it_arrives_once_it_can(
        cloud, heat, swift, start_run):
    # heat-config-notify tries a PUT that failed with a 5xx or no connection again, ten
    # times, 0.5 s apart and doubling (urllib3's Retry): about four minutes in all.
    deployment, config = start_run('mysql', 'BACKUP', 'db_server_1', pause_seconds=2)
    started(cloud, 'demo-db-1', config)
    with stopped(cloud, 'swift-object'):
        notifying(cloud, 'demo-db-1', config)
        # A few of its tries meet the outage (the proxy answers 503).
        time.sleep(4)
    back_at = time.time()

    # The proxy leaves an object server that failed alone for a minute: a try about a minute
    # after the first is the one that gets through. Heat is asked only then: meanwhile its own
    # look at the signal object waits on the same proxy.
    signal = tempurl.signal_location(derived.derived_input_values(config))
    stored = waiting.wait_for('the result to be stored', lambda: _stored(swift, signal),
                              timeout=150, interval=2)
    # Stored by a try after the outage (the proxy stamps each PUT as it arrives).
    assert float(stored['x-timestamp']) >= back_at
    done = waiting.finished(heat, deployment.id)
    assert done.status == 'COMPLETE', done.status_reason
    assert 'Wrote backups/backup-' in done.output_values['deploy_stdout']
    assert done.output_values['table_count'].strip() == '2'


def test_a_result_posted_while_zaqar_is_down_arrives_once_it_is_back(
        cloud, heat, start_run, find_transport):
    # The servers' heat-deploy-notify tries a POST as heat-config-notify tries a PUT.
    deployment, config = start_run('monitoring', 'CHECK', 'monitor_server', transport=ZAQAR,
                                   pause_seconds=2, threshold_percent=100)
    started(cloud, 'demo-mon-1', config)
    with stopped(cloud, 'zaqar'):
        notifying(cloud, 'demo-mon-1', config)
        time.sleep(4)

    done = waiting.collected(heat, deployment.id, config, find_transport, timeout=120)
    assert done.status == 'COMPLETE', done.status_reason
    assert done.output_values['report'].startswith('disk ')
    # Nothing listened meanwhile: no answer at all, not an HTTP error. 55-heat-config logs
    # what the notifier said once the notifier has exited, which may be after Heat has the
    # result, so the log is read until that part is there.
    agent_log = cloud.layout.path('logs', 'agent-demo-mon-1.log')

    def notifier_said():
        log = agent_log.read_text(errors='replace')
        said = log[log.index(config.id):]
        return said if 'Connection refused' in said else None
    waiting.wait_for("the notifier's words in the agent's log", notifier_said, timeout=30)


def _memcached_keys(cloud, prefix):
    """The keys memcached holds that contain prefix (its LRU crawler's metadump)."""
    with socket.create_connection(('127.0.0.1', cloud.layout.port('memcached')), 5) as sock:
        sock.sendall(b'lru_crawler metadump all\r\n')
        data = b''
        while not data.endswith(b'END\r\n'):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return [line for line in data.decode(errors='replace').splitlines()
            if prefix in line.replace('%3A', ':')]


def _page_is_fine(response, text):
    assert response.status_code == 200, (response.status_code, response.text[:500])
    assert text in response.text
    return response


def test_without_memcached_the_dashboard_is_slower_and_nothing_else(cloud, demo_resources):
    user = dashboard.Dashboard(cloud.layout.dashboard_url)
    user.login()
    stack_run = demo_resources['mysql_deployment_1']
    with stopped(cloud, 'memcached'):
        # Someone not logged in yet: the login page, and logging in.
        newcomer = dashboard.Dashboard(cloud.layout.dashboard_url)
        _page_is_fine(newcomer.get('/auth/login/'), 'id="id_password"')
        newcomer.login()
        # Someone logged in before: still logged in, the list, a run and the status poll.
        _page_is_fine(user.get('/project/deployments/', allow_redirects=False), stack_run)
        _page_is_fine(user.get(f'/project/deployments/{stack_run}/', allow_redirects=False),
                      'Initialised mysql data directory')
        poll = user.post('/project/deployments/status/', {'id': stack_run},
                         allow_redirects=False)
        assert poll.status_code == 200, poll.text[:500]
        assert stack_run in poll.json()['rows']

    # Back: the same session works on, and the dashboard caches again (each Horizon worker
    # tries a server it gave up on again 10 s later).
    def caching_again():
        _page_is_fine(user.get('/project/deployments/', allow_redirects=False), stack_run)
        return _memcached_keys(cloud, ':heat_deploy_dashboard:config:')
    waiting.wait_for('the dashboard to cache configs in memcached again', caching_again,
                     timeout=60, interval=1)
    _page_is_fine(dashboard.Dashboard(cloud.layout.dashboard_url).get('/auth/login/'),
                  'id="id_password"')


def test_zaqar_messages_survive_a_redis_restart(cloud, zaqar):
    queue = zaqar.queue(f'outage-redis-{uuid.uuid4()}', force_create=True)
    body = {'deploy_stdout': 'kept across a restart', 'deploy_status_code': 0}
    try:
        queue.post({'body': body, 'ttl': 600})
        restart(cloud, 'redis')
        # Zaqar's connections to Redis are new after the restart: its first answer may be 503.
        found = waiting.wait_for('the message after the restart', lambda: _bodies(queue),
                                 timeout=30, interval=0.5)
        assert body in found
    finally:
        queue.delete()


def _bodies(queue):
    try:
        return [message.body for message in queue.messages(echo=True)]
    except Exception:
        return None


def test_a_run_cut_short_by_an_agent_restart_is_not_run_again(cloud, heat, start_run):
    # The stock chain marks a run deployed before it runs it, and the restart stops the
    # script with its agent: nothing reports it, and it is never run again. It stays running
    # until its timeout, which the dashboard then records with what most likely happened.
    deployment, config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=60)
    started(cloud, 'demo-db-2', config)
    restart(cloud, 'agent-demo-db-2')

    # The restarted agent runs what comes next, and leaves the cut-short run alone.
    again, again_config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=0)
    assert waiting.finished(heat, again.id, timeout=60).status == 'COMPLETE'
    assert heat.software_deployments.get(deployment.id).status == 'IN_PROGRESS'
    marker = servers.deployed_marker(cloud.layout, 'demo-db-2', config.id)
    assert not marker.with_name(f'{config.id}.notify.json').exists()
