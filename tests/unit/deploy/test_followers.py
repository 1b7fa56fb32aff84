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

"""An operation started at once, followed to its end by a Mistral execution of its id: the
follow workflow's input, and the execution made through python-mistralclient's own
executions manager, against an in-memory Mistral API that checks the input as Mistral does."""

from datetime import datetime
from datetime import timedelta
from datetime import timezone
import functools
import json

from mistralclient.api import base as mistral_base
from mistralclient.api.v2 import executions as mistral_executions
import pytest
import yaml

from heat_deploy_runner.following import followers
from heat_deploy_runner import Operation
from heat_deploy_runner.running import operations
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import Started
from heat_deploy_runner import times
from heat_deploy_runner import transport_for
from heat_deploy_runner import workflows

from .mistral_fakes import FakeMistral

PROJECT = 'project-1'


class _Response:
    def __init__(self, status_code, body):
        self.status_code = status_code
        self.headers = {}
        self._body = body

    def json(self):
        return self._body


class _MistralAPI:
    """The HTTP client behind python-mistralclient, answering POST /executions as Mistral's
    API does: an execution of an id it has already is answered as it is; the input must
    give each input the workflow declares without a default, and nothing it does not."""

    def __init__(self, mistral):
        self.mistral = mistral
        self.executions = {}
        self.posts = 0
        # The status every POST is answered with, when set (a policy refusing, say).
        self.refuse_with = None

    def post(self, url, body, headers=None):
        assert url == '/executions'
        self.posts += 1
        if self.refuse_with:
            return _Response(self.refuse_with, {'faultstring': 'refused'})
        sent = json.loads(body)
        if sent.get('id') in self.executions:
            return _Response(201, self.executions[sent['id']])
        [workflow] = [each for each in self.mistral.workflows.made
                      if each.id == sent['workflow_id']] or [None]
        if workflow is None:
            return _Response(404, {'faultstring': 'Workflow not found'})
        declared = yaml.safe_load(workflows.definition(workflow.name))[workflow.name]['input']
        required = {each for each in declared if isinstance(each, str)}
        known = required | {next(iter(each)) for each in declared if isinstance(each, dict)}
        given = json.loads(sent['input'])
        if not required <= set(given) <= known:
            return _Response(400, {'faultstring': 'Invalid input: missing=%s, unexpected=%s' % (
                sorted(required - set(given)), sorted(set(given) - known))})
        self.executions[sent['id']] = dict(sent, state='RUNNING', input=given,
                                           workflow_name=workflow.name)
        return _Response(201, self.executions[sent['id']])


@pytest.fixture
def mistral():
    client = FakeMistral(PROJECT)
    client.api = _MistralAPI(client)
    client.executions = mistral_executions.ExecutionManager(client.api)
    return client


@pytest.fixture
def mysql(heat):
    """BACKUP of a component on three servers, which Heat refuses on s3."""
    source = heat.add_config(name='mysql', group='component', config={'configs': [
        {'actions': ['BACKUP'], 'tool': 'script', 'config': 'echo'}]})
    heat.fail('software_deployments.create', RuntimeError('boom'),
              when=lambda **kwargs: kwargs['server_id'] == 's3')
    return RunRequest(config_id=source, action='BACKUP', server_ids=('s1', 's2', 's3'),
                      transport='NO_SIGNAL')


@pytest.fixture
def started(heat, mysql):
    operation = Operation.new('alice', mysql.config_id, runner=operations.FOLLOWED)
    return start(heat, transport_for, mysql, operation)


def test_the_follow_input_names_the_operations_runs_and_the_servers_refused(started):
    made = followers.follow_input(
        started, server_names={'s1': 'db-1', 's3': 'db-3', 'elsewhere': 'web-1'},
        link='https://dash/{operation}')

    assert made == {
        'config_id': started.operation.source, 'action_name': 'BACKUP',
        'deployment_ids': [run.id for run in started.created],
        'refused': [['s3', 'Could not start BACKUP on server s3: its deployment could not be '
                     'created.']],
        'server_names': {'s1': 'db-1', 's3': 'db-3'}, 'link': 'https://dash/{operation}',
        # NO_SIGNAL runs have no deadline.
        'until': None}
    # Mistral sends it to the workflow as JSON.
    assert json.loads(json.dumps(made)) == made


