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

"""`openstack software schedule list | show | create | pause | resume | delete`, on the
in-memory clouds: the panel's schedules, made by the same code (runner.scheduling.schedules)."""

import dataclasses
import datetime

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner import masking
from heat_deploy_runner.osc import schedules as osc_schedules
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.scheduling import schedules
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows import secret_store
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown
from tests.unit.deploy.osc.app import USER
from tests.unit.deploy.osc.test_run_commands import NEEDS_OBJECT_STORAGE


@pytest.fixture
def app(heat, swift, mistral):
    return App(heat, SERVERS, swift=swift, mistral=mistral)


@pytest.fixture
def nightly(mysql, app):
    return shown(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server',
                 'demo-db-1', '--server', 's2', '--input', 'retention_days=3', '--input',
                 'db_password=hunter2', '--repeat', '0  2 * * *', '--batch-size', '1')


def test_a_schedule_is_made_as_the_form_makes_it_with_its_secret_out_of_mistral(
        nightly, mistral, swift):
    record = mistral.environments.get(nightly['name']).variables
    trigger = mistral.cron_triggers.get(nightly['name'])

    assert (record['action'], record['server_ids'], record['input_values'], record['pattern'],
            record['batch_size'], record['owner'], record['paused']) == (
        'BACKUP', ['s1', 's2'], {'retention_days': 3}, '0 2 * * *', 1, USER, False)
    assert 'hunter2' not in repr(record) + repr(trigger.workflow_input)
    assert secret_store.get(swift, record['secret_ref']) == {'db_password': 'hunter2'}
    assert (trigger.pattern, trigger.workflow_input['skip_busy']) == ('0 2 * * *', True)
    # What its firings' notices name the servers by.
    assert record['server_names'] == trigger.workflow_input['server_names'] == {
        's1': 'demo-db-1', 's2': 'demo-db-2'}
    assert (nightly['state'], nightly['when'], nightly['component']) == (
        'active', '0 2 * * * (UTC)', 'demo-mysql-abcdefghijkl')
    assert nightly['inputs'].machine_readable() == {'retention_days': 3,
                                                    'db_password': masking.MASK}


def test_the_first_schedule_makes_the_projects_retention_schedule_once(nightly, app, mistral):
    shown(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1', '--repeat',
          '0 3 * * *')
    retention_trigger = mistral.cron_triggers.get(schedules.RETENTION)
    [workflow] = [each for each in mistral.workflows.made
                  if each.id == retention_trigger.workflow_id]

    assert (workflow.name, retention_trigger.pattern, retention_trigger.workflow_input) == (
        workflows.RETENTION_WORKFLOW, retention.PATTERN, dataclasses.asdict(retention.Policy()))
    assert app.stderr.getvalue().count('Retention is on') == 1
    shown_retention = shown(osc_schedules.ShowSchedule, app, schedules.RETENTION)
    assert (shown_retention['component'], shown_retention['state']) == (
        '(retention)', 'active')
    with pytest.raises(osc_exc.CommandError, match='The retention schedule takes its bound'):
        command_run(osc_schedules.ChangeSchedule, app, schedules.RETENTION, 'mysql', 'BACKUP',
                    '--server', 's1', '--repeat', '0 2 * * *')


def test_list_and_show_say_what_the_panel_says(nightly, app):
    made, parsed = command(osc_schedules.ListSchedule, app)
    columns, rows = made.take_action(parsed)
    [row] = [dict(zip(columns, each)) for each in rows if each[0] == nightly['name']]

    assert (row['Name'], row['Action'], row['State'], row['Next Run'], row['Owner']) == (
        nightly['name'], 'BACKUP', 'active', '2026-11-27 02:00:00 UTC', USER)
    assert row['Servers'].machine_readable() == ['demo-db-1', 'demo-db-2']
    assert shown(osc_schedules.ShowSchedule, app, nightly['name'])['state'] == 'active'


def test_pause_resume_and_delete(nightly, app, mistral, swift):
    name = nightly['name']
    secret_ref = mistral.environments.get(name).variables['secret_ref']

    command_run(osc_schedules.PauseSchedule, app, name)
    assert shown(osc_schedules.ShowSchedule, app, name)['state'] == 'paused'
    assert name not in mistral.cron_triggers.rows
    command_run(osc_schedules.ResumeSchedule, app, name)
    assert shown(osc_schedules.ShowSchedule, app, name)['state'] == 'active'
    command_run(osc_schedules.DeleteSchedule, app, name)

    assert (list(mistral.environments.rows), list(mistral.cron_triggers.rows)) == (
        [schedules.RETENTION], [schedules.RETENTION])
    assert secret_ref not in swift.containers[secret_store.CONTAINER]


