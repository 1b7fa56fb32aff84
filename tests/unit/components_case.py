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

"""What the tests of the Components panel and its form share."""

import copy

from django.test.utils import override_settings
from django.urls import reverse
from openstack_auth import policy

from heat_deploy_dashboard import api
from tests.unit import components_data as data
from tests.unit import helpers

INDEX_URL = reverse('horizon:project:components:index')
# A running run's signal is looked at (run_rows.as_they_are): serve() says nothing was sent yet.
HEAT_MOCKS = {api.heat: ('configs_list', 'deployments_list', 'stacks_list',
                         'config_get', 'stack_template', 'resources_list'),
              api.deploy: ('may_have_results',)}
TRIGGER_MOCKS = {**HEAT_MOCKS, api.deploy: ('may_have_results', 'start_runs')}


def detail_url(component_id):
    return reverse('horizon:project:components:detail', args=[component_id])


def trigger_url(component_id, query=''):
    return reverse('horizon:project:components:run',
                   args=[component_id]) + query


def mysql_form(**changes):
    """What the form posts for mysql when nothing is changed."""
    posted = {
        'action': 'BACKUP',
        'servers': [data.DB_1, data.DB_2],
        'transport': 'TEMP_URL_SIGNAL',
        'timeout': '60',
        'input__backup_dir': 'backups',
        'input__retention_days': '7',
        'input__compress': 'on',
        'input__tables': 'users,posts',
        'input__labels': '{"schedule": "manual"}',
        'input__backup_file': '',
    }
    posted.update(changes)
    return {key: value for key, value in posted.items() if value is not None}


class ComponentsTestCase(helpers.TestCase):

    def serve(self, configs=None, deployments=None):
        """Answer the Heat calls with the demo data (or these)."""
        self.mock_configs_list.return_value = data.summaries(configs)
        self.mock_config_get.side_effect = data.config_getter(configs)
        self.mock_deployments_list.return_value = data.deployments(
            deployments)
        self.mock_stacks_list.return_value = data.stack_list()
        self.mock_stack_template.return_value = copy.deepcopy(data.STACK_TEMPLATE)
        self.mock_resources_list.return_value = data.resource_list()
        self.mock_may_have_results.return_value = set()

    def serve_a_secret_input(self):
        """serve(), mysql declaring one more input, a secret by its name (db_password)."""
        secret = {'name': 'db_password', 'type': 'String', 'default': ''}
        self.serve(configs=[dict(data.MYSQL, inputs=data.MYSQL['inputs'] + [secret])]
                   + data.CONFIGS[1:])

    def heat_list_calls(self):
        return (self.mock_configs_list.call_count,
                self.mock_deployments_list.call_count,
                self.mock_stacks_list.call_count)

    def get_ajax(self, url):
        """A GET as Horizon's JavaScript makes it (a modal, or a page's
        tabs): the part alone, much quicker to render than a whole page."""
        return self.client.get(url, HTTP_X_REQUESTED_WITH='XMLHttpRequest')


@override_settings(POLICY_CHECK_FUNCTION='openstack_auth.policy.check')
class PolicyEnforcedTestCase(ComponentsTestCase):
    """Horizon's test settings switch policy checks off; this switches the
    real checks on, against the policy files the settings snippet registers.
    """

    def setUp(self):
        super().setUp()
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        self.addCleanup(policy.reset)
