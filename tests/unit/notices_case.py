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

"""What the tests of notices (content/notices) share: their URLs, a subscription, the
attacker's text and a test case with the messaging service in the catalog."""

from django.contrib.messages import get_messages
from django.urls import reverse

from heat_deploy_dashboard import api
from heat_deploy_runner.following import notices
from tests.unit import helpers
from tests.unit import operation_data
from tests.unit import test_data


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
