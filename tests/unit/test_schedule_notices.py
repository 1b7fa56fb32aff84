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

"""Notices of a schedule: the Schedules panel links each one's notices, Zaqar asked with its
name, never for another project's, a schedule Mistral does not know, or one that runs on no
server."""

from unittest import mock

from mistralclient.api.v2 import environments

from heat_deploy_dashboard import api
from heat_deploy_runner.scheduling import schedules as runner_schedules
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit.notices_case import ATTACK
from tests.unit.notices_case import ATTACK_ESCAPED
from tests.unit.notices_case import HOOK
from tests.unit.notices_case import NoticeCase
from tests.unit.notices_case import notices_url
from tests.unit.notices_case import remove_url
from tests.unit.notices_case import SCHEDULES_URL
from tests.unit.notices_case import subscribe_url
from tests.unit.notices_case import SUBSCRIPTION
from tests.unit.notices_case import subscription
from tests.unit.notices_case import ZAQAR
from tests.unit.test_config_deploy import deployed_server
from tests.unit.test_config_deploy import heat_resources
from tests.unit import test_data
from tests.unit.test_schedules import NAME
from tests.unit.test_schedules import record
from tests.unit.test_schedules import SCHEDULE_MOCKS
from tests.unit.test_schedules import trigger


SCHEDULE_NOTICE_MOCKS = {
    **SCHEDULE_MOCKS, api.mistral: SCHEDULE_MOCKS[api.mistral] + ('schedule_record_get',),
    api.zaqar: ZAQAR}


class ScheduleNoticeTests(NoticeCase):

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)

    def serve(self, records):
        self.mock_stacks_list.return_value = data.stack_list()
        self.mock_resources_list.return_value = heat_resources(
            [deployed_server(data.DB_1, 'demo-db-1', 'db_server_1'),
             deployed_server(data.DB_2, 'demo-db-2', 'db_server_2')])
        self.mock_schedule_records.return_value = records
        self.mock_cron_triggers_list.return_value = [trigger(each.name) for each in records]
        self.mock_rolling_runs_list.return_value = []

    @helpers.create_mocks(SCHEDULE_NOTICE_MOCKS)
    def test_the_panel_links_each_schedules_notices_without_asking_zaqar(self):
        quiet = 'hdd-00000000-0000-4000-8000-000000000001'
        self.serve([record(), record(quiet, action='CHECK'),
                    record(runner_schedules.RETENTION, kind='retention')])

        res = self.client.get(SCHEDULES_URL)

        # One Zaqar listing per schedule would cost the panel as many calls as schedules.
        self.mock_notice_subscriptions.assert_not_called()
        self.assertContains(res, f'href="{notices_url("schedule", NAME)}"', count=1)
        self.assertContains(res, f'href="{notices_url("schedule", quiet)}"', count=1)
        self.assertNotContains(res, notices_url('schedule', runner_schedules.RETENTION))

    @helpers.create_mocks(SCHEDULE_NOTICE_MOCKS)
    def test_a_schedules_notices_page_lists_its_subscriptions_escaped(self):
        self.mock_schedule_record_get.return_value = record().variables
        self.mock_notice_subscriptions.return_value = [subscription(NAME, ATTACK)]

        res = self.client.get(notices_url('schedule', NAME))

        self.assertEqual(200, res.status_code)
        self.mock_notice_subscriptions.assert_called_once_with(helpers.IsHttpRequest(), NAME)
        self.assertContains(res, ATTACK_ESCAPED, count=1)
        self.assertNotContains(res, '<script>alert(1)')
        self.assertContains(res, f'action="{remove_url("schedule", NAME)}"')
        self.assertContains(res, f'href="{subscribe_url("schedule", NAME)}"')

    @helpers.create_mocks(SCHEDULE_NOTICE_MOCKS)
    def test_subscribing_and_removing_go_to_zaqar_with_the_schedules_name(self):
        self.mock_schedule_record_get.return_value = record().variables
        self.mock_notice_subscribe.return_value = subscription(NAME)
        self.mock_notice_unsubscribe.return_value = True

        res = self.client.post(subscribe_url('schedule', NAME),
                               {'subscriber': HOOK, 'when': 'failure'})

        self.assertRedirectsNoFollow(res, notices_url('schedule', NAME))
        self.mock_notice_subscribe.assert_called_once_with(
            helpers.IsHttpRequest(), NAME, 'failure', HOOK)
        self.mock_schedule_record_get.assert_called_with(helpers.IsHttpRequest(), NAME)

        res = self.client.post(remove_url('schedule', NAME))

        self.assertRedirectsNoFollow(res, notices_url('schedule', NAME))
        self.mock_notice_unsubscribe.assert_called_once_with(
            helpers.IsHttpRequest(), NAME, SUBSCRIPTION)

    @helpers.create_mocks({api.zaqar: ZAQAR})
    def test_another_projects_schedule_is_not_found_and_zaqar_is_not_asked(self):
        # Mistral shows an admin another project's environment by name.
        client = mock.Mock()
        client.environments.get.return_value = environments.Environment(None, {
            'name': NAME, 'project_id': 'another-project', 'variables': record().variables})
        with mock.patch.object(api.mistral, 'mistralclient', return_value=client):
            answers = [self.client.get(subscribe_url('schedule', NAME)),
                       self.client.post(subscribe_url('schedule', NAME),
                                        {'subscriber': HOOK, 'when': 'failure'}),
                       self.client.post(remove_url('schedule', NAME))]

        self.assertEqual([404, 404, 404], [res.status_code for res in answers])
        client.environments.get.assert_called_with(NAME)
        self.assert_zaqar_not_called()

    @helpers.create_mocks(SCHEDULE_NOTICE_MOCKS)
    def test_a_schedule_mistral_does_not_know_and_retention_are_not_found(self):
        self.mock_schedule_record_get.side_effect = LookupError(f'No schedule {NAME} in this '
                                                                'project.')
        self.assertEqual(404, self.client.get(subscribe_url('schedule', NAME)).status_code)

        self.mock_schedule_record_get.side_effect = None
        self.mock_schedule_record_get.return_value = record(
            runner_schedules.RETENTION, kind='retention').variables
        res = self.client.get(subscribe_url('schedule', runner_schedules.RETENTION))

        self.assertEqual(404, res.status_code)
        self.assert_zaqar_not_called()
