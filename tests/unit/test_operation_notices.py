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

"""Notices of an operation (content/notices): Notify Me and Remove on its page, its
subscriptions listed there; Zaqar asked only for the project's own operations and only with
the messaging service in the catalog."""

from heat_deploy_dashboard import api
from heat_deploy_runner.following import notices
from heat_deploy_runner import InputError
from heat_deploy_runner import Message
from tests.unit import helpers
from tests.unit.notices_case import ATTACK
from tests.unit.notices_case import ATTACK_ESCAPED
from tests.unit.notices_case import ELSEWHERE
from tests.unit.notices_case import HOOK
from tests.unit.notices_case import NoticeCase
from tests.unit.notices_case import OPERATION_ID
from tests.unit.notices_case import OPERATION_MOCKS
from tests.unit.notices_case import OPERATION_URL
from tests.unit.notices_case import remove_url
from tests.unit.notices_case import subscribe_url
from tests.unit.notices_case import SUBSCRIPTION
from tests.unit.notices_case import subscription
from tests.unit.notices_case import ZAQAR
from tests.unit import operation_data
from tests.unit import test_data
from tests.unit.test_schedules import NAME


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