def test_the_follow_input_says_until_when_its_trust_must_last_the_latest_deadline(
        heat, swift):
    source = heat.add_config(name='mysql', group='component', config={'configs': [
        {'actions': ['BACKUP'], 'tool': 'script', 'config': 'echo'}]})
    operation = Operation.new('alice', source, runner=operations.FOLLOWED)
    started = start(heat, functools.partial(transport_for, swift=swift), RunRequest(
        config_id=source, action='BACKUP', server_ids=('s1', 's2'),
        transport='TEMP_URL_SIGNAL', timeout_minutes=30), operation)

    until = followers.follow_input(started)['until']

    assert until == max(run.deadline for run in started.created).isoformat()
    assert times.parse_time(until) - datetime.now(timezone.utc) > timedelta(minutes=29)


def test_an_operation_is_followed_by_an_execution_of_its_id(mistral, started):
    execution = followers.follow(mistral, PROJECT, started, {'s1': 'db-1'}, 'https://dash/')

    assert execution.id == started.operation.id
    assert execution.workflow_name == workflows.FOLLOW_WORKFLOW
    assert execution.input == followers.follow_input(started, {'s1': 'db-1'}, 'https://dash/')
    assert [each.name for each in mistral.workflows.made] == [workflows.FOLLOW_WORKFLOW]


def test_following_again_makes_no_second_execution_nor_workflow(mistral, started):
    first = followers.follow(mistral, PROJECT, started)
    again = followers.follow(mistral, PROJECT, started)

    assert again.id == first.id and list(mistral.api.executions) == [first.id]
    assert len(mistral.workflows.made) == 1


def test_nothing_started_is_not_followed(mistral, heat):
    nothing = Started(failures=[('s1', 'refused')],
                      operation=Operation.new('alice', 'c-1', runner=operations.FOLLOWED))

    assert followers.follow(mistral, PROJECT, nothing) is None
    assert (mistral.api.posts, mistral.workflows.made) == (0, [])


def test_mistrals_refusal_comes_to_the_caller_as_it_is(mistral, started):
    mistral.api.refuse_with = 403

    with pytest.raises(mistral_base.APIException) as refused:
        followers.follow(mistral, PROJECT, started)

    assert refused.value.error_code == 403 and mistral.api.executions == {}


def test_started_now_its_runs_are_followed_the_refused_servers_named_too(heat, mistral,
                                                                         mysql):
    started = followers.start_and_follow(
        heat, transport_for, mistral, PROJECT, mysql, 'alice',
        server_names={'s1': 'db-1', 's3': 'db-3', 'elsewhere': 'web-1'},
        link='https://dash/{operation}')

    assert (started.operation.runner, started.operation.started_by) == (
        operations.FOLLOWED, 'alice')
    assert not started.not_followed
    follower = mistral.api.executions[started.operation.id]
    assert (follower['input']['server_names'], follower['input']['link']) == (
        {'s1': 'db-1', 's3': 'db-3'}, 'https://dash/{operation}')
    assert [server for server, _said in follower['input']['refused']] == ['s3']


def test_without_mistral_the_runs_say_nothing_follows_them(heat, mysql):
    started = followers.start_and_follow(heat, transport_for, None, PROJECT, mysql, 'alice')

    assert (started.operation.runner, started.operation.followed) == (None, False)
    assert [run.server_id for run in started.created] == ['s1', 's2']


def test_runs_mistral_does_not_take_to_follow_stand_and_say_so(heat, mistral, mysql):
    mistral.api.refuse_with = 500

    started = followers.start_and_follow(heat, transport_for, mistral, PROJECT, mysql,
                                         'alice')

    assert started.not_followed and started.operation.followed
    assert [run.server_id for run in started.created] == ['s1', 's2']
    assert mistral.api.executions == {}
