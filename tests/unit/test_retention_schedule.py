"""Retention on the Schedules panel: made with the project's first schedule (with the
dashboard's settings), listed as a schedule that prunes, turned on by hand, and never
changed through a component's form."""

from django.contrib.messages import get_messages
from django.test.utils import override_settings
from django.urls import reverse
from mistralclient.api import base as mistral_base
from mistralclient.api.v2 import environments

from heat_deploy_runner import retention
from heat_deploy_runner import schedule_kinds
from heat_deploy_runner import schedules as runner_schedules
from heat_deploy_runner import workflows
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit import test_schedules as case

RETENTION = runner_schedules.RETENTION
SETTINGS = {'keep_latest': 3, 'keep_days': 2, 'pattern': '0 4 * * *'}


def _retention_record():
    """As runner.schedules.create keeps it."""
    return environments.Environment(None, {
        'name': RETENTION, 'project_id': '1', 'variables': dict(
            schedule_kinds.RETENTION.record(retention.Policy()), owner='test_user',
            paused=False, secret_ref=None, secret_names=[])})


def _no_retention(request, name):
    if name == RETENTION:
        raise mistral_base.APIException(404, 'not found')
    return case.record(name)


class RetentionScheduleTests(ComponentsTestCase):

    @override_settings(HEAT_DEPLOY_RETENTION=SETTINGS)
    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_the_first_schedule_makes_the_retention_schedule_with_the_settings_bound(self):
        test_data.with_workflows(self)
        self.serve()
        self.mock_schedule_record_get.side_effect = _no_retention

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(repeat='0 2 * * *'))

        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        self.assertIn('info', [m.level_tag for m in get_messages(res.wsgi_request)])
        [_schedule, (args, kwargs)] = self.mock_schedule_record_save.call_args_list
        self.assertEqual((RETENTION, {'create': True}), (args[1], kwargs))
        self.assertEqual(('retention', '0 4 * * *', 'test_user'),
                         (args[2]['kind'], args[2]['pattern'], args[2]['owner']))
        _rolling, (args, kwargs) = self.mock_cron_trigger_create.call_args_list
        self.assertEqual((RETENTION, {'keep_latest': 3, 'keep_days': 2, 'keep_at_most': 2000}),
                         (args[1], args[2]))
        self.assertEqual(('0 4 * * *', workflows.RETENTION_WORKFLOW),
                         (kwargs['pattern'], kwargs['workflow']))

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_mistral_refusing_retention_still_makes_the_schedule_asked_for(self):
        test_data.with_workflows(self)
        self.serve()
        self.mock_schedule_record_get.side_effect = _no_retention
        self.mock_cron_trigger_create.side_effect = [None, ConnectionError('refused')]

        res = self.client.post(trigger_url(data.MYSQL_ID), mysql_form(repeat='0 2 * * *'))

        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        self.mock_schedule_record_delete.assert_called_once_with(helpers.IsHttpRequest(),
                                                                 RETENTION)


class RetentionRowTests(helpers.TestCase):

    _serve = case.SchedulesPanelTests._serve

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_retention_is_a_row_that_is_paused_resumed_and_deleted_but_not_changed(self):
        self._serve([_retention_record(), case.record()], [case.trigger(RETENTION),
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
        self.mock_schedule_record_get.return_value = _retention_record()
        self.assertEqual(404, self.client.get(reverse('horizon:project:schedules:change',
                                                      args=[RETENTION])).status_code)

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    @override_settings(HEAT_DEPLOY_RETENTION={'keep_days': 30, 'pattern': '5 4 * * *'})
    def test_resumed_retention_takes_the_settings_of_now(self):
        # Its bound was copied when it was made: an operator who changed the settings
        # pauses and resumes it.
        paused = _retention_record()
        paused.variables['paused'] = True
        self._serve([paused], [])
        self.mock_schedule_record_get.return_value = paused

        self.client.post(case.INDEX_URL, {'action': f'schedules__resume__{RETENTION}'})

        args, kwargs = self.mock_cron_trigger_create.call_args
        self.assertEqual((30, '5 4 * * *'), (args[2]['keep_days'], kwargs['pattern']))
        saved = self.mock_schedule_record_save.call_args.args[2]
        kept = saved['input_values']
        self.assertEqual((30, 5, '5 4 * * *'),
                         (kept['keep_days'], kept['keep_latest'], saved['pattern']))

    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_turn_on_retention_makes_it_when_the_project_has_none(self):
        self._serve([case.record()], [case.trigger()])
        self.mock_schedule_record_get.side_effect = _no_retention

        page = self.client.get(case.INDEX_URL)
        res = self.client.post(case.INDEX_URL, {'action': 'schedules__retention'})

        self.assertContains(page, 'Turn On Retention')
        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        [(args, kwargs)] = self.mock_cron_trigger_create.call_args_list
        self.assertEqual((RETENTION, workflows.RETENTION_WORKFLOW),
                         (args[1], kwargs['workflow']))

    @override_settings(API_RESULT_PAGE_SIZE=1)
    @helpers.create_mocks(case.SCHEDULE_MOCKS)
    def test_schedules_come_a_page_at_a_time_and_retention_on_another_page_still_counts(self):
        self._serve([case.record(), _retention_record()], [case.trigger(),
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
