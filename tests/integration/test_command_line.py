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

"""The `openstack software component | run | operation ...` commands, run as an operator runs
them: a process of their own, logged in through the OS_* variables, against the real local
cloud; what they start is what the dashboard's pages then show."""

import dataclasses
import html
import json
import os
import re
import subprocess

import pytest

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud.services import identity
import heat_deploy_runner as runner
from heat_deploy_runner.scheduling import schedules as runner_schedules
from tests.integration.command_line import json_of
from tests.integration.command_line import openstack
from tests.integration import waiting


def test_the_components_are_listed_as_the_panel_lists_them(cloud, demo_resources):
    listed = {each['Name']: each for each in json_of(
          openstack(cloud, 'software', 'component', 'list', '-f', 'json'))}

    mysql = listed['mysql']
    assert mysql['ID'] == demo_resources['mysql']
    assert mysql['Stack'] == 'demo'
    assert 'BACKUP' in mysql['Custom Actions'] and 'CREATE' in mysql['Lifecycle Actions']
    assert mysql['Servers'] == 2


def test_a_component_is_shown_by_its_name_with_its_inputs_and_servers(cloud, demo_resources):
    shown = json_of(openstack(cloud, 'software', 'component', 'show', 'mysql', '-f', 'json'))

    assert shown['id'] == demo_resources['mysql']
    assert 'retention_days' in {each['name'] for each in shown['inputs']}
    assert {each['server'] for each in shown['servers']} == {
        demo_resources['db_server_1'], demo_resources['db_server_2']}


def test_an_unknown_component_is_one_sentence_and_a_failure(cloud):
    done = openstack(cloud, 'software', 'component', 'show', 'no-such-component')

    assert done.returncode != 0
    assert 'No software component no-such-component in this project.' in done.stderr
    assert 'Traceback' not in done.stderr


def test_another_project_sees_none_of_the_demo_projects_components(cloud, demo_resources):
    listed = json_of(openstack(cloud, 'software', 'component', 'list', '-f', 'json',
                               username=credentials.OTHER_USER,
                               password=credentials.OTHER_PASSWORD,
                               project=credentials.OTHER_PROJECT))

    assert demo_resources['mysql'] not in {each['ID'] for each in listed}


def test_a_run_is_shown_with_its_outcome_and_outputs_to_its_project_only(
        cloud, heat, start_run):
    run, _config = start_run('mysql', 'BACKUP', 'db_server_1', backup_dir='from-the-cli',
                             pause_seconds=0)
    waiting.finished(heat, run.id)

    shown = json_of(openstack(cloud, 'software', 'run', 'show', run.id, '-f', 'json'))
    outputs = json_of(openstack(cloud, 'software', 'run', 'output', run.id, '--all',
                                '-f', 'json'))
    foreign = openstack(cloud, 'software', 'run', 'show', run.id,
                        username=credentials.OTHER_USER, password=credentials.OTHER_PASSWORD,
                        project=credentials.OTHER_PROJECT)

    assert (shown['name'], shown['status'], shown['exit_code']) == (
        'mysql-BACKUP', 'COMPLETE', 0)
    assert shown['inputs']['backup_dir'] == 'from-the-cli'
    assert outputs['deploy_stdout'] == heat.software_deployments.get(
        run.id).output_values['deploy_stdout']
    assert foreign.returncode != 0
    assert f'No run {run.id} in this project.' in foreign.stderr


@pytest.fixture
def cli_runs(heat, find_transport):
    """The runs the commands of a test made, deleted afterwards."""
    before = {each.id for each in heat.software_deployments.list()}
    yield
    for each in heat.software_deployments.list():
        if each.id not in before:
            runner.delete(heat, each.id, find_transport)


def _made(heat, swift):
    """What a refusal must not have changed: Heat's configs and deployments, Swift's
    containers."""
    return ({each.id for each in heat.software_configs.list()},
            {each.id for each in heat.software_deployments.list()},
            {each['name'] for each in swift.get_account(full_listing=True)[1]})


def test_a_run_waited_for_ends_zero_and_shows_on_the_operation_page(
        cloud, heat, user, demo_resources, cli_runs):
    done = openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP',
                     '--server', 'demo-db-1', '--server', 'demo-db-2',
                     '--input', 'retention_days=3', '--input', 'pause_seconds=0', '--wait',
                     '-f', 'json')

    shown = json_of(done)
    assert sorted(done.stderr.split('\n')[-3:-1]) == [
        'demo-db-1: COMPLETE, exit code 0', 'demo-db-2: COMPLETE, exit code 0']
    assert {each['server']: each['status'] for each in shown['runs']} == {
        'demo-db-1': 'COMPLETE', 'demo-db-2': 'COMPLETE'}
    page = user.get(f"/project/deployments/operations/{shown['operation']}/").text
    for each in shown['runs']:
        assert each['run'] in page
        config = heat.software_configs.get(
            heat.software_deployments.get(each['run']).config_id)
        assert {item['name']: item.get('value') for item in config.inputs}[
            'retention_days'] == '3'


