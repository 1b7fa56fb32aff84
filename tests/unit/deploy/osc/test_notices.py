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

"""`openstack software notice create | list | delete`, on the in-memory clouds: Zaqar
subscriptions (runner.following.notices) of the project's own components, schedules and operations,
and refusals that say what is wrong and leave nothing subscribed."""

from osc_lib import exceptions as osc_exc
import pytest
from zaqarclient.transport import errors as zaqar_errors

from heat_deploy_runner.following import notices
from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import notices as osc_notices
from heat_deploy_runner.osc import schedules as osc_schedules
from heat_deploy_runner.scheduling import schedules
from tests.unit.deploy.mistral_fakes import FakeMistral
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import PROJECT
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown

HOOK = 'https://hooks.example.com/ops'


@pytest.fixture
def mistral():
    return FakeMistral(PROJECT)


def _with_zaqar(app, zaqar):
    """The App's clients with the messaging service's (osc.plugin.Clients.zaqar)."""
    app.client_manager.software_runs.zaqar = zaqar
    return app


@pytest.fixture
def app(heat, swift, zaqar, mistral):
    return _with_zaqar(App(heat, SERVERS, swift=swift, mistral=mistral), zaqar)


def _listed(app, *subject):
    made, parsed = command(osc_notices.ListNotice, app, *subject)
    columns, rows = made.take_action(parsed)
    return [dict(zip(columns, row)) for row in rows]


def _refused(command_class, app, *argv):
    made, parsed = command(command_class, app, *argv)
    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)
    return str(refused.value)


def _stored(zaqar):
    return {queue: [each['subscriber'] for each in found]
            for queue, found in zaqar.subscriptions_by_queue.items() if found}


def test_a_components_notice_is_made_listed_and_deleted_by_its_id(component, app, zaqar):
    made = shown(osc_notices.CreateNotice, app, '--component', 'mysql', HOOK)

    assert made == {'id': made['id'], 'component': 'mysql', 'on': 'failure',
                    'subscriber': HOOK}
    assert _stored(zaqar) == {notices.queue_name(component, notices.ON_FAILURE): [HOOK]}
    assert _listed(app, '--component', component) == [
        {'ID': made['id'], 'On': 'failure', 'Subscriber': HOOK}]

    deleting, parsed = command(osc_notices.DeleteNotice, app, '--component', 'mysql',
                               made['id'])
    deleting.take_action(parsed)

    assert _listed(app, '--component', 'mysql') == [] and _stored(zaqar) == {}


def test_a_notice_always_goes_on_the_queue_of_every_end(component, app, zaqar):
    made = shown(osc_notices.CreateNotice, app, '--component', 'mysql', '--on', 'always',
                 'mailto:ops@example.com')

    assert made['on'] == 'always'
    assert _stored(zaqar) == {
        notices.queue_name(component, notices.ALWAYS): ['mailto:ops@example.com']}


def test_a_schedules_notice_is_kept_under_its_name(component, app, zaqar):
    name = shown(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1',
                 '--repeat', '0 2 * * *')['name']

    made = shown(osc_notices.CreateNotice, app, '--schedule', name, HOOK)

    assert made['schedule'] == name
    assert _stored(zaqar) == {notices.queue_name(name, notices.ON_FAILURE): [HOOK]}
    assert [each['ID'] for each in _listed(app, '--schedule', name)] == [made['id']]


def test_an_operations_notice_while_mistral_follows_it(component, app, zaqar):
    operation = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                      's1')['operation']

    made = shown(osc_notices.CreateNotice, app, '--operation', operation, HOOK)

    assert made['operation'] == operation
    assert _stored(zaqar) == {notices.queue_name(operation, notices.ON_FAILURE): [HOOK]}
    assert app.stderr.getvalue() == ''


def test_an_ended_operations_notice_is_kept_but_said_to_be_useless(component, app, mistral):
    operation = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                      's1')['operation']
    mistral.executions.get(operation).state = 'SUCCESS'

    shown(osc_notices.CreateNotice, app, '--operation', operation, HOOK)

    assert app.stderr.getvalue() == (
        'No notice of this operation will be sent: it has ended.\n')


def test_an_unfollowed_operations_notice_is_said_to_be_useless(heat, swift, zaqar, component):
    app = _with_zaqar(App(heat, SERVERS, swift=swift), zaqar)
    operation = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                      's1')['operation']

    shown(osc_notices.CreateNotice, app, '--operation', operation, HOOK)

    assert app.stderr.getvalue().startswith(
        'No notice of this operation will be sent: nothing follows it to its end')


