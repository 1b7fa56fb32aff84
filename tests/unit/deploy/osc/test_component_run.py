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

"""`openstack software component run`, on the in-memory clouds: one RunRequest checked as the
Run Action form checks it, started now or in batches, followed with --wait, its inputs from
options, a file or a terminal's prompt; and refusals that name what is wrong and leave
nothing made."""

import io
import logging
from unittest import mock

from heatclient import exc as heat_exc
from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import plugin
from heat_deploy_runner.osc import request_options
from heat_deploy_runner.osc import waiting
from heat_deploy_runner.running.cancel import CANCEL_REASON_PREFIX
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from heat_deploy_runner.workflows import secret_store
from tests.unit.deploy.osc.app import App
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import new_runs
from tests.unit.deploy.osc.app import SERVERS
from tests.unit.deploy.osc.app import shown
from tests.unit.deploy.osc.app import USER


def _servers_end(heat, outcomes):
    """time.sleep of --wait's loop: the servers report, {server: (status, exit code)}."""
    def sleep(_seconds):
        for each in new_runs(heat):
            status, code = outcomes[each['server_id']]
            each.update(status=status, status_reason=f'exit {code}',
                        output_values={'deploy_status_code': code})
    return sleep


def test_a_run_by_server_name_and_id_with_a_typed_input(heat, mysql, app):
    result = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                   'demo-db-1', '--server', 's2', '--input', 'retention_days=3')

    made = new_runs(heat)
    assert sorted(each['server_id'] for each in made) == ['s1', 's2']
    configs = [heat.configs[each['config_id']] for each in made]
    assert [[each.get('value') for each in config['inputs']
             if each['name'] == 'retention_days'] for config in configs] == [['3'], ['3']]
    [operation] = {each['input_values'][OPERATION_OPTION]['operation'] for each in made}
    assert result['operation'] == operation
    assert {each['input_values'][OPERATION_OPTION]['started_by'] for each in made} == {USER}
    assert result['servers'].machine_readable() == ['demo-db-1', 'demo-db-2']


@pytest.mark.parametrize('outcomes, exit_code', [
    ({'s1': ('COMPLETE', 0), 's2': ('COMPLETE', 0)}, 0),
    ({'s1': ('COMPLETE', 0), 's2': ('FAILED', 2)}, 1)])
def test_wait_says_each_server_as_it_ends_and_exits_non_zero_on_a_failure(
        heat, mysql, app, outcomes, exit_code):
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--server', 's2', '--wait')
    with mock.patch.object(waiting.time, 'sleep', _servers_end(heat, outcomes)):
        with mock.patch.object(made, 'produce_output') as produce:
            assert made.run(parsed) == exit_code

    first, *said = app.stderr.getvalue().splitlines()
    assert first.startswith('Following operation ')
    assert sorted(said) == sorted(
        f'demo-db-{n}: {outcomes[f"s{n}"][0]}, exit code {outcomes[f"s{n}"][1]}'
        + ('' if outcomes[f's{n}'][0] == 'COMPLETE' else f' (exit {outcomes[f"s{n}"][1]})')
        for n in (1, 2))
    columns, values = produce.call_args.args[1:]
    runs = dict(zip(columns, values))['runs'].machine_readable()
    assert [(each['server'], each['exit_code']) for each in runs] == [
        ('demo-db-1', outcomes['s1'][1]), ('demo-db-2', outcomes['s2'][1])]


