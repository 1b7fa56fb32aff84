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

"""A service the dashboard calls, stopped under use: every page of the panels answers without
a server error, before the page's own poll would give up, and says which service is down; a
run started meanwhile is refused whole; once the service is back, the pages work again."""

from concurrent import futures
import os
import pathlib
import signal
import time

import pytest

from devcloud import credentials
import heat_deploy_runner as runner
from tests.integration import dashboard
from tests.integration import test_outages as outages
from tests.integration import waiting

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud

# The page's poller gives up on a reply after 20 s (deployment_poller.js).
PAGE_PATIENCE = 20
ORCHESTRATION = 'orchestration service'
KEYSTONE = 'identity service (Keystone)'


@pytest.fixture(scope='module')
def operation(heat, find_transport, demo_resources):
    """The id of an operation of one run, cancelled: its page and its Run Again on Failed both
    open. On a server no agent reads, so that nothing runs it."""
    started = runner.Operation.new(credentials.DEMO_USER, demo_resources['mysql'])
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=['no-agent-reads-this-server'], input_values={},
            transport='TEMP_URL_SIGNAL'), operation=started)
    [run] = result.created
    runner.cancel(heat, run.id, credentials.DEMO_USER, find_transport)
    yield started.id
    runner.delete(heat, run.id, find_transport)


def _pages(demo_resources, operation):
    component, server = demo_resources['mysql'], demo_resources['db_server_1']
    run = demo_resources['mysql_deployment_1']
    return [
        '/project/components/', f'/project/components/{component}/',
        f'/project/components/{component}/run/', '/project/deployments/',
        f'/project/deployments/{run}/', f'/project/deployments/{run}/outputs/deploy_stdout/',
        f'/project/deployments/{run}/rerun/', '/project/servers/', f'/project/servers/{server}/',
        f'/project/servers/{server}/?tab=server_details__metadata', '/project/configs/',
        f'/project/configs/{component}/', '/project/configs/create/',
        f'/project/deployments/operations/{operation}/',
        f'/project/deployments/operations/{operation}/rerun/',
    ]


def _visit(user, path):
    started = time.monotonic()
    response = user.get(path)
    return path, response, time.monotonic() - started


def _visit_all(user, paths):
    # A few at a time, as a few users would: the pages wait on the service side by side.
    with futures.ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda path: _visit(user, path), paths))


def _poll(user, run):
    started = time.monotonic()
    response = user.post('/project/deployments/status/', {'id': run})
    return response, time.monotonic() - started


def _state(heat, swift):
    """What a run would make: derived configs, deployments and Swift containers."""
    return ({c.id for c in heat.software_configs.list(limit=1000)},
            {d.id for d in heat.software_deployments.list()},
            {c['name'] for c in swift.get_account(full_listing=True)[1]})


def _run_backup(user, demo_resources):
    form = f'/project/components/{demo_resources["mysql"]}/run/'
    return user.post(form, {
        'action': 'BACKUP', 'servers': [demo_resources['db_server_1']],
        'transport': 'TEMP_URL_SIGNAL', 'timeout': '30', 'input__backup_dir': 'outage',
        'input__retention_days': '5', 'input__tables': 'users', 'input__labels': '{}',
        'input__pause_seconds': '0', 'input__backup_file': ''})


def _says(response, words):
    return words in response.text


def _complains(response):
    return response.status_code != 200 or dashboard.messages(response.text)


def _all_fine(user, paths):
    """Every page answers 200 with no message (None until then)."""
    if any(_complains(response) for _path, response, _s in _visit_all(user, paths)):
        return None
    return True


@pytest.mark.parametrize('service, named, refuses_runs', [
    ('heat-api', ORCHESTRATION, True),
    # heat-api takes the calls and waits for an engine that never answers.
    ('heat-engine', ORCHESTRATION, True),
    # Heat and Swift check tokens they have seen from their own caches: a run may start.
    ('keystone', KEYSTONE, False),
])
def test_without_the_service_every_page_says_so_in_time_and_nothing_is_half_made(
        cloud, user, heat, swift, demo_resources, operation, service, named, refuses_runs):
    paths = _pages(demo_resources, operation)
    run = demo_resources['mysql_deployment_1']
    # The form as shown before the outage: the submit is checked against it.
    user.get(paths[2])
    before = _state(heat, swift)

    with outages.stopped(cloud, service):
        visited = _visit_all(user, paths)
        poll, poll_seconds = _poll(user, run)
        submit = _run_backup(user, demo_resources) if refuses_runs else None

    for path, response, seconds in visited:
        assert response.status_code != 500, path
        assert seconds < PAGE_PATIENCE, (path, seconds)
        assert 'Traceback' not in response.text, path
        if _complains(response):
            assert _says(response, named), (path, dashboard.messages(response.text))
    assert sum(_says(response, named) for _path, response, _s in visited) >= 8
    # The poll names Heat when Heat is what failed it; with Keystone down Heat still answers
    # (it checks the tokens it has seen from its own cache).
    assert poll.status_code in (200, 503) and poll_seconds < PAGE_PATIENCE
    if poll.status_code == 503:
        assert named in poll.json()['error']
    if submit is not None:
        assert submit.status_code != 500
        assert _says(submit, named)
    # A moment for anything the service had queued to land before counting.
    waiting.wait_for('the pages to work again', lambda: _all_fine(user, paths), timeout=60,
                     interval=1)
    assert _state(heat, swift) == before


