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

"""While Keystone is down, a page of the panels says so (503) instead of a server error:
Horizon's menu asks Keystone after the view has done its work (middleware.py)."""

from unittest import mock

from django.urls import reverse
from keystoneauth1 import exceptions as ksa_exc

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import servers_case as case

MENU = ('openstack_dashboard.dashboards.identity.application_credentials.panel.'
        'ApplicationCredentialsPanel.can_access')


REFUSED = ksa_exc.ConnectFailure('Unable to establish connection to '
                                 'http://10.9.9.9:5000/v3/users/u/projects: Connection refused')


class IdentityUnreachableTests(case.ServersTestCase):

    @helpers.create_mocks({**case.HEAT_MOCKS, api.keystone: ('answers',)})
    def test_a_panels_page_names_keystone_and_offers_to_try_again(self):
        self.serve()
        self.mock_answers.return_value = False

        with mock.patch(MENU, side_effect=REFUSED):
            res = self.client.get(case.INDEX_URL + '?marker=x')

        self.assertEqual(503, res.status_code)
        self.assertContains(res, 'The identity service (Keystone) could not be reached',
                            status_code=503)
        self.assertContains(res, f'href="{case.INDEX_URL}?marker=x"', status_code=503)
        self.assertNotContains(res, 'Traceback', status_code=503)

    @helpers.create_mocks({**case.HEAT_MOCKS, api.keystone: ('answers',)})
    def test_while_keystone_answers_the_failure_is_not_blamed_on_it(self):
        self.serve()
        self.mock_answers.return_value = True

        with mock.patch(MENU, side_effect=REFUSED):
            with self.assertRaises(ksa_exc.ConnectFailure):
                self.client.get(case.INDEX_URL)

    @helpers.create_mocks({api.keystone: ('answers',)})
    def test_pages_of_other_dashboards_are_left_to_horizon(self):
        self.mock_answers.return_value = False
        with mock.patch(MENU, side_effect=REFUSED):
            with self.assertRaises(ksa_exc.ConnectFailure):
                self.client.get(reverse('horizon:settings:user:index'))
