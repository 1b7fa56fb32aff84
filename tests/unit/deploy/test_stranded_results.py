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

"""A TempURL result Heat will never apply: its running deployment was updated after it arrived
(Heat applies the object only while its Last-Modified is later than updated_at). The runner's
collect, which the status poll, Mistral's wait and the command line's --wait all settle
through, applies it with Heat's rule, once."""

import datetime
import email.utils
import functools
import json

import pytest

from heat_deploy_runner import cancel
from heat_deploy_runner import collect
from heat_deploy_runner import derived_input_values
from heat_deploy_runner import late_result
from heat_deploy_runner import Run
from heat_deploy_runner.running.settling import settled
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner.signalling.tempurl import TempUrlSignal
from heat_deploy_runner import start
from heat_deploy_runner import transport_for

ARRIVED = datetime.datetime(2026, 11, 27, 10, 0, 5, tzinfo=datetime.timezone.utc)
SENT = {'deploy_stdout': 'backed up\n', 'deploy_stderr': '', 'deploy_status_code': 0,
        'size': '2G'}


@pytest.fixture
def find(swift, zaqar):
    return functools.partial(transport_for, swift=swift, zaqar=zaqar)


@pytest.fixture
def running(heat, swift, find):
    source_id = heat.add_config(name='mysql', outputs=[{'name': 'size'}])
    return start(heat, find, RunRequest(config_id=source_id, action='BACKUP',
                                        server_ids=['s1'])).created[0]


def _signal(heat, run):
    return signal_location(derived_input_values(heat.configs[run.config_id]))


def _sent(heat, swift, run, result=SENT, at=ARRIVED):
    """The server's result in the run's object, which Swift says was last modified at ``at``."""
    swift.put_object(*_signal(heat, run), json.dumps(result))
    swift.modified[_signal(heat, run)] = email.utils.format_datetime(at, usegmt=True)


def _updated(heat, run, at):
    """The running deployment as Heat has it once updated at ``at`` (whole seconds, as Heat
    shows its updated_time), still running."""
    heat.deployments[run.id]['updated_time'] = at.strftime('%Y-%m-%dT%H:%M:%SZ')


def _shown(heat, run):
    return Run.from_heat(heat.software_deployments.get(run.id)).described(
        heat.configs[run.config_id])


@pytest.mark.parametrize('later', [0, 1, 3600])
def test_a_result_that_arrived_before_the_last_update_is_applied_with_heats_rule(
        heat, swift, find, running, later):
    _sent(heat, swift, running)
    _updated(heat, running, ARRIVED + datetime.timedelta(seconds=later))

    applied = collect(heat, _shown(heat, running), find)

    [(_method, args, kwargs)] = heat.called('software_deployments.update')
    assert args == (running.id,)
    assert kwargs == {'status': 'COMPLETE', 'status_reason': 'Outputs received',
                      'output_values': SENT}
    assert (applied.status, applied.output_values) == ('COMPLETE', SENT)


def test_a_failing_result_fails_the_run_as_heat_would(heat, swift, find, running):
    _sent(heat, swift, running, {'deploy_status_code': 2, 'deploy_stderr': 'no disk'})
    _updated(heat, running, ARRIVED)

    applied = collect(heat, _shown(heat, running), find)

    assert applied.status == 'FAILED'
    assert applied.status_reason == ('deploy_status_code : Deployment exited with '
                                     'non-zero status code: 2')


def test_it_is_applied_once(heat, swift, find, running):
    _sent(heat, swift, running)
    _updated(heat, running, ARRIVED)

    collect(heat, _shown(heat, running), find)
    again = collect(heat, _shown(heat, running), find)

    assert again.status == 'COMPLETE'
    assert len(heat.called('software_deployments.update')) == 1


def test_a_result_newer_than_the_last_update_is_left_to_heat(heat, swift, find, running):
    # Heat applies it at its next show: the dashboard writes nothing.
    _sent(heat, swift, running)
    _updated(heat, running, ARRIVED - datetime.timedelta(seconds=1))

    assert collect(heat, _shown(heat, running), find).status == 'IN_PROGRESS'
    assert heat.called('software_deployments.update') == []


def test_a_running_run_never_updated_costs_no_look(heat, swift, find, running):
    # Heat applies whatever it finds for a deployment without updated_at.
    _sent(heat, swift, running)
    swift.calls.clear()

    assert collect(heat, _shown(heat, running), find).status == 'IN_PROGRESS'
    assert swift.called('get_object') == []
    assert heat.called('software_deployments.update') == []


@pytest.mark.parametrize('body', [b'', b'not json', b'[1]'])
def test_an_object_without_a_result_changes_nothing(heat, swift, find, running, body):
    swift.put_object(*_signal(heat, running), body)
    _updated(heat, running, ARRIVED + datetime.timedelta(hours=1))

    assert collect(heat, _shown(heat, running), find).status == 'IN_PROGRESS'
    assert heat.called('software_deployments.update') == []


def test_a_run_whose_object_is_gone_changes_nothing(heat, swift, find, running):
    swift.delete_object(*_signal(heat, running))
    _updated(heat, running, ARRIVED)

    assert collect(heat, _shown(heat, running), find).status == 'IN_PROGRESS'


def test_a_cancelled_runs_result_stays_its_late_result(heat, swift, find, running):
    cancelled = cancel(heat, running.id, 'alice', find)
    _sent(heat, swift, running, at=datetime.datetime.now(datetime.timezone.utc)
          - datetime.timedelta(hours=1))

    assert collect(heat, _shown(heat, running), find).status == 'FAILED'
    assert heat.deployments[running.id]['status_reason'] == cancelled.status_reason
    assert late_result(heat, _shown(heat, running), find) == SENT


def test_a_cancel_that_lands_before_it_is_applied_wins(heat, swift, find, running):
    _sent(heat, swift, running)
    _updated(heat, running, ARRIVED)
    seen_running = _shown(heat, running)
    heat.deployments[running.id].update(status='FAILED', status_reason='Cancelled by bob')

    assert collect(heat, seen_running, find).status == 'FAILED'
    assert heat.called('software_deployments.update') == []
    assert heat.deployments[running.id]['status_reason'] == 'Cancelled by bob'


def test_mistrals_wait_and_the_command_line_settle_it(heat, swift, find, running):
    _sent(heat, swift, running)
    _updated(heat, running, ARRIVED)

    assert settled(heat, find, running.id, {}).status == 'COMPLETE'


# TempUrlSignal.stranded_result: Heat's own comparison


@pytest.mark.parametrize('updated, stranded', [
    (ARRIVED, True),
    (ARRIVED + datetime.timedelta(microseconds=1), True),
    (ARRIVED - datetime.timedelta(microseconds=1), False),
    # A naive time is UTC, as Heat writes it.
    (ARRIVED.replace(tzinfo=None), True),
    (ARRIVED.astimezone(datetime.timezone(datetime.timedelta(hours=2))), True),
])
def test_stranded_when_last_modified_is_not_later_than_the_update(
        heat, swift, running, updated, stranded):
    _sent(heat, swift, running)
    values = derived_input_values(heat.configs[running.config_id])

    found = TempUrlSignal(swift).stranded_result(values, updated)

    assert found == (SENT if stranded else None)