@pytest.mark.parametrize('argv, said', [
    (('nosuch', 'BACKUP', '--server', 's1'), 'No software component nosuch in this project.'),
    (('mysql', 'RESTORE', '--server', 's1'),
     'The component mysql has no action RESTORE; its actions: CREATE, BACKUP.'),
    (('mysql', 'CREATE', '--server', 's1'), 'CREATE is a lifecycle action'),
    (('mysql', 'BACKUP', '--server', 'demo-web-1'),
     'The component mysql is not deployed on server demo-web-1: run it on one of its '
     'servers (demo-db-1, demo-db-2).'),
    (('mysql', 'BACKUP', '--server', 'nosuch'),
     'No server of this project has that ID or name.'),
    (('mysql', 'BACKUP', '--server', 's1', '--input', 'retention=3'),
     'No input retention is declared; the inputs are: db_password, retention_days.'),
    (('mysql', 'BACKUP', '--server', 's1', '--input', 'retention_days=abc'),
     'The input retention_days must be a number, not "abc".'),
    (('mysql', 'BACKUP', '--server', 's1', '--input', 'retention_days'),
     'Give each input as NAME=VALUE, not "retention_days".'),
    (('mysql', 'BACKUP', '--server', 's1', '--batch-size', '1'),
     'Runs in batches need the workflow service (Mistral)'),
])
def test_a_refusal_names_what_is_wrong_and_makes_nothing(heat, swift, mysql, app, argv, said):
    before = (dict(heat.configs), dict(heat.deployments))
    made, parsed = command(component_run.RunComponent, app, *argv)

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    assert str(refused.value).startswith(said)
    assert (heat.configs, heat.deployments) == before
    assert swift.containers == {}


@pytest.mark.parametrize('option', [('--timeout', '0'), ('--batch-size', 'x'),
                                    ('--transport', 'CFN_SIGNAL'), ('--all-servers',)])
def test_a_bad_option_is_refused_by_the_parser(mysql, app, option):
    with pytest.raises(SystemExit):
        command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1', *option)


def test_all_servers_are_every_server_of_the_component(heat, mysql, app):
    result = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--all-servers')

    assert sorted(each['server_id'] for each in new_runs(heat)) == ['s1', 's2']
    assert result['servers'].machine_readable() == ['demo-db-1', 'demo-db-2']


def test_no_server_at_all_is_refused_before_anything_is_made(heat, mysql, app):
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP')

    with pytest.raises(osc_exc.CommandError, match='Choose the servers: --server'):
        made.take_action(parsed)
    assert new_runs(heat) == []


def test_a_server_and_all_servers_together_are_refused_by_the_parser(mysql, app):
    with pytest.raises(SystemExit):
        command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
                '--all-servers')


def _backups_ended(heat, component_id, *ended):
    """A BACKUP run on each server, ended so, in this order ((server, status), ...): the
    fleet as the choosers read it."""
    for second, (server, status) in enumerate(ended):
        start(heat, transport_for, RunRequest(config_id=component_id, action='BACKUP',
                                              server_ids=(server,), name='mysql',
                                              transport='NO_SIGNAL'))
        newest = list(heat.deployments.values())[-1]
        newest.update(status=status, creation_time=f'2026-01-01T00:00:{second:02d}Z')
        if status == 'CANCELLED':
            newest.update(status='FAILED', status_reason=f'{CANCEL_REASON_PREFIX}alice')


@pytest.fixture
def fleet(heat, mysql, swift):
    """The mysql component on s1 (stack demo) and s2 (a nested stack of the stack other);
    the last BACKUP failed on s1 and completed on s2."""
    app = App(heat, (('s1', 'demo-db-1', ('demo',)),
                     ('s2', 'demo-db-2', ('other', 'other-group-x1'))), swift=swift)
    _backups_ended(heat, mysql, ('s1', 'COMPLETE'), ('s2', 'FAILED'), ('s1', 'FAILED'),
                   ('s2', 'COMPLETE'))
    return app


@pytest.mark.parametrize('argv, chosen', [
    (['--last-status', 'failed'], ['s1']),
    (['--stack', 'other'], ['s2']),
    (['--stack', 'other-group-x1'], ['s2']),
    (['--stack', 'demo', '--last-status', 'FAILED'], ['s1']),
    (['--server', 's2', '--last-status', 'FAILED'], []),
])
def test_the_choosers_narrow_the_servers_by_stack_and_last_status(heat, fleet, argv, chosen):
    before = {each['id'] for each in new_runs(heat)}

    made, parsed = command(component_run.RunComponent, fleet, 'mysql', 'BACKUP', *argv)
    if chosen:
        made.take_action(parsed)
    else:
        with pytest.raises(osc_exc.CommandError,
                           match='Found no server of mysql with its last BACKUP run FAILED: '
                                 'nothing was started'):
            made.take_action(parsed)

    assert sorted(each['server_id'] for each in new_runs(heat)
                  if each['id'] not in before) == chosen


