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

"""Operations followed to their end long after the token they were started with has ended, on
the real cloud: Keystone is started again with tokens of half a minute for the module (as
the quota tests restart heat-engine), and with its default life again afterwards. (A token
that short is renewed before each call by keystoneauth, which renews any token with less than
two minutes left: the command line takes some 40 s to start its runs then.)

Four operations start together (one timeline, as each waits on runs of a minute or more).
Three outlive two token lives: one from Run Action (its follower), one from the command line
(its follower), and a run in batches from the form whose last batch waits behind the first.
Each ends with its outcome recorded and one notice posted, and leaves no trust in Keystone.
The fourth's starter loses their role while it runs: it stops, with the sentence that says
so.
"""

import json
import os
import re
import subprocess
import uuid

import pytest

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud.services import identity
from devcloud.services import keystone as keystone_service
import heat_deploy_runner as runner
from heat_deploy_runner.mistral import trusts
from heat_deploy_runner import session_clients
from heat_deploy_runner import workflows
from tests.integration import dashboard
from tests.integration.test_unattended import _operation_of
from tests.integration.test_unattended import _runs_of
from tests.integration import waiting
from tests.integration import webhook

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud

TOKEN_SECONDS = 30
# Past two token lives: the last poll and the conclusion come with no token of the start.
RUN_SECONDS = 2 * TOKEN_SECONDS + 15
# The member's one role, revoked while their operation runs.
# The member role implies reader: the starter loses both.
LOST = str(runner.Message(trusts.ROLES_LOST, {'roles': 'member, reader'}))


