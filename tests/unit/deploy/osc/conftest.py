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

"""The fixtures of the command line's tests (heat_deploy_runner.osc): a mysql component
deployed on two servers, OpenStackClient's app with Heat and Object Storage (a module whose
commands need Mistral or Zaqar gives its own), and Mistral's in-memory API."""

import pytest

from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from tests.unit.deploy.mistral_fakes import FakeMistral
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import PROJECT
from tests.unit.deploy.osc.app import SERVERS


@pytest.fixture
def mysql(heat):
    component_id = heat.add_config(
        name='demo-mysql-abcdefghijkl', group='component',
        config={'configs': [{'actions': ['CREATE'], 'tool': 'script', 'config': 'install'},
                            {'actions': ['BACKUP'], 'tool': 'script', 'config': 'dump'}]},
        inputs=[{'name': 'retention_days', 'type': 'Number', 'default': 7},
                {'name': 'db_password', 'type': 'String', 'default': ''}])
    start(heat, transport_for, RunRequest(config_id=component_id, action='CREATE',
                                          server_ids=('s1', 's2'), name='mysql',
                                          transport='NO_SIGNAL'))
    for stored in heat.deployments.values():
        stored['status'] = 'COMPLETE'
    return component_id


@pytest.fixture
def component(mysql):
    """The mysql component's config id."""
    return mysql


@pytest.fixture
def app(heat, swift):
    return App(heat, SERVERS, swift=swift)


@pytest.fixture
def mistral():
    return FakeMistral(PROJECT)
