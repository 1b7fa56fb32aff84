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

"""A cloud admin in the admin project: Heat lists every project's deployments to an admin, and
the panels still show only the project the admin is working in."""

from heatclient import client as heat_client

from devcloud import credentials
from devcloud.services import identity
from tests.integration import dashboard


def test_an_admin_sees_none_of_the_demo_projects_runs(cloud, heat):
    admin = identity.admin_session(cloud.layout)
    admin_heat = heat_client.Client('1', session=admin, auth=admin.auth)
    demo_runs = {d.id for d in heat.software_deployments.list()}
    # What the panels must undo: the admin's listing holds the demo project's runs.
    assert demo_runs <= {d.id for d in admin_heat.software_deployments.list()}

    user = dashboard.Dashboard(cloud.layout.dashboard_url)
    user.login('admin', credentials.ADMIN_PASSWORD)
    for path in ('/project/deployments/', '/project/servers/', '/project/components/'):
        response = user.get(path)
        assert response.status_code == 200, path
        assert [each for each in demo_runs if each in response.text] == [], path
