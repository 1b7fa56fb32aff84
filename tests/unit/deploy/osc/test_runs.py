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

"""`openstack software run show | output`, on the in-memory Heat."""

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner import masking
from heat_deploy_runner import Operation
from heat_deploy_runner.osc import runs as osc_runs
from heat_deploy_runner.pruning import archive
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from tests.unit.deploy.fakes import FakeSwift
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import PROJECT

OPERATION = Operation('op-1', 'alice', '2026-11-26T08:00:00Z', source='c')
LINES = ''.join(f'line {n}\n' for n in range(1, 31))


@pytest.fixture
def finished(heat):
    source = heat.add_config(name='mysql', inputs=[
        {'name': 'retention_days', 'type': 'Number', 'default': 7},
        {'name': 'db_password', 'type': 'String', 'default': ''}])
    [run] = start(heat, transport_for, RunRequest(
        config_id=source, action='BACKUP', server_ids=('s1',), transport='NO_SIGNAL',
        input_values={'retention_days': 3, 'db_password': 'hunter2'}), OPERATION).created
    heat.deployments[run.id].update(
        status='FAILED', status_reason='deploy_status_code : Deployment exited with '
        'non-zero status code: 2', output_values={'deploy_stdout': LINES,
                                                  'deploy_stderr': 'disk full\n',
                                                  'deploy_status_code': 2})
    return run.id


def _taken(command_class, heat, *argv, swift=None):
    command = command_class(App(heat, swift=swift or FakeSwift()), None)
    return command.take_action(command.get_parser('openstack').parse_args(list(argv)))


def _shown(command_class, heat, *argv, swift=None):
    columns, values = _taken(command_class, heat, *argv, swift=swift)
    return dict(zip(columns, values))


def test_show_says_what_ran_how_it_ended_and_with_which_inputs(heat, finished):
    shown = _shown(osc_runs.ShowRun, heat, finished)

    assert (shown['name'], shown['server'], shown['action'], shown['status']) == (
        'mysql-BACKUP', 's1', 'BACKUP', 'FAILED')
    assert (shown['exit_code'], shown['operation'], shown['started_by']) == (2, 'op-1', 'alice')
    assert shown['inputs'].machine_readable() == {'retention_days': '3',
                                                  'db_password': masking.MASK}


def test_output_gives_the_end_of_each_output_and_all_of_it_when_asked(heat, finished):
    tail = _shown(osc_runs.ShowRunOutput, heat, finished)
    whole = _shown(osc_runs.ShowRunOutput, heat, finished, '--all', '--output',
                   'deploy_stdout')

    assert tail['deploy_stdout'].splitlines() == [f'line {n}' for n in range(11, 31)]
    assert tail['deploy_stderr'] == 'disk full'
    assert whole == {'deploy_stdout': LINES}


def test_an_output_the_run_has_not_is_a_sentence(heat, finished):
    with pytest.raises(osc_exc.CommandError, match='The run has no output backup_file.'):
        _shown(osc_runs.ShowRunOutput, heat, finished, '--output', 'backup_file')


@pytest.mark.parametrize('whose', ['gone', 'another project'])
def test_a_run_not_in_the_project_is_not_found(heat, finished, whose):
    if whose == 'gone':
        run_id = 'no-such-run'
    else:
        run_id = finished
        heat.configs[heat.deployments[finished]['config_id']]['project'] = 'not-' + PROJECT

    with pytest.raises(osc_exc.CommandError, match=f'No run {run_id} in this project.'):
        _shown(osc_runs.ShowRun, heat, run_id)


def test_prune_archives_the_runs_past_the_bound_and_lists_them(heat, swift, finished):
    heat.deployments[finished]['creation_time'] = '2026-01-01T00:00:00Z'
    [source] = [config_id for config_id, config in heat.configs.items()
                if config['name'] == 'mysql']
    start(heat, transport_for, RunRequest(config_id=source, action='BACKUP',
                                          server_ids=('s1',), transport='NO_SIGNAL'),
          OPERATION)

    dry_columns, dry = _taken(osc_runs.PruneRuns, heat, '--keep-latest', '1', '--dry-run',
                              swift=swift)
    assert len(heat.deployments) == 2 and archive.CONTAINER not in swift.containers
    columns, rows = _taken(osc_runs.PruneRuns, heat, '--keep-latest', '1', swift=swift)

    assert rows == dry and [row[:5] for row in rows] == [
        (finished, 'mysql-BACKUP', 's1', 'BACKUP', 'FAILED')]
    assert finished not in heat.deployments
    shown = _shown(osc_runs.ShowRun, heat, finished, swift=swift)
    assert (shown['archived'], shown['status'], shown['exit_code']) == (True, 'FAILED', 2)
    assert shown['inputs'].machine_readable()['db_password'] == masking.MASK
    assert _shown(osc_runs.ShowRunOutput, heat, finished, swift=swift)[
        'deploy_stderr'] == 'disk full'

    _taken(osc_runs.DeleteRun, heat, finished, swift=swift)
    assert swift.containers[archive.CONTAINER] == {}


def test_prune_names_the_derived_configs_no_run_uses_it_deletes(heat, finished):
    # A config Heat made after its start had stopped waiting for it: no deployment uses it.
    orphan = heat.add_config(
        name='mysql-BACKUP', options={'heat_deploy_dashboard': OPERATION.as_option()},
        inputs=[{'name': 'deploy_server_id', 'value': 's1'},
                {'name': 'deploy_action', 'value': 'BACKUP'}])
    heat.configs[orphan]['creation_time'] = '2026-01-01T00:00:00Z'

    def prune(*argv):
        app = App(heat, swift=FakeSwift())
        command = osc_runs.PruneRuns(app, None)
        command.take_action(command.get_parser('openstack').parse_args(list(argv)))
        return app.stderr.getvalue()

    said = ('the derived configs no run uses (Heat made them after their start had stopped '
            f'waiting): {orphan}\n')
    assert prune('--dry-run') == 'Would delete ' + said
    assert orphan in heat.configs
    assert prune() == 'Deleted ' + said
    assert orphan not in heat.configs and finished in heat.deployments