def test_never_chooses_the_servers_the_action_never_ran_on(heat, mysql, swift):
    app = App(heat, SERVERS, swift=swift)
    _backups_ended(heat, mysql, ('s2', 'CANCELLED'))

    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--last-status', 'NEVER')

    assert [each['server_id'] for each in new_runs(heat)][1:] == ['s1']


def test_a_status_the_choosers_do_not_know_is_refused_by_the_parser(mysql, app):
    with pytest.raises(SystemExit):
        command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--last-status', 'DONE')


def test_in_batches_it_starts_the_rolling_workflow_with_secrets_kept_out_of_it(
        heat, swift, mysql):
    mistral = mock.Mock()
    mistral.workflows.list.return_value = []
    mistral.workflows.create.return_value = [mock.Mock(id='wf-1')]
    mistral.executions.create.return_value = mock.Mock(id='exec-1')
    app = App(heat, SERVERS, swift=swift, mistral=mistral)

    result = shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
                   '--server', 's2', '--input', 'db_password=hunter2', '--batch-size', '1',
                   '--max-failures', '1')

    assert result['operation'] == 'exec-1'
    (workflow_id,), kwargs = mistral.executions.create.call_args
    asked = kwargs['workflow_input']
    assert (workflow_id, asked['server_ids'], asked['batch_size'], asked['max_failures'],
            asked['started_by']) == ('wf-1', ['s1', 's2'], 1, 1, USER)
    assert 'hunter2' not in repr(asked)
    assert secret_store.get(swift, asked['secret_ref']) == {'db_password': 'hunter2'}
    assert new_runs(heat) == []


def test_without_object_storage_a_run_in_batches_is_refused_before_mistral(heat, mysql):
    mistral = mock.Mock()
    app = App(heat, SERVERS, swift=None, mistral=mistral)
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--transport', 'TEMP_URL_SIGNAL', '--batch-size', '1')

    with pytest.raises(osc_exc.CommandError, match='needs Object Storage'):
        made.take_action(parsed)
    mistral.executions.create.assert_not_called()


def test_without_object_storage_the_first_transport_available_is_the_default(heat, mysql):
    app = App(heat, SERVERS, swift=None)

    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1')

    [run] = new_runs(heat)
    values = {each['name']: each.get('value') for each in heat.configs[run['config_id']]
              ['inputs']}
    assert values['deploy_signal_transport'] == 'NO_SIGNAL'


def test_a_server_left_out_fails_the_command_even_without_wait(heat, mysql, app):
    heat.fail('software_deployments.create', heat_exc.HTTPInternalServerError(),
              when=lambda **kwargs: kwargs['server_id'] == 's2')
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--server', 's2')

    with mock.patch.object(made, 'produce_output'):
        assert made.run(parsed) == 1
    assert ('Could not start BACKUP on server demo-db-2 (s2): its deployment could not be '
            'created.\n') in app.stderr.getvalue()


def test_servers_still_running_are_left_out_when_asked_and_that_is_no_failure(
        heat, mysql, app):
    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1')
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--server', 's2', '--leave-out-busy', '--wait')

    with mock.patch.object(waiting.time, 'sleep', _servers_end(heat, {
            's1': ('COMPLETE', 0), 's2': ('COMPLETE', 0)})), \
            mock.patch.object(made, 'produce_output'):
        assert made.run(parsed) == 0
    # s1's earlier run and s2's new one: no second run on s1.
    assert sorted(each['server_id'] for each in new_runs(heat)) == ['s1', 's2']
    assert ('Left out, still running an earlier run: demo-db-1 (s1).\n'
            in app.stderr.getvalue())


