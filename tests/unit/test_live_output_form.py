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

"""Asking for live output on the run forms: ticked where HEAT_DEPLOY_LIVE_OUTPUT says the
project's images have the hook, and asked of every way the form runs (now, in batches, on a
schedule, Deploy), never of a run that waits for no result; the command shown says --live."""

import copy
from urllib import parse

from django.test.utils import override_settings
from django.urls import reverse

import heat_deploy_runner as runner
from heat_deploy_runner.signalling import live
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import TRIGGER_MOCKS
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import configs_case
from tests.unit import helpers
from tests.unit.test_config_deploy import DEPLOY_MOCKS
from tests.unit.test_config_deploy import DeployTestCase
from tests.unit import test_data
from tests.unit import test_deployment_rerun_and_late_result as rerun_case
from tests.unit.test_schedule_change import change_url
from tests.unit import test_schedules
from tests.unit.test_schedules import record
from tests.unit.test_schedules import SCHEDULE_MOCKS
from tests.unit.workflow_service import WorkflowService

# The project of Horizon's test user.
PROJECT = '1'


def _started():
    return runner.Started(created=data.triggered([data.DEPLOYMENTS[3]]),
                          operation=runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f',
                                                     'test_user', '2026-11-23T08:00:00Z'))


class LiveOutputFormTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        self.workflow = WorkflowService(self)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_the_box_is_ticked_where_the_setting_says_the_projects_images_have_the_hook(self):
        self.serve()
        for setting, ticked in ((None, False), (False, False), (True, True),
                                ([PROJECT, 'another'], True), (['another'], False),
                                # A text alone is no list of ids: "1" is in many an id.
                                (PROJECT, False)):
            with self.subTest(setting=setting), override_settings(
                    HEAT_DEPLOY_LIVE_OUTPUT=setting):
                page = self.client.get(trigger_url(data.MYSQL_ID))
                self.assertEqual(ticked, page.context['form']['live'].value())
                self.assertEqual(ticked, '--live' in page.context['commands'])

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_ticked_box_asks_live_output_of_the_runs_started_now(self):
        self.serve()
        self.mock_start_runs.return_value = _started()

        self.client.post(trigger_url(data.MYSQL_ID), mysql_form(live='on'))
        self.client.post(trigger_url(data.MYSQL_ID), mysql_form())

        self.assertEqual([True, False], [each.args[1].live
                                         for each in self.mock_start_runs.call_args_list])

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_run_that_waits_for_no_result_gets_no_live_output(self):
        self.serve()
        self.mock_start_runs.return_value = _started()

        self.client.post(trigger_url(data.MYSQL_ID), mysql_form(live='on',
                                                                transport='NO_SIGNAL'))

        self.assertFalse(self.mock_start_runs.call_args.args[1].live)
        # The box says which ways of reporting it goes with (transport_fields.js).
        page = self.client.get(trigger_url(data.MYSQL_ID))
        self.assertContains(page, 'data-hdd-for-transports="TEMP_URL_SIGNAL '
                                  'ZAQAR_SIGNED_URL_SIGNAL"')

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_runs_in_batches_ask_it_of_the_workflow_service(self):
        test_data.with_workflows(self)
        self.serve()

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(live='on',
                                                                      batch_size='1'))

        self.assertNoFormErrors(res)
        [started] = self.workflow.started()
        self.assertIs(True, started['live'])

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_keeps_it_and_its_change_form_shows_it(self):
        test_data.with_workflows(self)
        self.serve()
        self.workflow.keep(test_schedules.retention_record())

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(live='on',
                                                                      repeat='0 2 * * *'))
        self.assertNoFormErrors(res)
        [(_, made)] = self.workflow.mistral.environments.create.call_args_list
        self.assertIs(True, made['variables']['live'])

        self.workflow.keep(record(live=True))
        changed = self.client.get(change_url())
        self.assertIs(True, changed.context['form']['live'].value())
        self.assertIn('--live', changed.context['commands'])
        # A schedule made before live output was offered asks none.
        self.workflow.keep(record())
        self.assertIs(False, self.client.get(change_url()).context['form']['live'].value())

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_a_link_that_runs_a_live_run_again_ticks_it_whatever_the_setting(self):
        self.serve()
        for query, ticked in (('?live=true', True), ('?live=false', False), ('', False)):
            with self.subTest(query=query):
                form = self.client.get(trigger_url(data.MYSQL_ID, query)).context['form']
                self.assertEqual(ticked, form['live'].value())


LIVE_URL = 'https://swift:8080/v1/AUTH_1/hello-CREATE-1/live/2?temp_url_sig=0f'


class RunAgainTests(ComponentsTestCase):

    @helpers.create_mocks(rerun_case.RERUN_MOCKS)
    def test_run_again_of_a_live_run_asks_live_output_again(self):
        config = copy.deepcopy(rerun_case.DEPLOYED_CONFIG)
        config['inputs'].append({'name': live.LIVE_URL, 'type': 'String', 'value': LIVE_URL})
        self.serve(configs=data.CONFIGS + [config],
                   deployments=data.DEPLOYMENTS + [rerun_case.DEPLOYED_RUN])
        self.mock_deployment_get.return_value = data.deployments([rerun_case.DEPLOYED_RUN])[0]

        res = self.client.get(reverse('horizon:project:deployments:rerun',
                                      args=[rerun_case.DEPLOYED_RUN['id']]))

        self.assertEqual(['true'], parse.parse_qs(parse.urlsplit(res['Location']).query)['live'])


class DeployLiveTests(DeployTestCase):

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_deploy_asks_it_and_shows_it_in_its_command(self):
        self.serve()
        self.mock_start_runs.return_value = runner.Started(created=data.triggered(
            [dict(data.DEPLOYMENTS[3], server_id=data.DB_1)]))

        self.post_deploy(live='on')

        self.assertTrue(self.mock_start_runs.call_args.args[1].live)
        with override_settings(HEAT_DEPLOY_LIVE_OUTPUT=True):
            self.assertIn(' --live', self.get_ajax(configs_case.url('deploy')).context['commands'])
