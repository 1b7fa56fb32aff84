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

"""A 401 through an operation's trust is tried again with a new token a little later
(clients.TrustSession), and an action whose trust Keystone no longer honours ends with the
sentence saying why (trusts.why_unusable, clients.stops_where_trust_refused). keystoneauth's
session and Keystone's answers are the seam."""

from unittest import mock

from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import plugin
from keystoneauth1 import session as ks_session
from mistral_lib import actions as mistral_actions
import pytest
import yaml

from heat_deploy_runner import Message
from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner.mistral import trusts
from heat_deploy_runner import workflows

HEAT = 'http://heat.example.com/v1/p1/software_configs'


class _Auth(plugin.BaseAuthPlugin):
    """Mistral's service user through the trust: a new token each time it is invalidated."""

    def __init__(self):
        super().__init__()
        self.issued = []
        self.token = None

    def get_headers(self, session, **kwargs):
        if self.token is None:
            self.token = f'token-{len(self.issued) + 1}'
            self.issued.append(self.token)
        return {'X-Auth-Token': self.token}

    def invalidate(self):
        self.token = None
        return True


class _Clock:
    """time.monotonic and time.sleep, the pauses taken recorded."""

    def __init__(self):
        self.now = 100.0
        self.pauses = []

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        if seconds:
            self.pauses.append(seconds)
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    found = _Clock()
    monkeypatch.setattr(clients_mod.time, 'monotonic', found.monotonic)
    monkeypatch.setattr(clients_mod.time, 'sleep', found.sleep)
    return found


def _heat(monkeypatch, refused):
    """Heat behind keystoneauth's request: 401 for each token in ``refused``. The tokens it
    was sent, in order."""
    sent = []

    def request(session, url, method, authenticated=None, **kwargs):
        response = mock.Mock(status_code=200, headers={}, text='')
        if authenticated is not False:
            token = session.get_auth_headers()['X-Auth-Token']
            sent.append(token)
            response.status_code = 401 if token in refused else 200
        return response
    monkeypatch.setattr(ks_session.Session, 'request', request)
    return sent


def test_a_401_through_a_trust_is_tried_again_with_a_new_token_a_little_later(
        monkeypatch, clock):
    sent = _heat(monkeypatch, refused={'token-1', 'token-2'})
    session = clients_mod.TrustSession(auth=_Auth())

    assert session.get(HEAT).status_code == 200

    assert sent == ['token-1', 'token-2', 'token-3']
    assert clock.pauses == [2, 4]


def test_a_401_on_every_try_is_raised_after_four_tries_over_14_s(monkeypatch, clock):
    sent = _heat(monkeypatch, refused={f'token-{n}' for n in range(1, 10)})
    session = clients_mod.TrustSession(auth=_Auth())

    with pytest.raises(ks_exc.Unauthorized):
        session.get(HEAT)

    assert sent == ['token-1', 'token-2', 'token-3', 'token-4']
    assert clock.pauses == [2, 4, 8]


def test_a_401_answered_without_raising_is_returned_as_it_is(monkeypatch, clock):
    _heat(monkeypatch, refused={f'token-{n}' for n in range(1, 10)})
    session = clients_mod.TrustSession(auth=_Auth())

    # heatclient asks for the response and raises its own exception.
    assert session.get(HEAT, raise_exc=False).status_code == 401


def test_the_pauses_start_again_after_an_answer(monkeypatch, clock):
    _heat(monkeypatch, refused={'token-1', 'token-3'})
    auth = _Auth()
    session = clients_mod.TrustSession(auth=auth)

    session.get(HEAT)
    # Its token ends (keystoneauth asks for another shortly before): token-3.
    auth.invalidate()
    session.get(HEAT)

    assert clock.pauses == [2, 2]


def test_a_client_asking_again_itself_after_a_401_gets_its_token_after_the_pause(clock):
    # swiftclient, answered 401, invalidates the session and asks for a token once more.
    auth = _Auth()
    session = clients_mod.TrustSession(auth=auth)
    assert session.get_token() == 'token-1'

    session.invalidate()

    assert session.get_token() == 'token-2'
    assert clock.pauses == [2]


def test_a_call_of_the_token_itself_is_made_once(monkeypatch, clock):
    calls = []

    def request(session, url, method, **kwargs):
        calls.append(kwargs)
        return mock.Mock(status_code=401)
    monkeypatch.setattr(ks_session.Session, 'request', request)
    session = clients_mod.TrustSession(auth=_Auth())

    assert session.post('/auth/tokens', authenticated=False).status_code == 401
    assert len(calls) == 1 and clock.pauses == []


TRUST = {'id': 'trust-1', 'trustor_user_id': 'u1', 'project_id': 'p1',
         'roles': [{'id': 'r1', 'name': 'member'}, {'id': 'r2', 'name': 'reader'}]}


