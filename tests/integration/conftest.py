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

"""What the integration modules share beyond tests/conftest.py's cloud and clients."""

from keystoneclient.v3 import client as ks_client
import pytest

from devcloud.services import identity
import heat_deploy_runner as runner
from tests.integration import dashboard


@pytest.fixture(scope='module')
def user(cloud):
    """The demo user, logged in to Horizon over HTTP: a session of each module's own, so that
    one module's messages and filters never reach another's pages."""
    session = dashboard.Dashboard(cloud.layout.dashboard_url)
    session.login()
    return session


@pytest.fixture
def cleanup(heat, find_transport):
    """A list for the runs a test makes itself: deleted afterwards, whatever the test did."""
    created = []
    yield created
    for deployment in created:
        runner.delete(heat, deployment.id, find_transport)


@pytest.fixture(scope='module')
def keystone(cloud):
    """Keystone's client as the cloud's admin (the trusts of every user)."""
    return ks_client.Client(session=identity.admin_session(cloud.layout))
