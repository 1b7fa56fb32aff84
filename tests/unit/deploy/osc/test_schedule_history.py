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

"""Who did what: a schedule's record keeps who made, paused, resumed and changed it, and when
(runner.scheduling.schedules' history), which `schedule show` shows; a run in batches the command
line cancels says who cancelled it, and when (runner.running.cancel.cancelled_description)."""

import datetime
import itertools
import re
from unittest import mock

import pytest

from heat_deploy_runner.osc import operations as osc_operations
from heat_deploy_runner.osc import schedules as osc_schedules
from heat_deploy_runner.running.cancel import cancel_reason
from heat_deploy_runner.running.cancel import cancelled_description
from heat_deploy_runner.scheduling import schedules
from heat_deploy_runner import workflows
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import PROJECT
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown
from tests.unit.deploy.osc.app import USER
from tests.unit.deploy.osc.test_schedules import command_run

UTC = datetime.timezone.utc
START = datetime.datetime(2026, 11, 27, 6, 40, tzinfo=UTC)
UTC_TEXT = r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'


@pytest.fixture
def app(heat, swift, mistral):
    return App(heat, SERVERS, swift=swift, mistral=mistral)


@pytest.fixture
def clock():
    """A minute on at each entry: 06:40, 06:41..."""
    minutes = itertools.count()
    with mock.patch.object(schedules, '_now', side_effect=lambda: START + datetime.timedelta(
            minutes=next(minutes))):
        yield


def _at(minute):
    return f'2026-11-27T06:{40 + minute:02d}:00Z'


@pytest.fixture
def nightly(mysql, app, clock):
    return shown(osc_schedules.CreateSchedule, app, 'mysql', 'BACKUP', '--server', 's1',
                 '--repeat', '0 2 * * *')['name']


def _history(mistral, name):
    return mistral.environments.get(name).variables['history']


def test_create_pause_resume_and_change_are_kept_with_the_schedule_the_latest_last(
        nightly, app, mistral):
    command_run(osc_schedules.PauseSchedule, app, nightly)
    command_run(osc_schedules.ResumeSchedule, app, nightly)
    command_run(osc_schedules.ChangeSchedule, app, nightly, 'mysql', 'BACKUP', '--server',
                's2', '--repeat', '30 4 * * 1')

    # The retention schedule the first schedule made took the minute after its creation.
    assert _history(mistral, nightly) == [
        {'what': 'created', 'by': USER, 'at': _at(0)},
        {'what': 'paused', 'by': USER, 'at': _at(2)},
        {'what': 'resumed', 'by': USER, 'at': _at(3)},
        {'what': 'changed', 'by': USER, 'at': _at(4)}]
    assert _history(mistral, schedules.RETENTION) == [
        {'what': 'created', 'by': USER, 'at': _at(1)}]


def test_show_gives_the_history_a_line_each(nightly, app):
    command_run(osc_schedules.PauseSchedule, app, nightly)

    history = shown(osc_schedules.ShowSchedule, app, nightly)['history']

    assert history.human_readable() == (f'{_at(0)} created by {USER}\n'
                                        f'{_at(2)} paused by {USER}')
    assert history.machine_readable() == [{'what': 'created', 'by': USER, 'at': _at(0)},
                                          {'what': 'paused', 'by': USER, 'at': _at(2)}]


def test_show_escapes_what_a_terminal_would_act_on(nightly, app, mistral):
    record = mistral.environments.get(nightly).variables
    record['history'] = [{'what': 'paused', 'by': 'eve\x1b[2J\nroot', 'at': _at(9)}]

    history = shown(osc_schedules.ShowSchedule, app, nightly)['history']

    assert history.human_readable() == f'{_at(9)} paused by eve\\x1b[2J\\nroot'