def test_the_servers_where_backup_last_failed_are_chosen_by_stack_and_last_status(
        cloud, heat, cli_runs, swift):
    # The last BACKUP completed on demo-db-1 and failed on demo-db-2 (no such table: exit 3).
    for server, tables in (('demo-db-1', 'users'), ('demo-db-2', 'nosuch')):
        openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP', '--server',
                  server, '--input', f'tables={tables}', '--input', 'pause_seconds=0',
                  '--wait')
    before = _made(heat, swift)

    none = openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP', '--stack',
                     'nosuch', '--last-status', 'FAILED')
    assert none.returncode == 1
    assert ('Found no server of mysql in the stack nosuch with its last BACKUP run FAILED: '
            'nothing was started. Its servers: ') in none.stderr, none.stderr
    assert _made(heat, swift) == before
    done = openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP', '--stack',
                     'demo', '--last-status', 'failed', '--input', 'pause_seconds=0',
                     '--wait', '-f', 'json')

    shown = json_of(done)
    assert [(each['server'], each['status']) for each in shown['runs']] == [
        ('demo-db-2', 'COMPLETE')]


def test_a_failing_run_exits_non_zero_naming_its_server_and_exit_code(
        cloud, cli_runs, tmp_path):
    # Its inputs from a file, as secrets are given: a number and a string, typed.
    given = tmp_path / 'inputs.json'
    given.write_text('{"path": "/no/such/dir", "threshold_percent": 95}')
    done = openstack(cloud, 'software', 'component', 'run', 'monitoring', 'CHECK',
                     '--server', 'demo-mon-1', '--input-file', str(given), '--wait')

    assert done.returncode == 1, done.stderr
    assert 'demo-mon-1: FAILED, exit code 1' in done.stderr


def test_a_run_cancelled_from_the_command_line_shows_cancelled_on_its_page(
        cloud, heat, user, cli_runs):
    started = json_of(openstack(cloud, 'software', 'component', 'run', 'mysql', 'BACKUP',
                                '--server', 'demo-db-1', '--input', 'pause_seconds=60',
                                '-f', 'json'))
    [run] = [each.id for each in heat.software_deployments.list()
             if runner.operation_of_run(each)
             and runner.operation_of_run(each).id == started['operation']]

    cancelled = json_of(openstack(cloud, 'software', 'run', 'cancel', run, '-f', 'json'))

    assert cancelled['status'] == 'CANCELLED'
    assert 'Cancelled' in user.get(f'/project/deployments/{run}/').text
    operation = json_of(openstack(cloud, 'software', 'operation', 'show',
                                  started['operation'], '-f', 'json'))
    assert [each['status'] for each in operation['runs']] == ['CANCELLED']


@pytest.mark.parametrize('argv, said', [
    (('no-such-component', 'BACKUP', '--server', 'demo-db-1'),
     'No software component no-such-component in this project.'),
    (('mysql', 'BACKUP', '--server', 'no-such-server'),
     'No server of this project has that ID or name.'),
    (('mysql', 'BACKUP', '--server', 'demo-web-1'),
     'The component mysql is not deployed on server demo-web-1'),
    (('mysql', 'BACKUP', '--server', 'demo-db-1', '--input', 'retention_days=abc'),
     'The input retention_days must be a number, not "abc".'),
    (('mysql', 'BACKUP', '--server', 'demo-db-1', '--input', 'no_such_input=1'),
     'No input no_such_input is declared'),
    (('mysql', 'BACKUP', '--server', 'demo-db-1', '--live', '--transport', 'NO_SIGNAL'),
     'Live output comes back the way the result does, and NO_SIGNAL sends nothing back'),
    (('mysql', 'BACKUP', '--server', 'demo-db-1', '--follow'),
     "--follow prints the run's output until it ends: give --wait too."),
    (('mysql', 'BACKUP', '--all-servers', '--wait', '--follow'),
     "--follow prints one run's output, and 2 servers were chosen"),
])
def test_a_refusal_is_one_sentence_a_failure_and_makes_nothing(
        cloud, heat, swift, argv, said):
    before = _made(heat, swift)

    done = openstack(cloud, 'software', 'component', 'run', *argv)

    assert done.returncode != 0
    assert said in done.stderr and 'Traceback' not in done.stderr
    assert _made(heat, swift) == before


