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

"""Notices of a component: Notify Me and Remove on its page, Zaqar asked with its config's
id, never for another project's."""

from heat_deploy_dashboard import api
from heat_deploy_runner.following import notices
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import detail_url
from tests.unit.components_case import HEAT_MOCKS
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit.notices_case import ATTACK
from tests.unit.notices_case import ATTACK_ESCAPED
from tests.unit.notices_case import HOOK
from tests.unit.notices_case import remove_url
from tests.unit.notices_case import subscribe_url
from tests.unit.notices_case import SUBSCRIPTION
from tests.unit.notices_case import subscription
from tests.unit.notices_case import ZAQAR
from tests.unit import test_data


COMPONENT_MOCKS = {**HEAT_MOCKS, api.zaqar: ZAQAR}


class ComponentNoticeTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        test_data.with_messaging(self)

    @helpers.create_mocks(COMPONENT_MOCKS)
    def test_the_components_page_lists_its_subscriptions(self):
        self.serve()
        self.mock_notice_subscriptions.return_value = [subscription(data.MYSQL_ID, ATTACK)]

        res = self.client.get(detail_url(data.MYSQL_ID))

        self.mock_notice_subscriptions.assert_called_once_with(helpers.IsHttpRequest(),
                                                               data.MYSQL_ID)
        self.assertContains(res, "every operation of this component&#x27;s actions")
        self.assertContains(res, ATTACK_ESCAPED, count=1)
        self.assertNotContains(res, '<script>alert(1)')
        self.assertContains(res, f'action="{remove_url("component", data.MYSQL_ID)}"')
        self.assertContains(res, f'href="{subscribe_url("component", data.MYSQL_ID)}"')

    @helpers.create_mocks(COMPONENT_MOCKS)
    def test_subscribing_and_removing_go_to_zaqar_with_the_components_config_id(self):
        self.serve()
        self.mock_notice_subscribe.return_value = subscription(
            data.MYSQL_ID, 'mailto:ops@example.com', notices.ALWAYS)
        self.mock_notice_unsubscribe.return_value = True

        res = self.client.post(subscribe_url('component', data.MYSQL_ID),
                               {'subscriber': 'mailto:ops@example.com', 'when': 'always'})

        self.assertRedirectsNoFollow(res, detail_url(data.MYSQL_ID))
        self.mock_notice_subscribe.assert_called_once_with(
            helpers.IsHttpRequest(), data.MYSQL_ID, 'always', 'mailto:ops@example.com')

        res = self.client.post(remove_url('component', data.MYSQL_ID))

        self.assertRedirectsNoFollow(res, detail_url(data.MYSQL_ID))
        self.mock_notice_unsubscribe.assert_called_once_with(
            helpers.IsHttpRequest(), data.MYSQL_ID, SUBSCRIPTION)

    @helpers.create_mocks(COMPONENT_MOCKS)
    def test_another_projects_component_is_not_found_and_zaqar_is_not_asked(self):
        self.serve()
        # Heat lists every project's configs to an admin, each with its project.
        rows = data.summaries()
        for row in rows:
            if row.id == data.MYSQL_ID:
                row._info['project'] = 'another-project'
        self.mock_configs_list.return_value = rows

        for res in (self.client.get(subscribe_url('component', data.MYSQL_ID)),
                    self.client.post(subscribe_url('component', data.MYSQL_ID),
                                     {'subscriber': HOOK, 'when': 'failure'}),
                    self.client.post(remove_url('component', data.MYSQL_ID))):
            self.assertEqual(404, res.status_code)
        for name in ZAQAR:
            getattr(self, 'mock_' + name).assert_not_called()