class _Keystone:
    """What Mistral's service user reads of Keystone, in its own project."""

    def __init__(self, trust=TRUST, enabled=True, held=('member', 'reader'), admin=True):
        self.trust = trust
        self.enabled = enabled
        self.held = held
        self.admin = admin

    def get(self, url, params=None, **kwargs):
        if url.startswith('/OS-TRUST/trusts/'):
            if self.trust is None:
                raise ks_exc.NotFound()
            return mock.Mock(**{'json.return_value': {'trust': self.trust}})
        if not self.admin:
            raise ks_exc.Forbidden()
        if url == '/users/u1':
            return mock.Mock(**{'json.return_value': {'user': {'enabled': self.enabled}}})
        assert url == '/role_assignments'
        assert params == {'user.id': 'u1', 'scope.project.id': 'p1', 'effective': True,
                          'include_names': True}
        return mock.Mock(**{'json.return_value': {'role_assignments': [
            {'role': {'name': name}} for name in self.held]}})


def _through_trust(refused=None):
    """A new session through the trust, whose token Keystone gives or refuses."""
    return mock.Mock(**{'get_auth_headers.side_effect': refused})


@pytest.mark.parametrize('keystone, refused, said', [
    (_Keystone(trust=None), ks_exc.Unauthorized(), Message(trusts.GONE)),
    (_Keystone(enabled=False), ks_exc.Forbidden(), Message(trusts.DISABLED)),
    (_Keystone(held=('reader',)), ks_exc.Forbidden(),
     Message(trusts.ROLE_LOST, {'roles': 'member'})),
    (_Keystone(held=()), ks_exc.Forbidden(),
     Message(trusts.ROLES_LOST, {'roles': 'member, reader'})),
    (_Keystone(admin=False), ks_exc.Forbidden(),
     Message(trusts.DISABLED_OR_ROLES_LOST, {'roles': 'member, reader'})),
], ids=['gone', 'disabled', 'a role lost', 'every role lost', 'not told apart'])
def test_keystone_refusing_the_trust_says_why(keystone, refused, said):
    assert trusts.why_unusable(keystone, _through_trust(refused), 'trust-1') == said


@pytest.mark.parametrize('keystone, refused', [
    (_Keystone(), None),
    (_Keystone(), ks_exc.Unauthorized()),
    (_Keystone(trust=None), ks_exc.Forbidden()),
    (_Keystone(), ks_exc.Forbidden()),
], ids=['token given', 'the service user refused', 'gone meanwhile', 'nothing lost'])
def test_a_trust_keystone_still_honours_or_does_not_explain_says_nothing(keystone, refused):
    assert trusts.why_unusable(keystone, _through_trust(refused), 'trust-1') is None


class _Action:
    def __init__(self, trust_id, failure):
        self.trust_id = trust_id
        self.failure = failure

    @clients_mod.stops_where_trust_refused
    def run(self, context):
        raise self.failure


def _context(trust_id=None):
    return mock.Mock(**{'security.trust_id': trust_id,
                        'execution.workflow_execution_id': 'op-1'})


def test_an_action_failed_through_a_refused_trust_ends_with_the_sentence(monkeypatch):
    asked = []
    monkeypatch.setattr(clients_mod, '_why_refused',
                        lambda trust_id: asked.append(trust_id) or Message(trusts.DISABLED))

    result = _Action('trust-1', ks_exc.Forbidden()).run(_context())

    assert result == mistral_actions.Result(error=str(Message(trusts.DISABLED)))
    assert asked == ['trust-1']


def test_a_firings_trust_is_asked_about_too(monkeypatch):
    asked = []
    monkeypatch.setattr(clients_mod, '_why_refused',
                        lambda trust_id: asked.append(trust_id) or Message(trusts.GONE))

    result = _Action(None, ks_exc.Unauthorized()).run(_context('trigger-trust'))

    assert result.error == str(Message(trusts.GONE)) and asked == ['trigger-trust']


def test_any_other_failure_is_raised_as_it_was(monkeypatch):
    asked = []
    monkeypatch.setattr(clients_mod, '_why_refused',
                        lambda trust_id: asked.append(trust_id))

    with pytest.raises(ks_exc.Forbidden):
        _Action('trust-1', ks_exc.Forbidden()).run(_context())
    with pytest.raises(ValueError):
        _Action(None, ValueError('no trust')).run(_context())
    assert asked == ['trust-1']


def test_keystone_not_answering_the_question_raises_the_failure(monkeypatch):
    def unanswered(service, through_trust, trust_id):
        raise ks_exc.ConnectFailure()
    monkeypatch.setattr(trusts, 'why_unusable', unanswered)
    monkeypatch.setattr(clients_mod, '_service_session', lambda conf=None, *a, **k: None)

    with pytest.raises(ks_exc.Forbidden):
        _Action('trust-1', ks_exc.Forbidden()).run(_context())


@pytest.mark.parametrize('name', [workflows.FOLLOW_WORKFLOW, workflows.ROLLING_WORKFLOW])
def test_the_workflows_stop_with_each_of_these_sentences(name):
    workflow = yaml.safe_load(workflows.definition(name))[name]
    stopped = workflow['vars']['stopped']
    for template in (trusts.GONE, trusts.DISABLED, trusts.ROLE_LOST, trusts.ROLES_LOST,
                     trusts.DISABLED_OR_ROLES_LOST):
        assert template.startswith(stopped)
    published = [task['publish-on-error']['stop'] for task in workflow['tasks'].values()
                 if 'publish-on-error' in task]
    assert published and all('startsWith($.stopped) => task().result' in each
                             for each in published)
