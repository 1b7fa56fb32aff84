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

"""`openstack software operation results | run diff`, on the in-memory Heat and Swift."""

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner.components import listing
from heat_deploy_runner import masking
from heat_deploy_runner import Operation
from heat_deploy_runner.osc import results
from heat_deploy_runner.pruning import archive
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from tests.unit.deploy.fakes import FakeSwift
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import PROJECT
from tests.unit.deploy.osc.app import SERVERS


def _backup(heat, source, operation, outputs_by_server, created):
    made = start(heat, transport_for, RunRequest(
        config_id=source, action='BACKUP', server_ids=tuple(outputs_by_server),
        transport='NO_SIGNAL', input_values={'db_password': 'hunter22'}), operation).created
    for run in made:
        stdout, code = outputs_by_server[run.server_id]
        heat.deployments[run.id].update(
            status='COMPLETE' if code == 0 else 'FAILED', creation_time=created,
            updated_time=created, output_values={'deploy_stdout': stdout,
                                                 'deploy_stderr': '',
                                                 'deploy_status_code': code,
                                                 'table_count': '=2+1'})
    return made


@pytest.fixture
def source(heat):
    return heat.add_config(name='mysql', group='component', inputs=[
        {'name': 'db_password', 'type': 'String', 'default': ''}],
        outputs=[{'name': 'table_count'}])


@pytest.fixture
def operation(heat, source):
    _backup(heat, source, Operation('op-1', 'alice', '2026-11-28T08:00:00Z', source=source),
            {'s1': ('dumped 2 tables\nchecksum 11\n', 0),
             's2': ('ERROR: disk full (pw hunter22)\n', 3)}, '2026-11-28T08:00:00Z')
    return 'op-1'


def _results(heat, *argv, swift=None):
    made, parsed = command(results.OperationResults, App(heat, SERVERS, swift=swift
                                                         or FakeSwift()), *argv)
    columns, values = made.take_action(parsed)
    return [dict(zip(columns, each)) for each in values]


def test_results_give_a_row_a_server_with_its_outputs(heat, operation):
    found = _results(heat, operation)

    assert [(row['server'], row['status'], row['exit_code']) for row in found] == [
        ('demo-db-1', 'COMPLETE', 0), ('demo-db-2', 'FAILED', 3)]
    assert found[0]['output: table_count'] == '=2+1'
    assert found[1]['stdout'] == f'ERROR: disk full (pw {masking.MASK})'


def test_results_are_searched_and_filtered(heat, operation):
    assert [row['server'] for row in _results(heat, operation, '--grep', 'disk FULL')] == [
        'demo-db-2']
    assert [row['server'] for row in _results(heat, operation, '--status', 'complete')] == [
        'demo-db-1']
    assert _results(heat, operation, '--grep', 'hunter22') == []
    with pytest.raises(osc_exc.CommandError, match='at least 2 characters'):
        _results(heat, operation, '--grep', 'x')


def test_csv_cells_a_spreadsheet_would_evaluate_are_made_text_as_the_page_makes_them(
        heat, operation):
    [first, _second] = _results(heat, operation, '-f', 'csv')

    assert first['output: table_count'] == "'=2+1"


def test_an_operation_whose_runs_were_archived_has_its_results(heat, swift, operation):
    for run in listing.operation_runs(heat, PROJECT, operation):
        archive.put(swift, run)
        del heat.deployments[run.id]

    found = _results(heat, operation, swift=swift)

    assert sorted(row['server'] for row in found) == ['demo-db-1', 'demo-db-2']


def test_results_of_no_operation_say_so(heat):
    with pytest.raises(osc_exc.CommandError, match='No operation op-9'):
        _results(heat, 'op-9')


def _diff(heat, *argv):
    app = App(heat, SERVERS, swift=FakeSwift())
    made, parsed = command(results.DiffRun, app, *argv)
    made.take_action(parsed)
    return app.stdout.getvalue(), app.stderr.getvalue()


