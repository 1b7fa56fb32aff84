"""Notices (content/notices): Notify Me and Remove on a component's, a schedule's and an
operation's page, their subscriptions listed there; Zaqar's subscriptions through the API
seam (api.zaqar.notice_*), asked only for the project's own subjects and only with the
messaging service in the catalog."""

from unittest import mock

from django.contrib.messages import get_messages
from django.urls import reverse
from mistralclient.api import base as mistral_base
from mistralclient.api.v2 import environments

from heat_deploy_dashboard import api
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message
from heat_deploy_runner import notices
from heat_deploy_runner import schedules as runner_schedules
from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import detail_url
from tests.unit.components_case import HEAT_MOCKS
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import operation_data
from tests.unit.test_config_deploy import deployed_server
from tests.unit.test_config_deploy import heat_resources
from tests.unit import test_data
from tests.unit.test_schedules import NAME
from tests.unit.test_schedules import record
from tests.unit.test_schedules import SCHEDULE_MOCKS
from tests.unit.test_schedules import trigger

OPERATION_ID = operation_data.OPERATION.id
OPERATION_URL = reverse('horizon:project:deployments:operation', args=[OPERATION_ID])
SCHEDULES_URL = reverse('horizon:project:schedules:index')
# An operation no run of the project's carries.
ELSEWHERE = '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'
SUBSCRIPTION = '5f0c2a7b1d4c3e9f601a2b3c'
ATTACK = '{$ 7*7 $}<script>alert(1)</script>'
ATTACK_ESCAPED = '{% 7*7 %}&lt;script&gt;alert(1)&lt;/script&gt;'
HOOK = 'https://hooks.example.com/ops'

OPERATION_MOCKS = {api.heat: ('deployments_list', 'config_get'),
                   api.zaqar: ('notice_subscriptions', 'notice_subscribe',
                               'notice_unsubscribe')}
ZAQAR = ('notice_subscriptions', 'notice_subscribe', 'notice_unsubscribe')


def subscribe_url(kind, subject_id):
    return reverse('horizon:project:deployments:notice_subscribe',
                   kwargs={'kind': kind, 'subject_id': subject_id})


def notices_url(kind, subject_id):
    return reverse('horizon:project:deployments:notices',
                   kwargs={'kind': kind, 'subject_id': subject_id})


def remove_url(kind, subject_id, subscription_id=SUBSCRIPTION):
    return reverse('horizon:project:deployments:notice_remove',
                   kwargs={'kind': kind, 'subject_id': subject_id,
                           'subscription_id': subscription_id})


def subscription(subject_id, subscriber=HOOK, when=notices.ON_FAILURE, id=SUBSCRIPTION):
    return notices.Subscription(id, subject_id, when, subscriber)


class NoticeCase(helpers.TestCase):

    def setUp(self):
        super().setUp()
        test_data.with_messaging(self)

    def messages(self, res):
        return [(m.level_tag, str(m)) for m in get_messages(res.wsgi_request)]

    def assert_zaqar_not_called(self):
        for name in ZAQAR:
            getattr(self, 'mock_' + name).assert_not_called()


