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

"""Who did what to a schedule: the Schedules panel's Last Change (its record's latest history
entry, escaped: a username is anyone's text), and the history its form and actions keep."""

import re

from heat_deploy_runner.scheduling import schedules as runner_schedules
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit.test_schedule_change import change_url
from tests.unit import test_schedules
from tests.unit.test_schedules import INDEX_URL
from tests.unit.test_schedules import NAME
from tests.unit.test_schedules import record
from tests.unit.test_schedules import SCHEDULE_MOCKS
from tests.unit.test_schedules import trigger
from tests.unit.workflow_service import WorkflowService

UTC_TEXT = r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'
CREATED = {'what': 'created', 'by': 'someone', 'at': '2026-11-26T02:00:00Z'}


def entry(what, by='test_user', at='2026-11-27T06:40:00Z'):
    return {'what': what, 'by': by, 'at': at}


class LastChangeTests(helpers.TestCase):

    # By its module: a test class imported by name would run all its tests here again.
    _serve = test_schedules.SchedulesPanelTests._serve

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)
        self.workflow = WorkflowService(self)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_row_says_who_last_changed_the_schedule_and_when(self):
        self._serve([record(paused=True, history=[CREATED, entry('paused', 'demo')])], [])

        res = self.client.get(INDEX_URL)

        self.assertContains(res, 'Last Change')
        self.assertContains(res, 'paused by demo, 2026-11-27 06:40 UTC')
        self.assertNotContains(res, 'created by someone')

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_what_the_record_holds_is_escaped(self):
        self._serve([record(history=[entry('<i>wiped</i>', '<script>alert(1)</script>',
                                           at='<b>now</b>')])], [trigger()])

        res = self.client.get(INDEX_URL)

        self.assertNotContains(res, '<script>alert(1)')
        self.assertNotContains(res, '<i>wiped')
        self.assertNotContains(res, '<b>now')
        self.assertContains(res, '&lt;i&gt;wiped&lt;/i&gt; by &lt;script&gt;alert(1)'
                                 '&lt;/script&gt;, &lt;b&gt;now&lt;/b&gt;')

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_made_before_history_was_kept_shows_none(self):
        self._serve([record(), record('hdd-odd', history='created by mallory')],
                    [trigger(), trigger('hdd-odd')])

        rows = self.client.get(INDEX_URL).context['table'].data

        self.assertEqual([None, None], [row.last_change for row in rows])

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_pause_and_resume_add_to_the_history(self):
        self._serve([record(history=[CREATED])], [trigger()])
        self.workflow.keep(record(history=[CREATED]))

        self.client.post(INDEX_URL, {'action': f'schedules__pause__{NAME}'})

        history = self.workflow.saved(NAME)['history']
        self.assertEqual([CREATED, entry('paused', at=history[-1]['at'])], history)
        self.assertRegex(history[-1]['at'], UTC_TEXT)

        self._serve([record(paused=True, history=history)], [])
        self.workflow.keep(record(paused=True, history=history))
        self.client.post(INDEX_URL, {'action': f'schedules__resume__{NAME}'})

        resumed = self.workflow.saved(NAME)['history']
        self.assertEqual(history + [entry('resumed', at=resumed[-1]['at'])], resumed)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_the_history_keeps_the_latest_entries(self):
        long_ago = [entry('paused', f'user{i}') for i in range(runner_schedules.HISTORY_KEPT)]
        self._serve([record(paused=True, history=long_ago)], [])
        self.workflow.keep(record(paused=True, history=long_ago))

        self.client.post(INDEX_URL, {'action': f'schedules__resume__{NAME}'})

        history = self.workflow.saved(NAME)['history']
        self.assertEqual(runner_schedules.HISTORY_KEPT, len(history))
        self.assertEqual(('user1', 'resumed'), (history[0]['by'], history[-1]['what']))


class FormHistoryTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)
        self.workflow = WorkflowService(self)
        self.workflow.keep(test_schedules.retention_record())

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_schedule_made_from_the_form_says_who_made_it(self):
        self.serve()

        self.client.post(trigger_url(data.MYSQL_ID), mysql_form(repeat='0 2 * * *'))

        [(_, saved)] = self.workflow.mistral.environments.create.call_args_list
        [made] = saved['variables']['history']
        self.assertEqual(('created', 'test_user'), (made['what'], made['by']))
        self.assertTrue(re.fullmatch(UTC_TEXT, made['at']), made)

    @helpers.create_mocks(SCHEDULE_MOCKS)
    def test_a_change_keeps_the_earlier_history(self):
        self.serve()
        for paused in (False, True):
            with self.subTest(paused=paused):
                self.workflow.keep(record(paused=paused, history=[CREATED, entry('resumed')]))

                res = self.client.post(change_url(), mysql_form(repeat='30 4 * * 1'))

                self.assertNoFormErrors(res)
                history = self.workflow.saved(NAME)['history']
                self.assertEqual([CREATED, entry('resumed')], history[:2])
                self.assertEqual(('changed', 'test_user'),
                                 (history[2]['what'], history[2]['by']))