def test_without_object_storage_pages_work_and_a_tempurl_run_is_refused_whole(
        cloud, user, heat, swift, demo_resources, operation):
    paths = _pages(demo_resources, operation)
    user.get(paths[2])
    before = _state(heat, swift)

    with outages.stopped(cloud, 'swift-proxy'):
        visited = _visit_all(user, paths)
        submit = _run_backup(user, demo_resources)

    for path, response, seconds in visited:
        assert (response.status_code, seconds < PAGE_PATIENCE) == (200, True), path
        assert not dashboard.messages(response.text), path
    assert 'could not be prepared in Object Storage' in submit.text
    assert _state(heat, swift) == before


def test_without_zaqar_a_run_on_a_server_reading_its_metadata_there_is_refused_whole(
        cloud, user, heat, swift, demo_resources):
    """Heat stores the run, then fails to push the server's metadata to its queue and answers
    500: the run it stored goes with the rest (left, it ran without the place for its result
    and timed out, as a soak found)."""
    before = _state(heat, swift)

    with outages.stopped(cloud, 'zaqar'):
        submit = user.post(f'/project/components/{demo_resources["monitoring"]}/run/', {
            'action': 'CHECK', 'servers': [demo_resources['monitor_server']],
            'transport': 'TEMP_URL_SIGNAL', 'timeout': '5', 'input__threshold_percent': '90',
            'input__pause_seconds': '0', 'input__path': '.'})

    assert 'its deployment could not be created' in submit.text
    assert _state(heat, swift) == before


def test_once_heat_is_back_the_first_poll_that_follows_answers(
        cloud, user, heat, demo_resources):
    run = demo_resources['mysql_deployment_1']
    with outages.stopped(cloud, 'heat-api'):
        # Enough polls for both Horizon workers to meet the outage and hold Heat.
        for _ in range(4):
            poll, _seconds = _poll(user, run)
            assert poll.status_code == 503
            assert ORCHESTRATION in poll.json()['error']

    # start_service returned once heat-api answers. Each of its workers' first call with a
    # token can take longer than a page waits on this 2-core machine (keystonemiddleware gets
    # its own token and checks the user's): made here, past Horizon, side by side so that
    # every worker takes one (one warmed worker left the other cold in a CI run), and what
    # follows is Horizon's hold alone.
    with futures.ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: heat.software_deployments.get(run), range(4)))
    # The hold ends with the outage.
    poll, _seconds = _poll(user, run)
    assert poll.status_code == 200, poll.text


@pytest.fixture
def running_tempurl_run(heat, find_transport, demo_resources):
    """A TEMP_URL run that stays running, on a server no agent reads: Heat's show of it reads
    its signal object from Swift."""
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=['no-agent-reads-this-server'], input_values={},
            transport='TEMP_URL_SIGNAL'),
        operation=runner.Operation.new(credentials.DEMO_USER, demo_resources['mysql']))
    [run] = result.created
    yield run.id
    runner.delete(heat, run.id, find_transport)


def test_without_object_storage_messages_name_it_and_the_list_keeps_its_table(
        cloud, user, running_tempurl_run, demo_resources, operation):
    run = running_tempurl_run
    with outages.stopped(cloud, 'swift-proxy'):
        poll, poll_seconds = _poll(user, run)
        listed = user.get('/project/deployments/')
        detail = user.get(f'/project/deployments/{run}/')
    # heat-api, waiting on Swift for the run's show, may have kept other calls waiting too:
    # the workers that met it hold Heat a while. The tests that follow find it answering.
    waiting.wait_for('the pages to work again',
                     lambda: _all_fine(user, _pages(demo_resources, operation)), timeout=60,
                     interval=1)

    assert poll.status_code == 503 and poll_seconds < PAGE_PATIENCE
    assert poll.json()['error'] == 'Object Storage could not be reached.'
    # The list needs Heat alone: a slow show of a run (Heat waiting on Swift) holds no page.
    assert listed.status_code == 200
    assert dashboard.row_status(listed.text, run) == 'IN_PROGRESS'
    assert not dashboard.messages(listed.text)
    said = dashboard.messages(detail.text)
    assert said and all('Object Storage' in each and ORCHESTRATION not in each
                        for each in said), said


def _horizon_workers(cloud):
    master = cloud.sup.running('horizon').pid
    children = pathlib.Path(f'/proc/{master}/task/{master}/children').read_text().split()
    return [int(pid) for pid in children]


def test_a_horizon_worker_killed_under_use_costs_no_session_and_no_page(
        cloud, user, demo_resources, operation):
    # A list, a run, a form and a server: whichever worker serves them.
    paths = [_pages(demo_resources, operation)[i] for i in (0, 2, 4, 8)]
    workers = _horizon_workers(cloud)
    assert len(workers) == 2

    os.kill(workers[0], signal.SIGKILL)
    # gunicorn starts another in its place; until then the other worker serves.
    visited = _visit_all(user, paths)

    for path, response, seconds in visited:
        assert response.status_code == 200, path
        assert '/auth/login/' not in response.url, path
    waiting.wait_for('gunicorn to replace the worker',
                     lambda: len(set(_horizon_workers(cloud)) - set(workers)) == 1, timeout=30)
