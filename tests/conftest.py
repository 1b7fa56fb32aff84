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

"""A real local cloud, started once for the whole test session by the first test that
needs it (integration and browser tests; unit tests never do).

It runs beside any `make demo` cloud: its own data directory (wiped first, so every run
starts from a fresh machine's state) and its own ports. TESTCLOUD_DIR and
TESTCLOUD_PORT_BASE move them, so two test runs can share a machine: make test runs the
modules that stop services (marked second_cloud) on a second cloud, beside the others.
"""

import functools
import os
import pathlib
import shutil
import sys

from heatclient import client as heat_client
from mistralclient.api import client as mistral_client
import pytest
from swiftclient import client as swift_client
from zaqarclient.queues.v2 import client as zaqar_client

from devcloud import cloud as cloud_mod
from devcloud import layout as layout_mod
from devcloud.services import identity
import heat_deploy_runner as runner
from heat_deploy_runner import workflows

TEST_PORT_BASE = 21000


def _progress(message):
    print(f'[testcloud] {message}', file=sys.stderr, flush=True)


def pytest_configure(config):
    config.addinivalue_line(
        'markers', 'restarts_cloud: stops and starts the whole shared cloud; run after every '
        'other test, so that a restart that went wrong fails only itself')
    config.addinivalue_line(
        'markers', 'second_cloud: a module (its pytestmark) that make test runs on a second '
        'cloud of its own, beside the others: it stops or restarts services, which would fail '
        'the others, changes users\' passwords and roles, or waits minutes on Mistral or on '
        'runs that print for a minute')


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker('restarts_cloud') is not None)


@pytest.fixture(scope='session')
def cloud():
    data_dir = pathlib.Path(os.environ.get('TESTCLOUD_DIR')
                            or layout_mod.REPO_ROOT / 'build' / 'testcloud')
    shutil.rmtree(data_dir, ignore_errors=True)
    layout = layout_mod.Layout(data_dir, int(os.environ.get('TESTCLOUD_PORT_BASE',
                                                            TEST_PORT_BASE)))
    the_cloud = cloud_mod.Cloud(layout, _progress)
    the_cloud.start()
    _progress(f'ready in {the_cloud.startup_seconds:.0f} s')
    yield the_cloud
    the_cloud.stop()


@pytest.fixture(scope='session')
def session(cloud):
    return identity.user_session(cloud.layout)


@pytest.fixture(scope='session')
def heat(session):
    return heat_client.Client('1', session=session, auth=session.auth)


@pytest.fixture(scope='session')
def swift(session):
    return swift_client.Connection(session=session, retries=1, timeout=30)


@pytest.fixture(scope='session')
def zaqar(session):
    """The demo user's Zaqar v2 client, configured as the dashboard configures it."""
    return zaqar_client.Client(
        session.get_endpoint(service_type='messaging', interface='public'), version=2,
        conf={'auth_opts': {'backend': 'keystone', 'options': {
            'os_auth_token': session.get_token(),
            'os_project_id': session.get_project_id()}}})


@pytest.fixture(scope='session')
def find_transport(swift, zaqar):
    return functools.partial(runner.transport_for, swift=swift, zaqar=zaqar)


@pytest.fixture(scope='session')
def demo_stack(cloud, heat):
    return heat.stacks.get('demo')


@pytest.fixture(scope='session')
def demo_resources(heat, demo_stack):
    """Physical ids of the demo stack's resources by name."""
    return {r.resource_name: r.physical_resource_id
            for r in heat.resources.list(demo_stack.id)}


@pytest.fixture
def start_run(heat, find_transport, demo_resources):
    """A function that triggers one action of a demo component on one demo server and returns
    (deployment, its derived config); every run it started is deleted afterwards."""
    created = []

    def start(component, action, server, transport='TEMP_URL_SIGNAL', live=False, **overrides):
        result = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=demo_resources[component], action=action, name=component,
                server_ids=[demo_resources[server]], input_values=overrides, transport=transport,
                live=live))
        assert result.failures == []
        [deployment] = result.created
        created.append(deployment.id)
        return deployment, heat.software_configs.get(deployment.config_id)

    yield start
    for deployment_id in created:
        runner.delete(heat, deployment_id, find_transport)


@pytest.fixture(scope='session')
def mistral(session):
    """The demo user's Mistral v2 client, at the workflowv2 endpoint of the catalog."""
    return mistral_client.client(
        mistral_url=session.get_endpoint(service_type='workflowv2', interface='public'),
        session=session)


def schedule_operations(mistral, name):
    """The ids of the operations (rolling workflow executions) a schedule's firings made."""
    return {each.id for each in mistral.executions.list(
        workflow_name='in:' + ','.join(workflows.ROLLING_WORKFLOWS), limit=1000)
        if f'"schedule": "{name}"' in (each.input or '')}


@pytest.fixture
def made_schedules(mistral, heat, find_transport):
    """A list for the names of the schedules a test makes: their triggers, records and the
    runs their firings made are deleted afterwards, whatever the test did."""
    names = []
    yield names
    for name in names:
        # A schedule made again fires through a trigger named after it (schedules).
        triggers = [each.name for each in mistral.cron_triggers.list()
                    if each.name == name or each.name.startswith(name + '.')]
        for delete, each in [(mistral.cron_triggers.delete, trigger) for trigger in triggers
                             ] + [(mistral.environments.delete, name)]:
            try:
                delete(each)
            except Exception:
                pass  # the test deleted it already
        operations = schedule_operations(mistral, name)
        for run in heat.software_deployments.list():
            if getattr(runner.operation_of_run(run), 'id', None) in operations:
                runner.delete(heat, run.id, find_transport)