def _openstack_started(cloud, *argv, **login):
    """A function returning the operation of an `openstack` command started now, in the
    background, once it has printed it."""
    env = dict(os.environ, **identity.cli_environment(cloud.layout, **login))
    started = subprocess.Popen([layout_mod.venv_bin('openstack'), *argv], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def operation():
        out, err = started.communicate(timeout=180)
        assert started.returncode == 0, err
        return json.loads(out)['operation']
    return operation


@pytest.fixture(scope='module')
def short_tokens(cloud, heat, find_transport):
    """Tokens of TOKEN_SECONDS; the runs the module made are deleted afterwards."""
    before = {each.id for each in heat.software_deployments.list()}
    cloud.restart_with('keystone', keystone_service.write_conf, TOKEN_SECONDS)
    try:
        yield
    finally:
        cloud.restart_with('keystone', keystone_service.write_conf,
                           keystone_service.TOKEN_EXPIRATION)
        for each in heat.software_deployments.list():
            if each.id not in before:
                runner.delete(heat, each.id, find_transport)


def _trusts_of(keystone, user_id):
    return {each.id for each in keystone.trusts.list(trustor_user=user_id)}


def _ended(mistral, operation_id, timeout):
    def check():
        found = mistral.executions.get(operation_id)
        return found if found.state not in workflows.RUNNING_STATES else None
    return waiting.wait_for(f'operation {operation_id} to end', check, timeout, interval=2)


@pytest.fixture(scope='module')
def notices_received(session, demo_resources):
    """Every notice of the three demo components goes to a local webhook: its bodies. (Its
    Zaqar client takes a token per call: one made now would end within the module.)"""
    with webhook.subscribed(session_clients.on_session(session).zaqar,
                            [demo_resources['mysql'], demo_resources['wordpress'],
                             demo_resources['monitoring']]) as received:
        yield received


@pytest.fixture(scope='module')
def member(cloud, keystone):
    """(name, id, role grant) of a new member of the demo project; deleted afterwards."""
    name = f'token-life-{uuid.uuid4().hex[:8]}'
    made = keystone.users.create(name, domain='default', password=name)
    [project] = keystone.projects.list(name=credentials.DEMO_PROJECT, domain='default')
    [role] = keystone.roles.list(name='member')
    keystone.roles.grant(role, user=made, project=project)
    yield name, made.id, (role, project)
    keystone.users.delete(made)


@pytest.fixture(scope='module')
def timeline(cloud, session, keystone, demo_resources, short_tokens, notices_received,
             member):
    """The operations' ids by what started them, once the member lost their role, and the
    demo user's trusts before any started."""
    name, member_id, (role, project) = member
    trusts_before = _trusts_of(keystone, session.get_user_id())
    # The command line's starts first: each takes some 40 s with tokens this short.
    from_cli = _openstack_started(
        cloud, 'software', 'component', 'run', 'monitoring', 'CHECK', '--server',
        'demo-mon-1', '--input', f'pause_seconds={RUN_SECONDS}', '-f', 'json')
    by_member = _openstack_started(
        cloud, 'software', 'component', 'run', 'monitoring', 'CHECK', '--server',
        'demo-mon-1', '--input', 'pause_seconds=5', '-f', 'json', username=name,
        password=name, project=credentials.DEMO_PROJECT)
    user = dashboard.Dashboard(cloud.layout.dashboard_url)
    user.login()
    started = {'form': _operation_of(user.post(
        f'/project/components/{demo_resources["wordpress"]}/run/', {
            'action': 'ROTATE_KEYS', 'servers': [demo_resources['web_server']],
            'transport': 'TEMP_URL_SIGNAL', 'timeout': '10',
            'input__db_dsn': 'mysql://db/demo', 'input__cache_size_mb': '64',
            'input__pause_seconds': str(RUN_SECONDS), 'input__key_secret': ''}))}
    started['batches'] = _operation_of(user.post(
        f'/project/components/{demo_resources["mysql"]}/run/', {
            'action': 'BACKUP', 'transport': 'TEMP_URL_SIGNAL', 'timeout': '10',
            'servers': [demo_resources['db_server_1'], demo_resources['db_server_2']],
            'batch_size': '1', 'max_failures': '0', 'input__backup_dir': 'token-life',
            'input__retention_days': '5', 'input__tables': '', 'input__labels': '{}',
            'input__pause_seconds': str(RUN_SECONDS // 2), 'input__backup_file': ''}))
    started['member'] = by_member()
    waiting.wait_for("the member's trust", lambda: _trusts_of(keystone, member_id),
                     timeout=30)
    keystone.roles.revoke(role, user=member_id, project=project)
    started['command line'] = from_cli()
    return started, trusts_before


@pytest.mark.parametrize('started_from', ['form', 'batches', 'command line'])
def test_an_operation_outlives_two_lives_of_the_token_it_was_started_with(
        mistral, heat, demo_resources, timeline, notices_received, started_from):
    started, _trusts_before = timeline
    operation_id = started[started_from]

    ended = _ended(mistral, operation_id, RUN_SECONDS * 2 + 120)

    assert (ended.state, ended.state_info) == ('SUCCESS', None)
    outcome = json.loads(ended.output)['outcome']
    assert outcome['counts'] == {'COMPLETE': 2 if started_from == 'batches' else 1}
    if started_from == 'batches':
        # The last batch started once the first had ended, a token life after the start.
        first, last = sorted(_runs_of(heat, operation_id), key=lambda run: run.creation_time)
        assert (first.server_id, last.server_id) == (demo_resources['db_server_1'],
                                                     demo_resources['db_server_2'])
        assert last.creation_time >= first.updated_time
    told = waiting.wait_for('its notice', lambda: [
        each for each in notices_received if each['body']['operation'] == operation_id],
        timeout=30)
    assert len(told) == 1


def test_no_trust_of_its_starter_is_left_once_every_operation_has_ended(
        session, mistral, keystone, timeline):
    started, trusts_before = timeline
    for operation_id in started.values():
        _ended(mistral, operation_id, RUN_SECONDS * 2 + 120)

    # Operations of earlier tests may have released theirs meanwhile.
    assert _trusts_of(keystone, session.get_user_id()) <= trusts_before


def test_an_operation_whose_starter_lost_their_role_stops_and_says_so(
        cloud, mistral, heat, timeline):
    started, _trusts_before = timeline

    ended = _ended(mistral, started['member'], 120)

    assert ended.state == 'ERROR'
    assert ended.state_info == LOST
    user = dashboard.Dashboard(cloud.layout.dashboard_url)
    user.login()
    page = user.get(f'/project/deployments/operations/{started["member"]}/')
    assert LOST in re.sub(r'\s+', ' ', page.text)
    # The run itself goes on on its server.
    [run] = _runs_of(heat, started['member'])
    assert waiting.finished(heat, run.id, timeout=RUN_SECONDS * 2).status == 'COMPLETE'