def test_diff_gives_the_changed_lines_against_the_servers_previous_run(heat, source, operation):
    [later] = _backup(heat, source, Operation('op-2', 'alice', '2026-11-29T08:00:00Z',
                                              source=source),
                      {'s1': ('dumped 3 tables\nchecksum 11\n', 0)}, '2026-11-29T08:00:00Z')

    for day in ('20', '21', '22'):
        _backup(heat, source, Operation(f'op-old-{day}', 'alice', f'2026-11-{day}T08:00:00Z',
                                        source=source),
                {'s1': ('older\n', 0)}, f'2026-11-{day}T08:00:00Z')
    before = len(heat.called('software_configs.get'))
    out, _err = _diff(heat, later.id)

    # The two compared runs' configs, not every run's of the server.
    assert len(heat.called('software_configs.get')) - before <= 2
    lines = out.splitlines()
    assert lines[2:] == ['-1: dumped 2 tables', '+1: dumped 3 tables']
    assert lines[1].startswith(f'+++ {later.id}')


def test_diff_of_a_run_with_no_earlier_one_says_so(heat, operation):
    [only] = [run for run in listing.operation_runs(heat, PROJECT, operation)
              if run.server_id == 's2']

    with pytest.raises(osc_exc.CommandError, match='no earlier run of BACKUP'):
        _diff(heat, only.id)


def test_diff_of_two_given_runs_of_another_output(heat, source, operation):
    first, second = listing.operation_runs(heat, PROJECT, operation)

    out, _err = _diff(heat, second.id, first.id, '--output', 'table_count')

    assert out.splitlines()[2:] == []
    assert _diff(heat, second.id, first.id)[0].splitlines()[2:] == [
        '-1: dumped 2 tables', '-2: checksum 11', f'+1: ERROR: disk full (pw {masking.MASK})']


def _server_results(heat, *argv, swift=None):
    made, parsed = command(results.ServerResults, App(heat, SERVERS, swift=swift
                                                      or FakeSwift()), *argv)
    columns, values = made.take_action(parsed)
    return [dict(zip(columns, each)) for each in values]


def test_a_servers_results_are_its_runs_by_name_or_id_searched_and_archived(
        heat, swift, source, operation):
    [later] = _backup(heat, source, Operation('op-2', 'alice', '2026-11-29T08:00:00Z',
                                              source=source),
                      {'s1': ('dumped 3 tables\n', 0)}, '2026-11-29T08:00:00Z')

    found = _server_results(heat, 'demo-db-1')

    # Its runs, as its results page lists them: by start.
    assert [(row['server'], row['stdout']) for row in found] == [
        ('demo-db-1', 'dumped 2 tables\nchecksum 11'), ('demo-db-1', 'dumped 3 tables')]
    assert [row['run_id'] for row in _server_results(heat, 's1', '--grep', '3 TABLES')] == [
        later.id]
    # Its archived runs too, as its results page has them.
    archive.put(swift, listing.run(heat, PROJECT, later.id))
    del heat.deployments[later.id]
    assert later.id in [row['run_id'] for row in _server_results(heat, 's1', swift=swift)]


def test_a_deleted_servers_id_still_finds_its_history_and_a_wrong_name_says_so(
        heat, source):
    gone = '0b5c8a43-7c39-4a57-9a4e-1f2f3a0c9d11'
    [run] = _backup(heat, source, Operation('op-3', 'alice', '2026-11-29T08:00:00Z',
                                            source=source),
                    {gone: ('bye\n', 0)}, '2026-11-29T08:00:00Z')

    assert [row['run_id'] for row in _server_results(heat, gone)] == [run.id]
    # Written as Nova's and Heat's ids never are: the same server.
    assert [row['run_id'] for row in _server_results(heat, gone.upper())] == [run.id]
    with pytest.raises(osc_exc.CommandError, match='No run of server s1 in'):
        _server_results(heat, 'S1')
    with pytest.raises(osc_exc.CommandError, match='No server of this project'):
        _server_results(heat, 'no-such-server')
    with pytest.raises(osc_exc.CommandError, match='No run of server'):
        _server_results(heat, 'demo-web-1')