def test_pause_and_delete_leave_a_running_firing_its_trigger_and_secrets(
        nightly, app, mistral, swift):
    name = nightly['name']
    record = mistral.environments.get(name).variables
    mistral.executions.fire(workflows.ROLLING_WORKFLOW,
                            workflows.schedule_input(record, name, USER))

    command_run(osc_schedules.PauseSchedule, app, name)
    assert shown(osc_schedules.ShowSchedule, app, name)['state'] == 'paused'
    # Deleting the trigger would delete the trust the firing acts through: it releases both
    # when it ends (the rolling workflow's release).
    assert name in mistral.cron_triggers.rows
    assert app.stdout.getvalue().endswith(osc_schedules.GOES_ON + '\n')

    command_run(osc_schedules.DeleteSchedule, app, name)
    assert name not in mistral.environments.rows
    assert name in mistral.cron_triggers.rows
    assert record['secret_ref'] in swift.containers[secret_store.CONTAINER]


def command_run(command_class, app, *argv):
    made, parsed = command(command_class, app, *argv)
    return made.take_action(parsed)


@pytest.mark.parametrize('command_class, said', [
    (osc_schedules.ResumeSchedule, 'is not paused.'),
    (osc_schedules.ShowSchedule, 'No schedule hdd-nosuch in this project.')])
def test_a_refused_change_says_why(nightly, app, command_class, said):
    name = nightly['name'] if command_class is osc_schedules.ResumeSchedule else 'hdd-nosuch'
    with pytest.raises(osc_exc.CommandError, match=said):
        command_run(command_class, app, name)


def _in_a_minute():
    return (datetime.datetime.now(datetime.timezone.utc)
            + datetime.timedelta(minutes=1)).strftime('%Y-%m-%d %H:%M')


@pytest.mark.parametrize('when, said', [
    (('--repeat', '0 2 * *'), 'Give a cron pattern of five fields'),
    (('--once-at', 'tomorrow'), 'Write the time as YYYY-MM-DD HH:MM, in UTC.'),
    (('--once-at', _in_a_minute()), 'The time must be at least two minutes from now.')])
def test_a_bad_time_is_refused_and_nothing_is_made(mysql, app, mistral, swift, when,  # noqa
                                                   said):
    with pytest.raises(osc_exc.CommandError, match=said):
        command_run(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1',
                    *when)
    assert (mistral.environments.rows, mistral.cron_triggers.rows, swift.containers) == (
        {}, {}, {})


def test_a_trigger_mistral_refuses_leaves_no_record_nor_secret(mysql, app, mistral,  # noqa
                                                               swift):
    mistral.refuse_triggers = True

    with pytest.raises(osc_exc.CommandError, match='Unable to schedule BACKUP: the workflow '
                                                   'service could not be reached'):
        command_run(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1',
                    '--input', 'db_password=x', '--repeat', '0 2 * * *')

    assert mistral.environments.rows == {}
    assert swift.containers.get(secret_store.CONTAINER, {}) in ({}, [])


def test_change_gives_a_paused_schedule_what_to_run_anew_and_keeps_it_paused(
        nightly, app, mistral):
    name = nightly['name']
    command_run(osc_schedules.PauseSchedule, app, name)

    changed = shown(osc_schedules.ChangeSchedule, app, name, 'mysql', 'BACKUP', '--server',
                    's1', '--repeat', '30 4 * * 1')

    record = mistral.environments.get(name).variables
    assert (changed['state'], changed['when'], record['server_ids'], record['pattern']) == (
        'paused', '30 4 * * 1 (UTC)', ['s1'], '30 4 * * 1')
    assert name not in mistral.cron_triggers.rows


def test_a_secret_input_without_object_storage_is_refused_as_the_form_does(heat, mysql,
                                                                           mistral):
    app = App(heat, SERVERS, mistral=mistral)

    with pytest.raises(osc_exc.CommandError) as refused:
        command_run(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1',
                    '--input', 'db_password=x', '--repeat', '0 2 * * *')

    assert str(refused.value) == NEEDS_OBJECT_STORAGE
    assert (mistral.environments.rows, mistral.cron_triggers.rows) == ({}, {})
