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

"""Run Action's and `component run`'s "leave out servers still running": a server busy with
an earlier run, as Heat shows it once settled, is left out; every server busy starts
nothing."""

import datetime

import pytest

from heat_deploy_runner import InputError
from heat_deploy_runner.running import expiry
from heat_deploy_runner.running import settling
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for


@pytest.fixture
def source_id(heat):
    return heat.add_config(name='mysql', group='component', inputs=[], config={
        'configs': [{'actions': ['BACKUP'], 'tool': 'script', 'config': 'mysqldump'}]})


def _start(heat, swift, source_id, servers, **kwargs):
    transport = transport_for('TEMP_URL_SIGNAL', swift=swift)
    return start(heat, lambda name: transport, RunRequest(
        config_id=source_id, action='BACKUP', server_ids=servers, **kwargs),
        server_names={'s1': 'db-1'})


def test_a_server_still_running_is_left_out_and_named(heat, swift, source_id):
    _start(heat, swift, source_id, ('s1',))

    started = _start(heat, swift, source_id, ('s1', 's2'), leave_out_busy=True)

    assert [run.server_id for run in started.created] == ['s2']
    assert started.busy == ['s1']
    assert str(started.busy_left_out({'s1': 'db-1'})) == (
        'Left out, still running an earlier run: db-1 (s1).')


def test_unticked_a_busy_server_gets_a_second_run(heat, swift, source_id):
    _start(heat, swift, source_id, ('s1',))

    started = _start(heat, swift, source_id, ('s1',))

    assert [run.server_id for run in started.created] == ['s1']
    assert started.busy == [] and started.busy_left_out() is None


def test_every_server_busy_starts_nothing(heat, swift, source_id):
    _start(heat, swift, source_id, ('s1',))
    before = (set(heat.deployments), set(heat.configs))

    with pytest.raises(InputError) as refused:
        _start(heat, swift, source_id, ('s1',), leave_out_busy=True)

    assert str(refused.value.message) == (
        'Every server chosen is still running an earlier run (db-1 (s1)): nothing was '
        'started.')
    assert (set(heat.deployments), set(heat.configs)) == before


def test_a_run_nobody_followed_is_settled_before_its_server_is_called_busy(
        heat, swift, source_id, monkeypatch):
    [lost] = _start(heat, swift, source_id, ('s1',)).created
    overdue = expiry.is_overdue

    def past_deadline(run, now=None):
        return overdue(run, datetime.datetime(2999, 1, 1))
    monkeypatch.setattr(expiry, 'is_overdue', past_deadline)
    monkeypatch.setattr(settling, 'is_overdue', past_deadline)

    started = _start(heat, swift, source_id, ('s1',), leave_out_busy=True)

    assert heat.deployments[lost.id]['status'] == 'FAILED'
    assert [run.server_id for run in started.created] == ['s1'] and started.busy == []


def test_many_servers_are_checked_in_one_listing_of_the_projects_runs(heat, swift, source_id):
    many = tuple(f's{n}' for n in range(settling.LISTED_ONE_BY_ONE + 2))
    _start(heat, swift, source_id, many[1:3])
    heat.calls.clear()

    started = _start(heat, swift, source_id, many, leave_out_busy=True)

    assert started.busy == ['s1', 's2']
    assert [run.server_id for run in started.created] == [each for each in many
                                                          if each not in ('s1', 's2')]
    assert [kwargs for _method, _args, kwargs in heat.called('software_deployments.list')
            ] == [{'server_id': None}]


def test_a_few_servers_are_checked_in_a_listing_of_each(heat, swift, source_id):
    _start(heat, swift, source_id, ('s1',))
    heat.calls.clear()

    started = _start(heat, swift, source_id, ('s1', 's2'), leave_out_busy=True)

    assert started.busy == ['s1']
    assert [kwargs for _method, _args, kwargs in heat.called('software_deployments.list')
            ] == [{'server_id': 's1'}, {'server_id': 's2'}]
