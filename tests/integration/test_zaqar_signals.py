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

"""Results over Zaqar on the real local cloud: Heat's own ZAQAR_SIGNAL for a stack's
deployment, and the dashboard's ZAQAR_SIGNED_URL_SIGNAL for triggered runs."""

import functools
import threading
from unittest import mock

import pytest
import requests

from devcloud import servers
import heat_deploy_runner as runner
from tests.integration import waiting

TRANSPORT = 'ZAQAR_SIGNED_URL_SIGNAL'


@pytest.fixture
def run(start_run):
    """Trigger an action over Zaqar: a function returning (deployment, config)."""
    return functools.partial(start_run, transport=TRANSPORT)


def _queue_names(session, zaqar):
    """Every queue of the project, page by page (Zaqar lists at most 20 at a time; with Redis
    a page starts at its marker, so the last page is the one that brings nothing new)."""
    names, marker = set(), None
    while True:
        reply = requests.get(f'{zaqar.api_url}/v2/queues', timeout=30,
                             params={'limit': 20, **({'marker': marker} if marker else {})},
                             headers={'X-Auth-Token': session.get_token(),
                                      'Client-ID': '0d1fd7b4-5bd3-4d63-9b3c-8d1ef0ab4b7e'})
        reply.raise_for_status()
        page = {q['name'] for q in reply.json().get('queues', [])} if reply.content else set()
        if page <= names:
            return names
        names.update(page)
        marker = max(page)


def _queue(config):
    return runner.derived_input_values(config)['deploy_zaqar_queue']


def test_a_stack_deployment_signals_over_zaqar_and_its_server_reads_metadata_there(
        heat, demo_stack, demo_resources):
    server = heat.resources.get(demo_stack.id, 'monitor_server')
    assert 'zaqar' in server.attributes['os_collect_config']
    [deployment] = heat.software_deployments.list(server_id=demo_resources['monitor_server'])
    config = heat.software_configs.get(deployment.config_id)
    assert runner.derived_input_values(config)['deploy_signal_transport'] == 'ZAQAR_SIGNAL'
    assert deployment.status == 'COMPLETE', deployment.status_reason
    assert deployment.output_values['report'] == 'configured'
    assert 'monitoring configured' in deployment.output_values['deploy_stdout']


def test_a_triggered_run_completes_with_its_outputs(heat, run, find_transport):
    deployment, config = run('monitoring', 'CHECK', 'monitor_server', threshold_percent=100)
    values = runner.derived_input_values(config)
    assert values['deploy_signal_transport'] == TRANSPORT
    # The server holds a URL signed for POST to one queue, and no Keystone credentials.
    assert values['deploy_zaqar_methods'] == 'POST'
    assert not any(name in values for name in ('deploy_password', 'deploy_user_id'))

    done = waiting.collected(heat, deployment.id, config, find_transport)
    assert done.status == 'COMPLETE', done.status_reason
    assert done.status_reason == 'Outputs received'
    assert done.output_values['report'].startswith('disk ')
    assert done.output_values['deploy_status_code'] == 0


def test_a_non_zero_exit_code_ends_failed(heat, run, find_transport):
    deployment, config = run('monitoring', 'CHECK', 'monitor_server', path='/no/such/dir')
    done = waiting.collected(heat, deployment.id, config, find_transport)
    assert done.status == 'FAILED'
    assert done.status_reason == 'deploy_status_code : Deployment exited with non-zero ' \
                                 'status code: 1'
    assert '/no/such/dir' in done.output_values['deploy_stderr']


def test_an_error_output_fails_the_run_with_its_value_as_reason(heat, run, find_transport):
    deployment, config = run('monitoring', 'CHECK', 'monitor_server', threshold_percent=-1)
    done = waiting.collected(heat, deployment.id, config, find_transport)
    assert done.status == 'FAILED'
    assert done.status_reason.startswith('alert : disk ')


