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

"""Scope of the command line: every `openstack software ...` command that takes the id of an
object, given the demo project's ids (its mysql component, by id and by name; a run the demo
user started; that run's operation) by a member of another project (`other`) and by the cloud
admin working in its own project (`admin`), fails with the command's one "not found"
sentence, no traceback, and changes nothing: the demo project's Heat configs, deployments
(and each one's status), Swift containers and the component's notices, and the requester's
own configs and deployments, are the same before and after. Their own `component list` and
`operation list` name none of the demo project's ids. The demo user itself is the positive
control: the same ids find its objects.
"""

import dataclasses
import json

from heatclient import client as heat_client
import pytest

from devcloud import credentials
from devcloud.services import identity
import heat_deploy_runner as runner
from heat_deploy_runner.following import notices
from tests.integration.command_line import openstack

# Longer than the cancel cases take (they run first), so that each of them is refused a run
# that is still in progress, the one kind a leaking cancel would change.
PAUSE_SECONDS = 60

# The admin logs in as Keystone's bootstrap made it: to its own project, `admin`
# (identity.admin_session).
REQUESTERS = {
    'other': {'username': credentials.OTHER_USER, 'password': credentials.OTHER_PASSWORD,
              'project': credentials.OTHER_PROJECT},
    'admin': {'username': 'admin', 'password': credentials.ADMIN_PASSWORD,
              'project': 'admin'},
}


@dataclasses.dataclass(frozen=True)
class Command:
    label: str
    argv: tuple     # templates of the demo ids ({component}, {server}, {run}, {operation})
    said: str       # the sentence on stderr, a template too

    def resolve(self, ids):
        return ([each.format(**ids) for each in self.argv], self.said.format(**ids))


_NO_COMPONENT = 'No software component {component} in this project.'
_NO_RUN = 'No run {run} in this project.'
_NO_OPERATION = 'No operation {operation} in this project.'

# The cancels first: the made run is still in progress while they are asked.
COMMANDS = [
    Command('run-cancel', ('software', 'run', 'cancel', '{run}'), _NO_RUN),
    Command('operation-cancel', ('software', 'operation', 'cancel', '{operation}'),
            _NO_OPERATION),
    Command('component-show-by-id', ('software', 'component', 'show', '{component}'),
            _NO_COMPONENT),
    Command('component-show-by-name', ('software', 'component', 'show', 'mysql'),
            'No software component mysql in this project.'),
    Command('component-run-by-id', ('software', 'component', 'run', '{component}', 'BACKUP',
                                    '--server', '{server}', '--input', 'pause_seconds=0'),
            _NO_COMPONENT),
    Command('component-run-by-name', ('software', 'component', 'run', 'mysql', 'BACKUP',
                                      '--server', '{server}', '--input', 'pause_seconds=0'),
            'No software component mysql in this project.'),
    Command('component-run-follow', ('software', 'component', 'run', 'mysql', 'BACKUP',
                                     '--server', '{server}', '--input', 'pause_seconds=0',
                                     '--live', '--wait', '--follow'),
            'No software component mysql in this project.'),
    Command('run-show', ('software', 'run', 'show', '{run}'), _NO_RUN),
    Command('run-output', ('software', 'run', 'output', '{run}', '--all'), _NO_RUN),
    Command('run-output-follow', ('software', 'run', 'output', '{run}', '--follow'), _NO_RUN),
    Command('operation-show', ('software', 'operation', 'show', '{operation}'), _NO_OPERATION),
    Command('operation-rerun-failed', ('software', 'operation', 'rerun-failed', '{operation}'),
            _NO_OPERATION),
    # Heat's show of a config says nothing of its project: only the project's listing does.
    Command('run-create', ('software', 'run', 'create', '--config', '{component}', '--server',
                           '{server}', '--input', 'pause_seconds=0'),
            'No software config {component} in this project.'),
    Command('run-delete', ('software', 'run', 'delete', '{run}'), _NO_RUN),
    # What the servers said: an operation's, a server's (by its id: no run of it in the
    # requester's project; by its name: no such server there) and a run's diff.
    Command('operation-results', ('software', 'operation', 'results', '{operation}'),
            _NO_OPERATION),
    Command('server-results-by-id', ('software', 'server', 'results', '{server}'),
            'No run of server {server} in this project.'),
    Command('server-results-by-name', ('software', 'server', 'results', 'demo-db-1'),
            'No server of this project has that ID or name.'),
    Command('run-diff', ('software', 'run', 'diff', '{run}'), _NO_RUN),
    # Notices: subscribing to, listing and removing the demo project's (its subscription on
    # the component is the demo user's).
    Command('notice-create-component', ('software', 'notice', 'create', '--component',
                                        '{component}', 'https://intruder.example.com/'),
            _NO_COMPONENT),
    Command('notice-create-operation', ('software', 'notice', 'create', '--operation',
                                        '{operation}', 'https://intruder.example.com/'),
            _NO_OPERATION),
    Command('notice-list-component', ('software', 'notice', 'list', '--component',
                                      '{component}'), _NO_COMPONENT),
    Command('notice-delete-component', ('software', 'notice', 'delete', '--component',
                                        '{component}', '{subscription}'), _NO_COMPONENT),
]


