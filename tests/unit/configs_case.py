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

"""What the tests of the Software Configs panel share: a script config made by
hand, the demo's configs and deployments (components_data), and a test case
serving them."""

import copy

from django.test.utils import override_settings
from django.urls import reverse
from heatclient.v1 import software_configs
from openstack_auth import policy

from heat_deploy_dashboard import api
from tests.unit import components_data as demo
from tests.unit import helpers

INDEX_URL = reverse('horizon:project:configs:index')
CREATE_URL = reverse('horizon:project:configs:create')
HEAT_MOCKS = {api.heat: ('configs_list', 'config_get', 'deployments_list',
                         'config_create', 'config_delete')}
DEPLOY_MOCKS = {**HEAT_MOCKS, api.deploy: ('start_runs',)}

HELLO_ID = 'c0ffee00-1111-4222-8333-444455556666'
HELLO = {
    'id': HELLO_ID,
    'name': 'hello',
    'group': 'script',
    'creation_time': '2026-11-23T10:00:00Z',
    'config': '#!/bin/sh\necho "$greeting" > "$heat_outputs_path.result"\n',
    'inputs': [
        {'name': 'greeting', 'type': 'String', 'default': 'hello',
         'description': 'What to say.'},
        {'name': 'count', 'type': 'Number', 'default': 1},
        {'name': 'loud', 'type': 'Boolean', 'default': False},
    ],
    'outputs': [{'name': 'result', 'type': 'String', 'error_output': False,
                 'description': 'What the script wrote.'}],
    'options': {'timeout': 30},
}
CONFIGS = [HELLO] + demo.CONFIGS


def url(name, config_id=HELLO_ID):
    return reverse('horizon:project:configs:' + name, args=[config_id])


def hello(**changes):
    return dict(copy.deepcopy(HELLO), **changes)


def resource(config):
    return software_configs.SoftwareConfig(None, copy.deepcopy(config),
                                           loaded=True)


class ConfigsTestCase(helpers.TestCase):

    def serve(self, configs=None, deployments=None):
        """Answer the Heat calls with these configs and deployments (by
        default HELLO and the demo's)."""
        configs = CONFIGS if configs is None else configs
        self.mock_configs_list.return_value = demo.summaries(configs)
        self.mock_config_get.side_effect = demo.config_getter(configs)
        self.mock_deployments_list.return_value = demo.deployments(deployments)

    def get_ajax(self, url):
        """A modal as Horizon's JavaScript asks for it: the form alone."""
        return self.client.get(url, HTTP_X_REQUESTED_WITH='XMLHttpRequest')


@override_settings(POLICY_CHECK_FUNCTION='openstack_auth.policy.check')
class PolicyEnforcedTestCase(ConfigsTestCase):
    """Heat's own policy rules, as the settings snippet registers them."""

    def setUp(self):
        super().setUp()
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        self.addCleanup(policy.reset)