def test_another_projects_run_cannot_be_cancelled(cloud, heat, swift, start_run):
    run, _config = start_run('mysql', 'BACKUP', 'db_server_1', pause_seconds=30)

    done = openstack(cloud, 'software', 'run', 'cancel', run.id,
                     username=credentials.OTHER_USER, password=credentials.OTHER_PASSWORD,
                     project=credentials.OTHER_PROJECT)

    assert done.returncode != 0
    assert f'No run {run.id} in this project.' in done.stderr
    assert heat.software_deployments.get(run.id).status == 'IN_PROGRESS'


def _operation_runs(heat, operation_id):
    """{server: (action, the derived config's name, its inputs' values but the signal's)}
    of the operation's runs."""
    found = {}
    for each in heat.software_deployments.list():
        operation = runner.operation_of_run(each)
        if operation and operation.id == operation_id:
            config = heat.software_configs.get(each.config_id)
            found[each.server_id] = (each.action, config.name, {
                item['name']: item.get('value') for item in config.inputs
                if not item['name'].startswith('deploy_')
                or item['name'] == 'deploy_signal_transport'})
    return found


def _pasted(cloud, page, column='operation'):
    """The operation the page's "With the openstack client" command starts (or the
    ``column`` it prints), pasted into a shell as the demo user."""
    [command] = re.findall(r'<pre class="hdd-cli-command"[^>]*><code>(.*?)</code>', page, re.S)
    env = dict(os.environ, **identity.cli_environment(
        cloud.layout, credentials.DEMO_USER, credentials.DEMO_PASSWORD,
        credentials.DEMO_PROJECT))
    env['PATH'] = os.path.dirname(layout_mod.venv_bin('openstack')) + ':' + env['PATH']
    pasted = subprocess.run(['sh', '-c', f'{html.unescape(command)} -f value -c {column}'],
                            env=env, capture_output=True, text=True, timeout=120, check=False)
    assert pasted.returncode == 0, pasted.stderr
    return pasted.stdout.strip()


def test_the_run_action_forms_command_pasted_into_a_shell_makes_the_forms_runs(
        cloud, heat, user, demo_resources, cli_runs):
    form = f'/project/components/{demo_resources["mysql"]}/run/'
    values = {'action': 'BACKUP', 'timeout': '5', 'input__retention_days': '4',
              'input__backup_dir': "it's \"here\" $HOME `x`", 'input__tables': 'a,b',
              'input__labels': '{"via": "paste"}', 'input__compress': 'false',
              'input__pause_seconds': '0'}
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]

    from_shell = _operation_runs(heat, _pasted(cloud, user.get(
        form, params=dict(values, server=servers)).text))
    posted = user.post(form, dict(values, servers=servers, transport='TEMP_URL_SIGNAL'))

    assert '/project/deployments/operations/' in posted.url
    from_form = _operation_runs(heat, posted.url.rstrip('/').rsplit('/', 1)[1])
    assert sorted(from_form) == sorted(servers)
    assert from_shell == from_form


# What a run in batches with tries asks Mistral for (its workflow input), but who and where,
# and the input values: the form gives every one, the command line those not at their
# default (the runs they make are compared instead).
REQUESTED = ('config_id', 'name', 'action_name', 'server_ids', 'transport',
             'timeout_minutes', 'batch_size', 'max_failures', 'retries', 'retry_delay')
# Run Action's fields for a BACKUP of both db servers in batches, with tries (an unticked
# box is posted as no field: it is shown unticked).
IN_BATCHES = {'action': 'BACKUP', 'timeout': '5', 'batch_size': '1', 'max_failures': '1',
              'retries': '1', 'retry_delay': '2', 'input__retention_days': '4',
              'input__backup_dir': 'in batches', 'input__pause_seconds': '0',
              'input__compress': 'false'}


def _ended(mistral, operation_id):
    def check():
        found = mistral.executions.get(operation_id)
        return found if found.state in ('SUCCESS', 'ERROR') else None
    found = waiting.wait_for(f'operation {operation_id} to end', check, timeout=180)
    assert found.state == 'SUCCESS', found.state_info
    return {key: json.loads(found.input)[key] for key in REQUESTED}


def test_the_run_action_forms_command_with_batches_and_tries_makes_the_forms_operation(
        cloud, heat, mistral, user, demo_resources, cli_runs):
    form = f'/project/components/{demo_resources["mysql"]}/run/'
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]

    from_shell = _pasted(cloud, user.get(form, params=dict(IN_BATCHES, server=servers)).text)
    posted = user.post(form, dict(IN_BATCHES, servers=servers, transport='TEMP_URL_SIGNAL'))

    from_form = posted.url.rstrip('/').rsplit('/', 1)[1]
    asked = _ended(mistral, from_form)
    assert (asked['batch_size'], asked['retries'], asked['retry_delay']) == (1, 1, 2)
    assert _ended(mistral, from_shell) == asked
    assert _operation_runs(heat, from_shell) == _operation_runs(heat, from_form)