@pytest.fixture(scope='module')
def made(cloud, heat, zaqar, find_transport, demo_resources):
    """The demo ids the cases ask for: the mysql component, demo-db-1, and a run of BACKUP
    there, started by the demo user's own command line so that it is in an operation as
    every run of the command line is."""
    started = openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP',
                        '--server', 'demo-db-1', '--input', f'pause_seconds={PAUSE_SECONDS}',
                        '-f', 'json')
    assert started.returncode == 0, started.stderr
    operation = json.loads(started.stdout)['operation']
    [run] = [each.id for each in heat.software_deployments.list()
             if getattr(runner.operation_of_run(each), 'id', None) == operation]
    subscription = notices.subscribe(zaqar, demo_resources['mysql'], notices.ALWAYS,
                                     'https://hooks.example.com/demo-scope').id
    yield {'component': demo_resources['mysql'], 'server': demo_resources['db_server_1'],
           'run': run, 'operation': operation, 'subscription': subscription}
    notices.unsubscribe(zaqar, demo_resources['mysql'], subscription)
    runner.delete(heat, run, find_transport)


@pytest.fixture(scope='module')
def requester_heat(cloud):
    """Each requester's own Heat client: what a leaking command started would be its
    project's, which the demo project's listings do not show."""
    return {name: heat_client.Client('1', session=session, auth=session.auth)
            for name, session in (
                ('other', identity.user_session(cloud.layout, credentials.OTHER_USER,
                                                credentials.OTHER_PASSWORD,
                                                credentials.OTHER_PROJECT)),
                ('admin', identity.admin_session(cloud.layout)))}


def _demo_state(heat, swift, zaqar, component):
    return ({each.id for each in heat.software_configs.list()},
            {each.id: (each.status, each.status_reason)
             for each in heat.software_deployments.list()},
            {each['name'] for each in swift.get_account(full_listing=True)[1]},
            frozenset(notices.subscriptions(zaqar, component)))


def _own_state(heat):
    return ({each.id for each in heat.software_configs.list()},
            {each.id for each in heat.software_deployments.list()})


def _as_if_still_running(state, run_id):
    """The state with the made run in progress when it had completed: its agent ending it
    while a case ran is no change of the case's; a cancel would have failed it."""
    configs, deployments, containers, subscriptions = state
    if deployments.get(run_id, ('',))[0] in ('IN_PROGRESS', 'COMPLETE'):
        deployments = dict(deployments, **{run_id: ('IN_PROGRESS', None)})
    return configs, deployments, containers, subscriptions


def _leaked(done, ids, argv):
    """The demo ids the command printed: a refusal may repeat only the ids it was given."""
    return sorted(name for name, value in ids.items()
                  if value not in argv and value in done.stdout + done.stderr)


@pytest.mark.parametrize('requester, command', [
    pytest.param(requester, command, id=f'{requester}-{command.label}')
    for command in COMMANDS for requester in REQUESTERS])
def test_a_demo_id_is_not_found_and_nothing_changes(
        cloud, heat, swift, zaqar, requester_heat, made, requester, command):
    argv, said = command.resolve(made)
    before = (_demo_state(heat, swift, zaqar, made['component']),
              _own_state(requester_heat[requester]))

    done = openstack(cloud, *argv, **REQUESTERS[requester])

    after = (_demo_state(heat, swift, zaqar, made['component']),
             _own_state(requester_heat[requester]))
    assert done.returncode != 0, done.stdout
    assert said in done.stderr, done.stderr
    assert 'Traceback' not in done.stderr, done.stderr
    assert _leaked(done, made, argv) == []
    assert _as_if_still_running(after[0], made['run']) == _as_if_still_running(
        before[0], made['run'])
    assert after[1] == before[1]


@pytest.mark.parametrize('requester', list(REQUESTERS))
@pytest.mark.parametrize('listed', ['component', 'operation'])
def test_a_requesters_own_list_names_no_demo_id(cloud, made, listed, requester):
    done = openstack(cloud, 'software', listed, 'list', '-f', 'json', **REQUESTERS[requester])

    assert done.returncode == 0, done.stderr
    assert _leaked(done, made, ()) == []


def test_the_demo_user_finds_what_the_others_do_not(cloud, made):
    # Without it, "not found" could mean only that the ids were wrong.
    operations = openstack(cloud, 'software', 'operation', 'list', '-f', 'json')
    shown = openstack(cloud, 'software', 'operation', 'show', made['operation'],
                      '-f', 'json')

    assert operations.returncode == 0 and shown.returncode == 0, (
        operations.stderr + shown.stderr)
    assert made['operation'] in {each['ID'] for each in json.loads(operations.stdout)}
    [run] = json.loads(shown.stdout)['runs']
    assert (run['run'], run['server']) == (made['run'], 'demo-db-1')
