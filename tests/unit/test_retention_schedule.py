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

"""Retention on the Schedules panel: made with the project's first schedule (with the
dashboard's settings), listed as a schedule that prunes, turned on by hand, and never
changed through a component's form."""

from unittest import mock

from django.contrib.messages import get_messages
from django.test.utils import override_settings
from django.urls import reverse

from heat_deploy_runner.scheduling import schedules as runner_schedules
from heat_deploy_runner import workflows
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit import test_schedules as case
from tests.unit.workflow_service import WorkflowService

RETENTION = runner_schedules.RETENTION
SETTINGS = {'keep_latest': 3, 'keep_days': 2, 'pattern': '0 4 * * *'}


class RetentionScheduleTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        # A project with no schedule yet.
        self.workflow = WorkflowService(self)

    @override_settings(HEAT_DEPLOY_RETENTION=SETTINGS)
    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_the_first_schedule_makes_the_retention_schedule_with_the_settings_bound(self):
        test_data.with_workflows(self)
        self.serve()

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(repeat='0 2 * * *'))

        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        self.assertIn('info', [m.level_tag for m in get_messages(res.wsgi_request)])
        [_schedule, (_, made)] = self.workflow.mistral.environments.create.call_args_list
        self.assertEqual((RETENTION, 'private'), (made['name'], made['scope']))
        saved = made['variables']
        self.assertEqual(('retention', '0 4 * * *', 'test_user'),
                         (saved['kind'], saved['pattern'], saved['owner']))
        _rolling, (name, started, pattern, workflow) = self.workflow.triggers_made()
        self.assertEqual((RETENTION, {'keep_latest': 3, 'keep_days': 2, 'keep_at_most': 2000}),
                         (name, started))
        self.assertEqual(('0 4 * * *', workflows.RETENTION_WORKFLOW), (pattern, workflow))

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_mistral_refusing_retention_still_makes_the_schedule_asked_for(self):
        test_data.with_workflows(self)
        self.serve()
        self.workflow.mistral.cron_triggers.create.side_effect = [
            mock.DEFAULT, ConnectionError('refused')]

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(repeat='0 2 * * *'))

        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        self.workflow.mistral.environments.delete.assert_called_once_with(RETENTION)


class RetentionRowTests(helpers.TestCase):

    _serve = case.SchedulesPanelTests._serve

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)
        self.workflow = WorkflowService(self)

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_retention_is_a_row_that_is_paused_resumed_and_deleted_but_not_changed(self):
        self._serve([case.retention_record(), case.record()], [case.trigger(RETENTION),
                                                               case.trigger()])

        res = self.client.get(case.INDEX_URL)

        self.assertContains(res, 'Archive runs past the bound')
        self.assertContains(res, 'keep_latest = 5')
        self.assertContains(res, f'schedules__pause__{RETENTION}')
        self.assertNotContains(res, reverse('horizon:project:schedules:change',
                                            args=[RETENTION]))
        self.assertContains(res, reverse('horizon:project:schedules:change',
                                         args=[case.NAME]))
        self.assertNotContains(res, 'Turn On Retention')
        self.workflow.keep(case.retention_record())
        self.assertEqual(404, self.client.get(reverse('horizon:project:schedules:change',
                                                      args=[RETENTION])).status_code)

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    @override_settings(HEAT_DEPLOY_RETENTION={'keep_days': 30, 'pattern': '5 4 * * *'})
    def test_resumed_retention_takes_the_settings_of_now(self):
        # Its bound was copied when it was made: an operator who changed the settings
        # pauses and resumes it.
        paused = case.retention_record()
        paused.variables['paused'] = True
        self._serve([paused], [])
        self.workflow.keep(paused)

        self.client.post(case.INDEX_URL, {'action': f'schedules__resume__{RETENTION}'})

        [(_name, started, pattern, _workflow)] = self.workflow.triggers_made()
        self.assertEqual((30, '5 4 * * *'), (started['keep_days'], pattern))
        saved = self.workflow.saved(RETENTION)
        kept = saved['input_values']
        self.assertEqual((30, 5, '5 4 * * *'),
                         (kept['keep_days'], kept['keep_latest'], saved['pattern']))

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_turn_on_retention_makes_it_when_the_project_has_none(self):
        self._serve([case.record()], [case.trigger()])
        self.workflow.keep(case.record())

        page = self.client.get(case.INDEX_URL)
        res = self.client.post(case.INDEX_URL, {'action': 'schedules__retention'})

        self.assertContains(page, 'Turn On Retention')
        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        [(name, _started, _pattern, workflow)] = self.workflow.triggers_made()
        self.assertEqual((RETENTION, workflows.RETENTION_WORKFLOW), (name, workflow))

    @override_settings(API_RESULT_PAGE_SIZE=1)
    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_schedules_come_a_page_at_a_time_and_retention_on_another_page_still_counts(self):
        self._serve([case.record(), case.retention_record()], [case.trigger(),
                                                               case.trigger(RETENTION)])

        first = self.client.get(case.INDEX_URL)
        second = self.client.get(case.INDEX_URL + '?marker=' + case.NAME)

        self.assertEqual([case.NAME], [row.name for row in first.context['table'].data])
        self.assertEqual([RETENTION], [row.name for row in second.context['table'].data])
        self.assertContains(first, '?marker=' + case.NAME)
        self.assertNotContains(first, 'Turn On Retention')
        # The same three calls to Mistral for a page as for every schedule.
        for listing in (self.mock_schedule_records, self.mock_cron_triggers_list,
                        self.mock_rolling_runs_list):
            self.assertEqual(2, listing.call_count)
