"""One service of the shared local cloud stopped for a while: results sent meanwhile still
arrive, the dashboard answers without memcached, Zaqar's messages survive a Redis restart, and
a run cut short by its agent's restart is reported as such. Every test starts again what it
stopped, whatever happens, so the cloud is whole for the tests that follow."""

import contextlib
import socket
import uuid

from tests.integration import dashboard
from tests.integration import waiting

ZAQAR = 'ZAQAR_SIGNED_URL_SIGNAL'
# The agent tries a result once, then 1, 2, 4... s later: three tries take about 3 s.
FAILED_TRIES = 3


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


def _agent_log(cloud, server):
    return cloud.layout.path('logs', f'agent-{server}.log').read_text(errors='replace')


def failed_tries(cloud, server, config_id):
    """The agent's log lines for failed tries to deliver the result of that (derived) config's
    deployment (the agent knows a deployment by its config's id)."""
    return [line for line in _agent_log(cloud, server).splitlines()
            if f'could not signal {config_id} ' in line]


def started(cloud, server, config):
    """Once the server's agent has taken the run (it marks it before running it)."""
    marker = cloud.layout.path('servers', server, 'deployed', config.id)
    waiting.wait_for(f'the agent of {server} to start the run', marker.exists, timeout=30)


def _delivered(cloud, server, config):
    """Once the agent says it has delivered the result (the proxy may answer 503 a few seconds
    more after the object server is back: it leaves a server that failed alone a while)."""
    waiting.wait_for('the agent to deliver the result', lambda: any(
        f'signalled {config.id} (try ' in line
        for line in _agent_log(cloud, server).splitlines()), timeout=60, interval=0.5)


def _retried(cloud, server, config):
    """The failed tries, once there are FAILED_TRIES of them."""
    def enough():
        tries = failed_tries(cloud, server, config.id)
        return tries if len(tries) >= FAILED_TRIES else None
    return waiting.wait_for(f'{FAILED_TRIES} failed tries to deliver', enough, timeout=60)


def test_a_result_sent_while_swift_cannot_store_it_arrives_once_it_can(cloud, heat, start_run):
    deployment, config = start_run('mysql', 'BACKUP', 'db_server_1', pause_seconds=5)
    started(cloud, 'demo-db-1', config)
    with stopped(cloud, 'swift-object'):
        tries = _retried(cloud, 'demo-db-1', config)
    # Each failed try is logged with why and when the next one is.
    assert '503' in tries[0]
    assert 'trying again in 1 s' in tries[0]
    assert 'trying again in 2 s' in tries[1]

    _delivered(cloud, 'demo-db-1', config)
    done = waiting.finished(heat, deployment.id, timeout=60)
    assert done.status == 'COMPLETE', done.status_reason
    assert 'Wrote backups/backup-' in done.output_values['deploy_stdout']
    assert done.output_values['table_count'].strip() == '2'


def test_a_result_posted_while_zaqar_is_down_arrives_once_it_is_back(
        cloud, heat, start_run, find_transport):
    deployment, config = start_run('monitoring', 'CHECK', 'monitor_server', transport=ZAQAR,
                                   pause_seconds=5, threshold_percent=100)
    started(cloud, 'demo-mon-1', config)
    with stopped(cloud, 'zaqar'):
        tries = _retried(cloud, 'demo-mon-1', config)
    # Nothing listens: no answer at all, not an HTTP error.
    assert 'Connection refused' in tries[0], tries[0]

    _delivered(cloud, 'demo-mon-1', config)

    done = waiting.collected(heat, deployment.id, config, find_transport, timeout=60)
    assert done.status == 'COMPLETE', done.status_reason
    assert done.output_values['report'].startswith('disk ')
    assert done.output_values['deploy_stdout'].startswith('disk ')


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


def test_a_run_cut_short_by_an_agent_restart_is_reported_failed_not_run_again(
        cloud, heat, start_run):
    deployment, config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=60)
    started(cloud, 'demo-db-2', config)
    # What the script prints before its pause, so the report can show it.
    stdout = cloud.layout.path('servers', 'demo-db-2', 'runs', f'{config.id}.stdout')
    waiting.wait_for('the script to print', lambda: stdout.exists() and stdout.stat().st_size,
                     timeout=30)
    restart(cloud, 'agent-demo-db-2')

    done = waiting.finished(heat, deployment.id, timeout=60)
    assert done.status == 'FAILED'
    assert 'the agent restarted while this run was executing' in done.status_reason
    assert 'backup_dir=backups' in done.output_values['deploy_stdout']
    assert 'not run again' in done.output_values['deploy_stderr']
    assert 'Wrote backups/' not in done.output_values['deploy_stdout']

    # The restarted agent runs what comes next.
    again, _config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=0)
    assert waiting.finished(heat, again.id, timeout=60).status == 'COMPLETE'
