"""`openstack software run show | output`, on the in-memory Heat."""

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner import masking
from heat_deploy_runner.operations import Operation
from heat_deploy_runner.osc import runs as osc_runs
from heat_deploy_runner.run_request import RunRequest
from heat_deploy_runner.starting import start
from heat_deploy_runner.transports import transport_for
from tests.unit.deploy.osc_app import App
from tests.unit.deploy.osc_app import PROJECT

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


def _shown(command_class, heat, *argv):
    command = command_class(App(heat), None)
    columns, values = command.take_action(
        command.get_parser('openstack').parse_args(list(argv)))
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