def test_every_server_still_running_is_refused_and_nothing_made(heat, mysql, app):
    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1')
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--leave-out-busy')

    with pytest.raises(osc_exc.CommandError, match='still running an earlier run'):
        made.run(parsed)
    assert len(new_runs(heat)) == 1


def test_a_run_deleted_while_followed_ends_the_wait_as_a_failure(heat, mysql, app):
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--wait')

    def delete_it(_seconds):
        for each in new_runs(heat):
            del heat.deployments[each['id']]
    with mock.patch.object(waiting.time, 'sleep', delete_it):
        with mock.patch.object(made, 'produce_output'):
            assert made.run(parsed) == 1
    assert app.stderr.getvalue().splitlines()[-1].endswith(': deleted')


def test_the_runners_log_is_shown_on_the_command_line_with_debug_only():
    # As OpenStackClient sets logging up: the root at DEBUG, its console handler at WARNING
    # (DEBUG with --debug).
    shown = io.StringIO()
    console = logging.StreamHandler(shown)
    root = logging.getLogger()
    level = root.level
    root.addHandler(console)
    try:
        root.setLevel(logging.DEBUG)
        console.setLevel(logging.WARNING)
        plugin.quiet_runner_log([console])
        logging.getLogger('heat_deploy_runner.running.starting').error('quiet')
        logging.getLogger('keystoneauth1.session').warning('kept')
        console.setLevel(logging.DEBUG)
        logging.getLogger('heat_deploy_runner.running.starting').error('told')
    finally:
        root.removeHandler(console)
        root.setLevel(level)
    assert shown.getvalue().splitlines() == ['kept', 'told']


def test_inputs_from_a_file_typed_and_each_input_option_winning(heat, mysql, app, tmp_path):
    given = tmp_path / 'inputs.yaml'
    given.write_text('retention_days: 3\ndb_password: from-the-file\n')

    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
          '--input-file', str(given), '--input', 'retention_days=4')

    [made] = new_runs(heat)
    values = {each['name']: each.get('value')
              for each in heat.configs[made['config_id']]['inputs']}
    assert (values['retention_days'], values['db_password']) == ('4', 'from-the-file')


def test_a_secret_named_alone_is_asked_for_on_a_terminal_unseen(heat, mysql, app, monkeypatch):
    asked = []
    monkeypatch.setattr(request_options, 'asking',
                        lambda: lambda name: asked.append(name) or 'typed-unseen')

    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1',
          '--input', 'db_password')

    [made] = new_runs(heat)
    values = {each['name']: each.get('value')
              for each in heat.configs[made['config_id']]['inputs']}
    assert (asked, values['db_password']) == (['db_password'], 'typed-unseen')


def test_without_a_terminal_a_secret_is_not_asked_for(monkeypatch):
    monkeypatch.setattr(request_options.sys, 'stdin', io.StringIO('piped'))
    assert request_options.asking() is None


@pytest.mark.parametrize('content, said', [
    (None, 'Could not read the input file'),
    ('- just\n- a list\n', 'must map input names to values'),
    ('retention_days: [unclosed\n', 'is neither YAML nor JSON'),
    ('retention_days: abc\n', 'The input retention_days must be a number, not "abc".'),
    ('retention: 3\n', 'No input retention is declared'),
])
def test_a_bad_input_file_is_refused_and_nothing_made(
        heat, swift, mysql, app, tmp_path, content, said):
    given = tmp_path / 'inputs.yaml'
    if content is not None:
        given.write_text(content)
    before = (dict(heat.configs), dict(heat.deployments))
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--input-file', str(given))

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    assert said in str(refused.value)
    assert (heat.configs, heat.deployments) == before


def test_without_a_terminal_a_secret_named_alone_is_refused(heat, mysql, app, monkeypatch):
    monkeypatch.setattr(request_options, 'asking', lambda: None)
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server',
                           's1', '--input', 'db_password')

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    assert 'give it in a file with --input-file' in str(refused.value)
    assert new_runs(heat) == []
