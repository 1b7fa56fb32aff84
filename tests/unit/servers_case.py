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

"""What the Servers panel's unit tests share: its URLs, Heat failures, and a test case that
serves servers_data through the mocked API seam."""

from django.urls import reverse
from heatclient import exc as heat_exc

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import servers_data as data

INDEX_URL = reverse('horizon:project:servers:index')
METADATA_TAB = '?tab=server_details__metadata'
# A running run's signal is looked at (run_rows.as_they_are): serve() says nothing was sent yet.
HEAT_MOCKS = {api.heat: ('deployments_list', 'config_get'), api.deploy: ('may_have_results',)}
HEAT_DOWN = {
    'unreachable': heat_exc.CommunicationError(
        message='Error communicating with http://10.9.9.9:8004/v1/p [Errno 111] '
                'Connection refused'),
    'server error': heat_exc.HTTPInternalServerError(
        message='{"error": {"message": "Traceback: DBError in software_deployment_get_all"}}'),
}
RAW_ERROR_TEXT = ('10.9.9.9', 'Connection refused', 'Traceback', 'DBError')


def server_url(server_id=data.DB_1):
    return reverse('horizon:project:servers:detail', args=[server_id])


def reveal_url(server_id=data.DB_1):
    return reverse('horizon:project:servers:reveal_metadata', args=[server_id])


def detail_url(deployment):
    return reverse('horizon:project:deployments:detail', args=[deployment['id']])


class ServersTestCase(helpers.TestCase):

    def serve(self, infos=None, configs=None):
        self.mock_deployments_list.return_value = data.deployments(infos)
        self.mock_config_get.side_effect = data.config_getter(configs)
        self.mock_may_have_results.return_value = set()
