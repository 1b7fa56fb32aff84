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

"""An operation followed through its trust, on the real cloud, when its starter changes:
a password changed in the operation's first second, or 15 s into it, refuses the tokens
asked for in that second only, and the operation ends as it would have; a starter disabled,
or who lost a role, stops it with a sentence saying which. Each case has a starter of its
own, deleted afterwards, so that no other test's user changes."""

from datetime import datetime
from datetime import timezone
import json
import time
import uuid

from mistralclient.api import client as mistral_client
import pytest

from devcloud import credentials
from devcloud.services import identity
import heat_deploy_runner as runner
from heat_deploy_runner.following import followers
from heat_deploy_runner.mistral import trusts
from heat_deploy_runner import session_clients
from heat_deploy_runner import times
from heat_deploy_runner import workflows
from tests.integration.test_unattended import _runs_of
from tests.integration import waiting

# It changes the starter's password, disables users and takes roles away.
pytestmark = pytest.mark.second_cloud

RUN_SECONDS = 30
# How long the first case changes the starter's password for.
FIRST_SECONDS = 3


@pytest.fixture
def starter(cloud, keystone, heat, find_transport):
    """(name, id) of a new user with the demo user's roles in the demo project; deleted
    afterwards, with the runs their operations made."""
    name = f'trust-{uuid.uuid4().hex[:8]}'
    made = keystone.users.create(name, domain='default', password=name)
    [project] = keystone.projects.list(name=credentials.DEMO_PROJECT, domain='default')
    for role in identity.PROJECT_MEMBER_ROLES:
        [found] = keystone.roles.list(name=role)
        keystone.roles.grant(found, user=made, project=project)
    made_runs = []
    yield name, made.id, made_runs
    keystone.users.delete(made)
    for run_id in made_runs:
        runner.delete(heat, run_id, find_transport)


def _followed(cloud, keystone, heat, demo_resources, starter, pause_seconds=RUN_SECONDS):
    """The id of an operation the starter started and Mistral follows, once Keystone has its
    trust: from then on its steps act through that trust."""
    name, user_id, made_runs = starter
    session = identity.user_session(cloud.layout, name, name)
    clients = session_clients.on_session(session)
    request = runner.RunRequest(
        config_id=demo_resources['monitoring'], action='CHECK', name='monitoring',
        server_ids=[demo_resources['monitor_server']],
        input_values={'pause_seconds': str(pause_seconds), 'threshold_percent': '100'})
    started = runner.start(clients.heat, clients.find_transport, request, runner.Operation.new(
        name, request.config_id, runner=runner.FOLLOWED))
    assert started.failures == []
    made_runs.extend(run.id for run in started.created)
    mistral = mistral_client.client(
        mistral_url=session.get_endpoint(service_type='workflowv2', interface='public'),
        session=session)
    followers.follow(mistral, session.get_project_id(), started)
    waiting.wait_for(f"{name}'s trust",
                     lambda: keystone.trusts.list(trustor_user=user_id), interval=0.05)
    return started.operation.id


def _ended(mistral, operation_id):
    def check():
        found = mistral.executions.get(operation_id)
        return found if found.state not in workflows.RUNNING_STATES else None
    return waiting.wait_for(f'operation {operation_id} to end', check,
                            timeout=RUN_SECONDS * 4 + 120, interval=2)


def _password_changed(keystone, user_id):
    keystone.users.update(user_id, password=uuid.uuid4().hex)


def test_a_password_changed_in_the_first_second_ends_nothing(
        cloud, keystone, heat, mistral, demo_resources, starter):
    operation_id = _followed(cloud, keystone, heat, demo_resources, starter)
    # The first step after the trust asks for its first token through it now, in a second
    # unknown to the test: the password is changed again and again through the first
    # seconds, so that a change shares that second whichever it is (Keystone then refuses
    # the token when Heat checks it, and a new token asked for at once too).
    changing_until = time.monotonic() + FIRST_SECONDS
    while time.monotonic() < changing_until:
        _password_changed(keystone, starter[1])

    ended = _ended(mistral, operation_id)

    assert (ended.state, ended.state_info) == ('SUCCESS', None)
    assert json.loads(ended.output)['outcome']['counts'] == {'COMPLETE': 1}


def test_a_password_changed_while_it_runs_ends_nothing(
        cloud, keystone, heat, mistral, demo_resources, starter):
    operation_id = _followed(cloud, keystone, heat, demo_resources, starter)
    [run] = _runs_of(heat, operation_id)
    waiting.wait_for('the run to be 15 s old', lambda: _seconds_since(run) >= 15,
                     timeout=60, interval=0.5)
    _password_changed(keystone, starter[1])

    ended = _ended(mistral, operation_id)

    assert (ended.state, ended.state_info) == ('SUCCESS', None)
    assert json.loads(ended.output)['outcome']['counts'] == {'COMPLETE': 1}


def _seconds_since(run):
    return (datetime.now(timezone.utc) - times.parse_time(run.creation_time)).total_seconds()


@pytest.mark.parametrize('change', ['disabled', 'role removed'])
def test_a_starter_disabled_or_without_a_role_stops_it_saying_which(
        cloud, keystone, heat, mistral, user, demo_resources, starter, change):
    operation_id = _followed(cloud, keystone, heat, demo_resources, starter)
    if change == 'disabled':
        keystone.users.update(starter[1], enabled=False)
        said = runner.Message(trusts.DISABLED)
    else:
        [project] = keystone.projects.list(name=credentials.DEMO_PROJECT, domain='default')
        [member] = keystone.roles.list(name='member')
        keystone.roles.revoke(member, user=starter[1], project=project)
        said = runner.Message(trusts.ROLE_LOST, {'roles': 'member'})

    ended = _ended(mistral, operation_id)

    assert (ended.state, ended.state_info) == ('ERROR', str(said))
    page = user.get(f'/project/deployments/operations/{operation_id}/')
    assert str(said) in page.text
    # The run itself goes on on its server.
    [run] = _runs_of(heat, operation_id)
    assert waiting.finished(heat, run.id, timeout=RUN_SECONDS * 2).status == 'COMPLETE'