def _other_projects_schedule(mistral):
    mistral.environments.create(name='hdd-theirs', variables={}, scope='private',
                                description='')
    mistral.environments.rows['hdd-theirs'].project_id = 'not-' + PROJECT
    return 'hdd-theirs'


@pytest.mark.parametrize('subject, said', [
    (('--component', 'nosuch'), 'No software component nosuch in this project.'),
    (('--schedule', 'hdd-nosuch'), 'No schedule hdd-nosuch in this project.'),
    (('--schedule', 'hdd-theirs'), 'No schedule hdd-theirs in this project.'),
    (('--schedule', schedules.RETENTION),
     f'The schedule {schedules.RETENTION} runs on no server: it starts no operation to be '
     'told of.'),
    (('--operation', 'nosuch'), 'No operation nosuch in this project.'),
])
def test_a_subject_not_the_projects_is_refused_on_every_command(component, app, zaqar, mistral,
                                                                subject, said):
    _other_projects_schedule(mistral)
    shown(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1', '--repeat',
          '0 2 * * *')
    zaqar.calls.clear()

    for command_class, extra in ((osc_notices.CreateNotice, (HOOK,)),
                                 (osc_notices.ListNotice, ()),
                                 (osc_notices.DeleteNotice, ('sub-1',))):
        assert _refused(command_class, app, *subject, *extra) == said
    assert zaqar.calls == []


@pytest.mark.parametrize('command_class, extra', [
    (osc_notices.CreateNotice, (HOOK,)), (osc_notices.ListNotice, ()),
    (osc_notices.DeleteNotice, ('sub-1',))])
def test_without_zaqar_every_command_says_notices_need_it(heat, swift, component, command_class,
                                                          extra):
    app = _with_zaqar(App(heat, SERVERS, swift=swift), None)

    said = _refused(command_class, app, '--component', 'mysql', *extra)

    assert said == ('Notices need the messaging service (Zaqar), which is not in your '
                    'service catalog: it keeps the subscriptions and delivers the notices.')


def test_a_schedule_without_mistral_is_refused_as_schedules_are(heat, swift, zaqar):
    app = _with_zaqar(App(heat, SERVERS, swift=swift), zaqar)

    assert _refused(osc_notices.ListNotice, app, '--schedule', 'hdd-x') == \
        osc_schedules.NO_MISTRAL


@pytest.mark.parametrize('subscriber, said', [
    ('ftp://files.example.com', str(notices.BAD_SUBSCRIBER)),
    ('mailto:', str(notices.BAD_SUBSCRIBER)),
    (HOOK, f'{HOOK} is told of this already.'),
])
def test_a_bad_or_repeated_subscriber_is_refused_with_notices_sentence(component, app, zaqar,
                                                                       subscriber, said):
    shown(osc_notices.CreateNotice, app, '--component', 'mysql', HOOK)
    before = _stored(zaqar)

    assert _refused(osc_notices.CreateNotice, app, '--component', 'mysql',
                    subscriber) == said
    assert _stored(zaqar) == before


def test_deleting_a_notice_the_subject_has_not_says_how_to_list_them(component, app, zaqar):
    theirs = shown(osc_notices.CreateNotice, app, '--component', 'mysql', HOOK)
    operation = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                      's1')['operation']

    said = _refused(osc_notices.DeleteNotice, app, '--operation', operation, theirs['id'])

    assert said == (f'The operation {operation} has no notice {theirs["id"]}: `openstack '
                    f'software notice list --operation {operation}` lists its notices.')
    assert _stored(zaqar) == {notices.queue_name(component, notices.ON_FAILURE): [HOOK]}


def test_zaqar_failing_is_named_with_what_did_not_happen(component, app, zaqar):
    zaqar.fail('subscriptions', zaqar_errors.ServiceUnavailableError('down'))

    said = _refused(osc_notices.CreateNotice, app, '--component', 'mysql', HOOK)

    assert said == ('Unable to subscribe to the notices of the component mysql: the '
                    'messaging service (Zaqar) could not be reached or answered with an '
                    'error. Nothing was subscribed. Try again later, or ask your cloud '
                    'administrator to check Zaqar.')


@pytest.mark.parametrize('argv', [
    (HOOK,), ('--component', 'mysql', '--schedule', 'hdd-x', HOOK),
    ('--component', 'mysql', '--on', 'success', HOOK), ('--component', 'mysql')])
def test_the_parser_wants_one_subject_a_condition_and_a_subscriber(app, argv):
    with pytest.raises(SystemExit):
        command(osc_notices.CreateNotice, app, *argv)