def test_a_schedule_made_before_history_was_kept_shows_none_and_starts_one(
        nightly, app, mistral):
    mistral.environments.get(nightly).variables.pop('history')
    assert shown(osc_schedules.ShowSchedule, app, nightly)['history'].human_readable() == ''

    command_run(osc_schedules.PauseSchedule, app, nightly)

    assert [each['what'] for each in _history(mistral, nightly)] == ['paused']


def test_a_change_of_a_paused_schedule_keeps_its_earlier_history(
        nightly, app, mistral):
    command_run(osc_schedules.PauseSchedule, app, nightly)
    command_run(osc_schedules.ChangeSchedule, app, nightly, 'mysql', 'BACKUP', '--server',
                's2', '--repeat', '30 4 * * 1')

    assert [each['what'] for each in _history(mistral, nightly)] == [
        'created', 'paused', 'changed']
    assert mistral.environments.get(nightly).variables['paused'] is True


def test_a_change_mistral_refused_records_nothing(nightly, app, mistral):
    mistral.refuse_triggers = True
    with pytest.raises(Exception):
        command_run(osc_schedules.ChangeSchedule, app, nightly, 'mysql', 'BACKUP',
                    '--server', 's2', '--repeat', '30 4 * * 1')

    assert [each['what'] for each in _history(mistral, nightly)] == ['created']


def test_delete_takes_the_history_with_the_schedule(nightly, app, mistral):
    command_run(osc_schedules.DeleteSchedule, app, nightly)
    assert nightly not in mistral.environments.rows


def test_the_history_keeps_the_latest_entries():
    record = {'history': [{'what': 'paused', 'by': f'user{i}', 'at': _at(0)}
                          for i in range(schedules.HISTORY_KEPT)]}

    kept = schedules.with_history(record, schedules.RESUMED, 'bob', now=START)['history']

    assert len(kept) == schedules.HISTORY_KEPT
    assert (kept[0]['by'], kept[-1]) == ('user1', {'what': 'resumed', 'by': 'bob',
                                                   'at': '2026-11-27T06:40:00Z'})


def test_a_history_mistral_was_given_otherwise_is_read_as_none():
    for kept in ('created by mallory', {'what': 'created'}, None):
        assert schedules.history({'history': kept}) == []
    assert schedules.history({'history': ['x', {'what': 'paused'}]}) == [{'what': 'paused'}]
    assert schedules.last_change({}) is None


def test_the_time_is_utc_to_the_second():
    later = datetime.datetime(2026, 11, 27, 8, 40, 5, 999, tzinfo=datetime.timezone(
        datetime.timedelta(hours=2)))
    entry = schedules.with_history({}, schedules.CHANGED, 'bob', now=later)['history'][0]
    assert entry['at'] == '2026-11-27T06:40:05Z'


def test_a_cancelled_description_is_a_cancel_reason():
    naive = datetime.datetime(2026, 11, 27, 6, 40, 5)
    assert cancelled_description('bob', naive) == (
        'Cancelled by bob at 2026-11-27T06:40:05Z') == cancel_reason('bob', naive)
    assert re.fullmatch(f'Cancelled by bob at {UTC_TEXT}', cancelled_description('bob'))


def test_cancel_says_who_stopped_the_further_batches_and_when(heat, swift):
    operation = '9f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f'
    client = mock.Mock()
    client.executions.get.return_value = mock.Mock(
        id=operation, state='RUNNING', project_id=PROJECT,
        workflow_name=workflows.ROLLING_WORKFLOW)
    app = App(heat, SERVERS, swift=swift, mistral=client)

    result = shown(osc_operations.CancelOperation, app, operation)

    assert result['further_batches_stopped'] is True
    # Mistral takes a state and a description only in separate updates: the stop first.
    stop, describe = client.executions.update.call_args_list
    assert stop == mock.call(operation, 'CANCELLED')
    (execution_id, state), kwargs = describe
    assert (execution_id, state) == (operation, None)
    assert re.fullmatch(f'Cancelled by {USER} at {UTC_TEXT}', kwargs['description'])
