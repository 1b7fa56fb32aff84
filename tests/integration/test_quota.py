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

"""At Heat's per-project caps (max_software_configs_per_tenant and
max_software_deployments_per_tenant), a run that cannot start says which cap, and what to do,
and leaves nothing made.

The cap is made cheap to reach: heat-engine is started again with both caps just above what
the demo project has (one run more fits), and with Heat's defaults again afterwards. Every run
is one derived config and one deployment, and the project has more configs than deployments
(its components' own), so the configs' cap is the one met.
"""

import re

import pytest

from devcloud.services import heat as heat_service
import heat_deploy_runner as runner
from tests.integration.command_line import openstack
from tests.integration import dashboard
from tests.integration.test_command_line import _made

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud


@pytest.fixture(scope='module')
def one_run_left(cloud, heat, find_transport):
    """The cap: one run more than the project has fits. The runs the module made are
    deleted afterwards."""
    before = {each.id for each in heat.software_deployments.list()}
    quota = len(heat.software_configs.list(limit=heat_service.DEFAULT_QUOTA)) + 1
    cloud.restart_with('heat-engine', heat_service.write_conf, quota)
    try:
        yield quota
    finally:
        cloud.restart_with('heat-engine', heat_service.write_conf, heat_service.DEFAULT_QUOTA)
        for each in heat.software_deployments.list():
            if each.id not in before:
                runner.delete(heat, each.id, find_transport)


# The demo's db servers by their stack resource: a sentence names a server by its name.
DB_SERVERS = {'db_server_1': 'demo-db-1', 'db_server_2': 'demo-db-2'}


def _says_the_cap(text, quota, server_id, name):
    return (f'Could not start BACKUP on server {name} ({server_id[:8]}): the project has '
            f'reached Heat&#x27;s limit of {quota} software configs' in text)


def test_a_run_on_two_servers_starts_the_one_that_fits_and_names_the_cap_for_the_other(
        user, heat, swift, demo_resources, one_run_left):
    named = {demo_resources[resource]: name for resource, name in DB_SERVERS.items()}
    servers = sorted(named)
    configs, deployments, containers = _made(heat, swift)

    response = user.post(f'/project/components/{demo_resources["mysql"]}/run/', {
        'action': 'BACKUP', 'servers': servers, 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '5', 'input__pause_seconds': '0'})

    assert '/project/deployments/operations/' in response.url
    said = dashboard.messages(response.text)
    assert 'Started BACKUP on 1 server.' in said
    assert any(_says_the_cap(each, one_run_left, servers[1], named[servers[1]])
               for each in said), said
    after = _made(heat, swift)
    assert (len(after[0] - configs), len(after[1] - deployments),
            len(after[2] - containers)) == (1, 1, 1)


def test_at_the_cap_the_form_says_it_and_makes_nothing(
        user, heat, swift, demo_resources, one_run_left):
    before = _made(heat, swift)
    server = demo_resources['db_server_1']

    response = user.post(f'/project/components/{demo_resources["mysql"]}/run/', {
        'action': 'BACKUP', 'servers': [server], 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '5', 'input__pause_seconds': '0'})

    assert '/project/deployments/operations/' not in response.url
    assert _says_the_cap(response.text, one_run_left, server, 'demo-db-1')
    assert 'Delete old runs, or ask your cloud administrator to raise the limit.' in re.sub(
        r'\s+', ' ', response.text)
    assert _made(heat, swift) == before


def test_at_the_cap_the_command_line_says_it_exits_non_zero_and_makes_nothing(
        cloud, heat, swift, demo_resources, one_run_left):
    before = _made(heat, swift)

    done = openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP', '--server',
                     'demo-db-1')

    assert done.returncode != 0
    assert (f"the project has reached Heat's limit of {one_run_left} software configs"
            in done.stderr), done.stderr
    assert 'Traceback' not in done.stderr
    assert _made(heat, swift) == before