def test_two_pollers_racing_on_one_result_apply_it_once(heat, run, find_transport):
    deployment, config = run('monitoring', 'CHECK', 'monitor_server', threshold_percent=100)
    transport = find_transport(TRANSPORT)
    values = runner.derived_input_values(config)
    waiting.wait_for('the result on the queue', lambda: transport.read_result(values),
                     timeout=30)

    outcomes = []
    start = threading.Barrier(2)

    def poll():
        start.wait()
        outcomes.append(runner.collect(heat, waiting.shown(heat, deployment.id, config),
                                       find_transport).status)

    # A spy: every update still reaches the real Heat.
    updates = mock.Mock(wraps=heat.software_deployments.update)
    with mock.patch.object(heat.software_deployments, 'update', updates):
        pollers = [threading.Thread(target=poll) for _ in range(2)]
        for poller in pollers:
            poller.start()
        for poller in pollers:
            poller.join()

    assert updates.call_count == 1
    assert 'COMPLETE' in outcomes
    assert heat.software_deployments.get(deployment.id).status == 'COMPLETE'
    assert transport.read_result(values) is None


def test_a_cancel_is_kept_and_the_late_result_shown(cloud, heat, run, find_transport):
    deployment, config = run('monitoring', 'CHECK', 'monitor_server', pause_seconds=6)
    marker = servers.deployed_marker(cloud.layout, 'demo-mon-1', config.id)
    waiting.wait_for('the agent to start the run', marker.exists, timeout=30)

    cancelled = runner.cancel(heat, deployment.id, 'demo', find_transport)
    assert cancelled.status == 'FAILED'

    transport = find_transport(TRANSPORT)
    values = runner.derived_input_values(config)
    waiting.wait_for('the late result on the queue', lambda: transport.read_result(values),
                     timeout=30)
    after = runner.collect(heat, waiting.shown(heat, deployment.id, config), find_transport)
    assert after.status_reason == cancelled.status_reason
    late = runner.late_result(heat, after, find_transport)
    assert late['report'].startswith('disk ')


def test_delete_removes_the_queue(heat, session, zaqar, find_transport, demo_resources):
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['monitoring'], action='CHECK',
            server_ids=[demo_resources['monitor_server']], transport=TRANSPORT))
    [deployment] = result.created
    config = heat.software_configs.get(deployment.config_id)
    queue = _queue(config)
    assert queue in _queue_names(session, zaqar)
    # Once the server has posted: a post after the delete would make the queue again.
    waiting.wait_for('the result on the queue', lambda: find_transport(TRANSPORT).read_result(
        runner.derived_input_values(config)), timeout=30)

    assert runner.delete(heat, deployment.id, find_transport) == []
    assert queue not in _queue_names(session, zaqar)


def test_a_queue_its_server_makes_again_after_a_delete_goes_at_the_next_zaqar_run(
        cloud, heat, session, zaqar, find_transport, demo_resources):
    def start():
        [deployment] = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=demo_resources['monitoring'], action='CHECK',
                server_ids=[demo_resources['monitor_server']],
                input_values={'pause_seconds': 3}, transport=TRANSPORT)).created
        return deployment, heat.software_configs.get(deployment.config_id)

    deployment, config = start()
    queue = _queue(config)
    marker = servers.deployed_marker(cloud.layout, 'demo-mon-1', config.id)
    waiting.wait_for('the agent to start the run', marker.exists, timeout=30)
    # Deleted while the server runs it: its result, posted through the signed URL that Zaqar
    # cannot revoke, makes the queue again.
    assert runner.delete(heat, deployment.id, find_transport) == []
    waiting.wait_for('the server to make the queue again',
                     lambda: queue in _queue_names(session, zaqar), timeout=30)

    later, _config = start()
    try:
        assert queue not in _queue_names(session, zaqar)
    finally:
        runner.delete(heat, later.id, find_transport)
