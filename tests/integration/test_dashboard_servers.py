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

"""A user browses a server's deployment history and its agent's metadata, on the real cloud."""

import re
import uuid

import heat_deploy_runner as runner
from heat_deploy_runner.configs import derived
from heat_deploy_runner.signalling import tempurl
from tests.integration import dashboard
from tests.integration import waiting

# Horizon's default API_RESULT_PAGE_SIZE, which the local cloud keeps.
PAGE_SIZE = 20


def _shown(page):
    return re.findall(r'<tr[^>]*data-object-id="([^"]+)"', page)


def test_a_servers_page_lists_its_newest_runs_with_their_inputs_and_a_timeline(
        user, heat, find_transport, demo_resources):
    server = demo_resources['db_server_1']
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=[server], input_values={'retention_days': 21, 'pause_seconds': 0},
            transport='TEMP_URL_SIGNAL'))
    waiting.finished(heat, result.created[0].id)
    runs = heat.software_deployments.list(server_id=server)

    page = user.get(f'/project/servers/{server}/').text

    # Other tests run actions on this server too: the newest page of them.
    newest = sorted(runs, key=lambda run: (run.creation_time, run.id), reverse=True)
    assert _shown(page) == [run.id for run in newest[:PAGE_SIZE]]
    assert 'retention_days' in page and '21' in page
    assert page.count('<svg') == 1
    assert f'/project/deployments/{result.created[0].id}/rerun/' in page


def test_a_long_history_is_paged_newest_first(user, heat, find_transport, demo_resources):
    # Heat takes any server id for a deployment of its own: a made-up server, its runs ours.
    server = str(uuid.uuid4())
    made = [runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=[server], transport='NO_SIGNAL')).created[0].id
            for _ in range(PAGE_SIZE + 1)]
    try:
        first = user.get(f'/project/servers/{server}/').text
        marker = _shown(first)[-1]
        second = user.get(f'/project/servers/{server}/?marker={marker}').text
    finally:
        for deployment_id in made:
            runner.delete(heat, deployment_id, find_transport)

    assert len(_shown(first)) == PAGE_SIZE
    assert f'?marker={marker}' in first
    assert set(_shown(first)) | set(_shown(second)) == set(made)
    assert len(_shown(second)) == 1


def test_the_servers_list_names_each_server_from_its_stack(user, heat, demo_resources):
    page = user.get('/project/servers/').text
    for resource, name in (('db_server_1', 'demo-db-1'), ('db_server_2', 'demo-db-2'),
                           ('web_server', 'demo-web-1')):
        assert f'<a href="/project/servers/{demo_resources[resource]}/">{name}</a>' in page


def test_the_deployments_filter_finds_a_servers_runs_by_its_name(user, heat, demo_resources):
    server = demo_resources['db_server_2']
    page = user.post('/project/deployments/', {'deployments__filter__q_field': 'server',
                                               'deployments__filter__q': 'demo-db-2'}).text

    shown = set(re.findall(r'<tr[^>]*data-object-id="([^"]+)"', page))
    assert shown
    assert shown <= {run.id for run in heat.software_deployments.list(server_id=server)}


def test_the_agents_metadata_is_shown_with_its_secrets_masked(user, heat, demo_resources):
    server = demo_resources['db_server_1']
    metadata = heat.software_deployments.metadata(server_id=server)
    signatures = re.findall(r'temp_url_sig=([0-9a-f]{20,})', repr(metadata))
    assert signatures, 'the demo server\'s metadata should hold TempURL signatures'

    page = user.get(f'/project/servers/{server}/?tab=server_details__metadata').text

    assert 'deploy_signal_id' in page
    for signature in signatures:
        assert signature not in page


def test_a_result_that_arrived_while_nobody_watched_shows_without_opening_the_run(
        user, heat, swift, start_run, demo_resources):
    deployment, config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=0)
    signal = tempurl.signal_location(derived.derived_input_values(config))
    # Delivered, and nothing has shown the run in Heat since, so Heat's listing still has it
    # running: Heat reads a TempURL result only when the run is shown.
    waiting.wait_for('the agent to deliver the result',
                     lambda: int(swift.head_object(*signal)['content-length']), timeout=60)
    [listed] = [d for d in heat.software_deployments.list(server_id=deployment.server_id)
                if d.id == deployment.id]
    assert listed.status == 'IN_PROGRESS'

    page = user.get(f'/project/servers/{deployment.server_id}/').text

    assert dashboard.row_status(page, deployment.id) == 'COMPLETE'