class OperationNoticeTests(NoticeCase):

    def serve(self):
        self.mock_deployments_list.return_value = operation_data.runs()
        self.mock_config_get.side_effect = operation_data.config_get

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_the_page_lists_its_subscriptions_escaped_with_remove_and_notify_me(self):
        self.serve()
        self.mock_notice_subscriptions.return_value = [
            subscription(OPERATION_ID, ATTACK),
            subscription(OPERATION_ID, 'mailto:ops@example.com', notices.ALWAYS, 'a1b2')]

        res = self.client.get(OPERATION_URL)

        self.mock_notice_subscriptions.assert_called_once_with(helpers.IsHttpRequest(),
                                                               OPERATION_ID)
        self.assertContains(res, ATTACK_ESCAPED, count=1)
        self.assertNotContains(res, '{$ 7*7 $}')
        self.assertNotContains(res, '<script>alert(1)')
        self.assertContains(res, 'mailto:ops@example.com')
        self.assertContains(res, '<td>On failure</td>')
        self.assertContains(res, '<td>Always</td>')
        self.assertContains(res, f'action="{remove_url("operation", OPERATION_ID)}"')
        self.assertContains(res, f'action="{remove_url("operation", OPERATION_ID, "a1b2")}"')
        self.assertContains(res, 'name="csrfmiddlewaretoken"')
        self.assertRegex(res.content.decode(), r'class="[^"]*ajax-modal[^"]*" href="%s"'
                         % subscribe_url('operation', OPERATION_ID))

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_zaqar_failing_is_a_muted_line_and_the_page_is_shown(self):
        self.serve()
        self.mock_notice_subscriptions.side_effect = ConnectionError('refused')

        res = self.client.get(OPERATION_URL)

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'class="text-muted hdd-notices-error">Subscriptions could '
                                 'not be read: the messaging service (Zaqar)')
        self.assertEqual([], self.messages(res))
        self.assertEqual(3, len(res.context['table'].data))

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_the_form_explains_where_and_when_zaqar_posts(self):
        self.serve()

        res = self.client.get(subscribe_url('operation', OPERATION_ID),
                              HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        self.assertTemplateUsed(res, 'notices/_subscribe.html')
        self.assertContains(res, 'Be told of the outcome of this operation when it ends.')
        self.assertContains(res, 'posts each notice to as JSON, or mailto:')
        self.assertContains(res, '<option value="failure" selected>On failure</option>')
        self.assertContains(res, '<option value="always">Always</option>')
        self.assert_zaqar_not_called()

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_subscribing_subscribes_the_operation_and_goes_back_to_its_page(self):
        self.serve()
        self.mock_notice_subscribe.return_value = subscription(OPERATION_ID)

        res = self.client.post(subscribe_url('operation', OPERATION_ID),
                               {'subscriber': f'  {HOOK} ', 'when': 'failure'})

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.mock_notice_subscribe.assert_called_once_with(
            helpers.IsHttpRequest(), OPERATION_ID, 'failure', HOOK)
        self.assertEqual([('success', f'{HOOK} is told when an operation fails.')],
                         self.messages(res))

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_a_bad_subscriber_is_refused_in_the_runners_words_and_nothing_is_called(self):
        self.serve()
        for subscriber in ('ftp://example.com/x', 'javascript:alert(1)', 'mailto:',
                           'https://exa mple.com', ATTACK):
            with self.subTest(subscriber):
                res = self.client.post(subscribe_url('operation', OPERATION_ID),
                                       {'subscriber': subscriber, 'when': 'always'})

                self.assertEqual([notices.BAD_SUBSCRIBER],
                                 res.context['form'].errors['subscriber'])
                self.assertNotContains(res, '{$ 7*7 $}')
                self.assertNotContains(res, '<script>alert(1)')
        self.mock_notice_subscribe.assert_not_called()

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_one_told_already_is_said_on_the_form(self):
        self.serve()
        self.mock_notice_subscribe.side_effect = InputError(
            Message(notices.ALREADY, {'subscriber': HOOK}))

        res = self.client.post(subscribe_url('operation', OPERATION_ID),
                               {'subscriber': HOOK, 'when': 'failure'})

        self.assertEqual(200, res.status_code)
        self.assertContains(res, f'{HOOK} is told of this already.')

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_zaqar_refusing_a_subscription_says_nothing_was_subscribed(self):
        self.serve()
        self.mock_notice_subscribe.side_effect = ConnectionError('refused')

        res = self.client.post(subscribe_url('operation', OPERATION_ID),
                               {'subscriber': HOOK, 'when': 'failure'})

        self.assertEqual(200, res.status_code)
        [(level, text)] = self.messages(res)
        self.assertEqual('error', level)
        self.assertIn('the messaging service (Zaqar)', text)
        self.assertIn('Nothing was subscribed.', text)

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_remove_removes_the_subscription_and_goes_back_to_the_page(self):
        self.serve()
        self.mock_notice_unsubscribe.return_value = True

        res = self.client.post(remove_url('operation', OPERATION_ID))

        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.mock_notice_unsubscribe.assert_called_once_with(
            helpers.IsHttpRequest(), OPERATION_ID, SUBSCRIPTION)
        self.assertEqual('success', self.messages(res)[0][0])

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_removing_one_gone_already_says_so_and_a_get_removes_nothing(self):
        self.serve()
        self.mock_notice_unsubscribe.return_value = False

        res = self.client.post(remove_url('operation', OPERATION_ID))

        self.assertRedirectsNoFollow(res, OPERATION_URL)
        self.assertEqual([('info', 'That notice was removed already.')], self.messages(res))
        self.mock_notice_unsubscribe.reset_mock()
        self.assertRedirectsNoFollow(self.client.get(remove_url('operation', OPERATION_ID)),
                                     OPERATION_URL)
        self.mock_notice_unsubscribe.assert_not_called()

    @helpers.create_mocks({**OPERATION_MOCKS, api.mistral: ('execution_get',)})
    def test_another_projects_operation_is_not_found_and_zaqar_is_not_asked(self):
        self.serve()
        # Mistral answers None for another project's execution.
        test_data.with_workflows(self)
        self.mock_execution_get.return_value = None
        for res in (self.client.get(subscribe_url('operation', ELSEWHERE)),
                    self.client.post(subscribe_url('operation', ELSEWHERE),
                                     {'subscriber': HOOK, 'when': 'failure'}),
                    self.client.post(remove_url('operation', ELSEWHERE))):
            self.assertEqual(404, res.status_code)
        self.assert_zaqar_not_called()

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_a_subject_of_the_wrong_shape_is_not_found(self):
        for url in ('/project/deployments/notices/operation/%s/subscribe/' % NAME,
                    '/project/deployments/notices/schedule/%s/subscribe/' % OPERATION_ID,
                    '/project/deployments/notices/stack/%s/subscribe/' % OPERATION_ID):
            with self.subTest(url):
                self.assertEqual(404, self.client.get(url).status_code)
        self.mock_deployments_list.assert_not_called()
        self.assert_zaqar_not_called()


class WithoutMessagingTests(helpers.TestCase):
    """No messaging service in the catalog: nothing of notices."""

    @helpers.create_mocks(OPERATION_MOCKS)
    def test_no_notify_me_and_the_views_are_not_found(self):
        self.mock_deployments_list.return_value = operation_data.runs()
        self.mock_config_get.side_effect = operation_data.config_get

        res = self.client.get(OPERATION_URL)

        self.assertEqual(200, res.status_code)
        self.assertNotContains(res, 'Notify Me')
        self.assertNotContains(res, 'hdd-notices')
        for res in (self.client.get(subscribe_url('operation', OPERATION_ID)),
                    self.client.post(subscribe_url('operation', OPERATION_ID),
                                     {'subscriber': HOOK, 'when': 'failure'}),
                    self.client.post(remove_url('operation', OPERATION_ID))):
            self.assertEqual(404, res.status_code)
        for name in ZAQAR:
            getattr(self, 'mock_' + name).assert_not_called()


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


SCHEDULE_NOTICE_MOCKS = {**SCHEDULE_MOCKS, api.zaqar: ZAQAR}


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
        self.mock_schedule_record_get.return_value = record()
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
        self.mock_schedule_record_get.return_value = record()
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
        self.mock_schedule_record_get.side_effect = mistral_base.APIException(404, 'gone')
        self.assertEqual(404, self.client.get(subscribe_url('schedule', NAME)).status_code)

        self.mock_schedule_record_get.side_effect = None
        self.mock_schedule_record_get.return_value = record(
            runner_schedules.RETENTION, kind='retention')
        res = self.client.get(subscribe_url('schedule', runner_schedules.RETENTION))

        self.assertEqual(404, res.status_code)
        self.assert_zaqar_not_called()
