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

"""Mistral's own API as an action calls it (mistral.service): a call that could not connect
(the API restarting while the engine fires a schedule) is made again, not the firing's end."""

from unittest import mock

from keystoneauth1 import session as ks_session
from keystoneauth1 import token_endpoint
import requests

from heat_deploy_runner.mistral import service


def _answer(body):
    answer = requests.Response()
    answer.status_code = 200
    answer._content = body
    return answer


def test_a_call_that_met_the_api_restarting_is_made_again():
    session = ks_session.Session(auth=token_endpoint.Token('http://mistral:8989/v2', 't'))
    tries = []

    def request(http, method, url, **kwargs):
        tries.append(url)
        if len(tries) < 3:
            raise requests.exceptions.ConnectionError('Connection refused')
        return _answer(b'{"variables": "{\\"servers\\": [\\"s1\\"]}"}')

    with mock.patch.object(requests.Session, 'request', request), \
            mock.patch('keystoneauth1.session.time.sleep') as slept:
        assert service.environment(session, 'hdd-1') == {'servers': ['s1']}

    assert tries == ['http://mistral:8989/v2/environments/hdd-1'] * 3
    assert [call.args[0] for call in slept.call_args_list] == [0.5, 1.0]
