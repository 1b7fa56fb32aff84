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

"""The clients the runner's calls are made on (session_clients): Zaqar's asks the session
for a token at each call, so a --wait or an action that follows for hours keeps reading
results after the token it started with has ended."""

from unittest import mock

import requests

from heat_deploy_runner import session_clients
from tests.unit.deploy import fakes


def test_zaqars_client_asks_the_session_for_a_token_at_each_call():
    sent = []

    def request(http, method, url, headers=None, **kwargs):
        sent.append(headers['X-Auth-Token'])
        answer = requests.Response()
        answer.status_code = 200
        answer._content = b'{"messages": {"total": 0, "claimed": 0, "free": 0}}'
        return answer

    zaqar = session_clients.on_session(fakes.RenewingSession()).zaqar
    with mock.patch.object(requests.Session, 'request', request):
        for _call in range(2):
            zaqar.queue('q', auto_create=False).stats

    assert sent == ['token-1', 'token-2']