def _scheduled(mistral, heat, name):
    """What a schedule runs where and when (its record but whose and its history), each input
    at the value its firings run with: the form keeps every one, the command line those not
    at their default."""
    record = mistral.environments.get(name).variables
    request = runner.RunRequest.from_record(record)
    declared = heat.software_configs.get(request.config_id).inputs
    defaults = {each['name']: each['default'] for each in declared
                if each.get('default') is not None}
    values = runner.coerce_input_values(declared, dict(defaults, **request.input_values))
    return (dataclasses.replace(request, input_values=values),
            record.get('pattern'), record.get('once_at'), record.get('paused'))


def test_the_commands_of_a_schedules_forms_make_and_keep_what_the_forms_do(
        cloud, heat, mistral, user, demo_resources, made_schedules):
    form = f'/project/components/{demo_resources["mysql"]}/run/'
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]
    values = dict(IN_BATCHES, repeat='0 3 1 1 *')
    before = {each.name for each in mistral.environments.list()}

    from_shell = _pasted(cloud, user.get(form, params=dict(values, server=servers)).text,
                         column='name')
    made_schedules.append(from_shell)
    posted = user.post(form, dict(values, servers=servers, transport='TEMP_URL_SIGNAL'))
    assert posted.url.endswith('/project/schedules/')
    # (The project's first schedule makes its retention schedule too.)
    [from_form] = ({each.name for each in mistral.environments.list()} - before
                   - {from_shell, runner_schedules.RETENTION})
    made_schedules.append(from_form)

    made = _scheduled(mistral, heat, from_form)
    assert made[0].retries == 1 and made[1:] == ('0 3 1 1 *', None, False)
    assert _scheduled(mistral, heat, from_shell) == made
    # Its Change form's command, pasted as it is shown, gives it what it has.
    changed = _pasted(cloud, user.get(f'/project/schedules/{from_form}/change/').text,
                      column='name')
    assert changed == from_form and _scheduled(mistral, heat, from_form) == made


def test_the_deploy_forms_command_pasted_into_a_shell_makes_the_forms_run(
        cloud, heat, user, demo_resources, cli_runs):
    form = f'/project/configs/{demo_resources["mysql"]}/deploy/'
    values = {'server': demo_resources['db_server_1'], 'action': 'BACKUP',
              'name': "pasted 'run'", 'timeout': '5', 'input__retention_days': '2',
              'input__pause_seconds': '0', 'input__backup_dir': 'deployed',
              'input__compress': 'false', 'input__tables': 'users', 'input__labels': '{}',
              'input__backup_file': '', 'input__log_lines': '0'}

    from_shell = _operation_runs(heat, _pasted(cloud, user.get(form, params=values).text))
    posted = user.post(form, dict(values, transport='TEMP_URL_SIGNAL'))

    run_id = posted.url.rstrip('/').rsplit('/', 1)[1]
    from_form = _operation_runs(heat, runner.operation_of_run(
        heat.software_deployments.get(run_id)).id)
    assert list(from_form) == [demo_resources['db_server_1']]
    assert from_shell == from_form


def test_a_schedule_made_on_the_command_line_is_the_panels_and_the_panels_pause_is_seen(
        cloud, user):
    made = json_of(openstack(cloud, 'software', 'schedule', 'create', 'mysql', 'BACKUP',
                             '--server', 'demo-db-1', '--input', 'retention_days=3',
                             '--repeat', '0 3 1 1 *', '-f', 'json'))
    name = made['name']
    try:
        page = user.get('/project/schedules/').text
        assert name in page and 'BACKUP' in page
        user.post('/project/schedules/', {'action': f'schedules__pause__{name}'})

        shown = json_of(openstack(cloud, 'software', 'schedule', 'show', name, '-f', 'json'))
        assert (shown['state'], shown['when'], shown['inputs']) == (
            'paused', '0 3 1 1 * (UTC)', {'retention_days': 3})
        resumed = openstack(cloud, 'software', 'schedule', 'resume', name)
        assert resumed.returncode == 0, resumed.stderr
        assert 'Active' in user.get('/project/schedules/').text
    finally:
        deleted = openstack(cloud, 'software', 'schedule', 'delete', name)
    assert deleted.returncode == 0, deleted.stderr
    assert name not in user.get('/project/schedules/').text
