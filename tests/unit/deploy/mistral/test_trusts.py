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

"""The Keystone trust an operation started through Mistral's API acts through once the
starter's token has ended (mistral.trusts): made by its first step from the token's user to
Mistral's service user, used by every later step, deleted by its last. Keystone's API, on a
keystoneauth session, is the seam."""

from datetime import datetime
from datetime import timedelta
from datetime import timezone
from unittest import mock

from keystoneauth1 import access
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1.identity import access as access_plugin
from keystoneauth1 import session as ks_session
import pytest

from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner.mistral import trusts

TOKEN_BODY = {
    'expires_at': '2999-01-01T00:00:00.000000Z', 'methods': ['password'],
    'project': {'id': 'p1', 'name': 'demo', 'domain': {'id': 'default'}},
    'user': {'id': 'u1', 'name': 'demo', 'domain': {'id': 'default'}},
    'roles': [{'id': 'r1', 'name': 'member'}, {'id': 'r2', 'name': 'reader'}],
    'catalog': [{'type': 'identity', 'name': 'keystone', 'endpoints': [
        {'interface': 'public', 'region': 'RegionOne', 'region_id': 'RegionOne',
         'url': 'http://keystone.example.com/v3'}]}]}


class _Keystone:
    """Keystone's trust calls, as a keystoneauth session's requests reach them."""

    def __init__(self):
        self.made = []
        self.deleted = []
        self.gone = set()

    def request(self, url, method, json=None, **kwargs):
        assert kwargs['endpoint_filter']['service_type'] == 'identity'
        response = mock.Mock(status_code=201)
        if method == 'POST':
            assert url == '/OS-TRUST/trusts'
            self.made.append(json['trust'])
            response.json.return_value = {'trust': {'id': f'trust-{len(self.made)}'}}
        else:
            assert method == 'DELETE'
            trust_id = url.rsplit('/', 1)[1]
            if trust_id in self.gone:
                raise ks_exc.NotFound()
            self.deleted.append(trust_id)
        return response


@pytest.fixture
def keystone(monkeypatch):
    found = _Keystone()
    monkeypatch.setattr(ks_session.Session, 'request',
                        lambda session, url, method, **kwargs: found.request(url, method,
                                                                             **kwargs))
    return found


def _token_session():
    auth_ref = access.create(body={'token': TOKEN_BODY}, auth_token='the-token')
    return ks_session.Session(auth=access_plugin.AccessInfoPlugin(auth_ref))


def _context(trust_id=None):
    return mock.Mock(**{'security.trust_id': trust_id, 'security.auth_token': 'the-token',
                        'security.service_catalog': TOKEN_BODY,
                        'execution.workflow_execution_id': 'ex-1'})


def test_the_trust_is_mistrals_own_kind_from_the_starter_to_its_service_user(keystone):
    expires = datetime(2026, 11, 28, 3, 0, tzinfo=timezone.utc)

    assert trusts.make(_token_session(), 'mistral-user', expires) == 'trust-1'

    assert keystone.made == [{
        'trustor_user_id': 'u1', 'trustee_user_id': 'mistral-user', 'project_id': 'p1',
        'impersonation': True, 'roles': [{'name': 'member'}, {'name': 'reader'}],
        'expires_at': '2026-11-28T03:00:00.000000Z'}]


def test_a_trust_already_gone_is_deleted_without_complaint(keystone):
    keystone.gone.add('trust-9')
    trusts.delete(_token_session(), 'trust-9')
    trusts.delete(_token_session(), 'trust-1')
    assert keystone.deleted == ['trust-1']


def test_the_trust_lasts_an_hour_past_the_operations_latest_end():
    now = datetime(2026, 11, 27, 22, 0, tzinfo=timezone.utc)
    deadline = now + timedelta(minutes=30)

    assert trusts.expires_at(now, until=deadline) == deadline + timedelta(hours=1)
    # Two batches, each tried twice, of 60-minute runs 90 s apart.
    assert trusts.expires_at(now, timeout_minutes=60, rounds=4, retry_delay=90) == (
        now + timedelta(hours=4, minutes=6) + timedelta(hours=1))


def test_an_operations_first_step_makes_its_trust_to_mistrals_service_user(
        keystone, monkeypatch):
    monkeypatch.setattr(clients_mod, 'service_user_id', lambda: 'mistral-user')

    made = actions.EntrustAction(until='2026-11-28T02:00:00+00:00').run(_context())

    assert made == {'trust_id': 'trust-1'}
    [trust] = keystone.made
    assert (trust['trustor_user_id'], trust['trustee_user_id'], trust['expires_at']) == (
        'u1', 'mistral-user', '2026-11-28T03:00:00.000000Z')


def test_a_firing_acts_through_its_triggers_trust_and_makes_none(keystone):
    assert actions.EntrustAction(timeout_minutes=60).run(_context('trigger-trust')) == {
        'trust_id': None}
    assert keystone.made == []


def test_every_later_step_acts_through_the_operations_trust(monkeypatch):
    through = []
    monkeypatch.setattr(clients_mod, '_trust_session',
                        lambda trust_id: through.append(trust_id) or _token_session())

    clients_mod.clients_for(_context().security, 'trust-1')
    clients_mod.clients_for(_context('trigger-trust').security)
    # Given none, an execution started through the API keeps the starter's token.
    clients_mod.clients_for(_context().security)

    assert through == ['trust-1', 'trigger-trust']


def test_the_last_step_deletes_the_operations_trust(keystone, monkeypatch):
    monkeypatch.setattr(clients_mod, '_trust_session', lambda trust_id: _token_session())

    assert actions.ReleaseAction(trust_id='trust-1').run(_context()) == {'released': False}
    assert keystone.deleted == ['trust-1']
    # A firing's (no trust of its own) deletes none.
    actions.ReleaseAction().run(_context('trigger-trust'))
    assert keystone.deleted == ['trust-1']


def test_where_keystone_refuses_a_trust_the_operation_goes_on_with_the_token(
        keystone, monkeypatch):
    monkeypatch.setattr(clients_mod, 'service_user_id', lambda: 'mistral-user')
    monkeypatch.setattr(keystone, 'request', mock.Mock(side_effect=ks_exc.Forbidden()))

    assert actions.EntrustAction(until='2026-11-28T02:00:00+00:00').run(_context()) == {
        'trust_id': None}


def test_a_trust_keystone_will_not_delete_is_left_to_expire_and_the_operation_ends(
        keystone, monkeypatch):
    monkeypatch.setattr(clients_mod, '_trust_session', lambda trust_id: _token_session())
    monkeypatch.setattr(keystone, 'request', mock.Mock(side_effect=ks_exc.Unauthorized()))

    assert actions.ReleaseAction(trust_id='trust-1').run(_context()) == {'released': False}
