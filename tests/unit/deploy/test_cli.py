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

"""The openstack commands shown beside forms and on detail pages."""

import shlex
import subprocess

from heat_deploy_runner import cli
from heat_deploy_runner import RunRequest


def _run_in_shell(script):
    """What a POSIX shell makes of the script: its commands' words, one line each, with
    `openstack` replaced by a printer and the files it writes read back."""
    printer = 'openstack() { for word in "$@"; do printf "%s\\n" "$word"; done; }'
    return subprocess.run(['sh', '-c', f'{printer}\n{script}'], check=True, text=True,
                          capture_output=True).stdout.splitlines()


def test_show_commands_name_the_object():
    assert cli.config_show('c-1') == 'openstack software config show c-1'
    assert cli.run_show('d-1') == 'openstack software run show d-1'
    assert cli.run_output('d-1') == 'openstack software run output --all d-1'
    assert cli.operation_show('o-1') == 'openstack software operation show o-1'
    assert (cli.deployment_metadata_show('s-1')
            == 'openstack software deployment metadata show s-1')
    assert cli.config_delete('c-1') == 'openstack software config delete c-1'
    assert cli.run_delete('d-1') == 'openstack software run delete d-1'


def _request(**fields):
    return RunRequest(**dict({'config_id': 'c-1', 'action': 'BACKUP', 'server_ids': ('s-1',)},
                             **fields))


def test_a_component_run_leaves_out_defaults_and_quotes_each_input():
    plain = cli.run_action(_request(server_ids=('s-1', 's-2')), component='c-1',
                           input_texts={'dir': "it's here", 'labels': '{"x": 1}'})
    every = cli.run_action(
        _request(action='CREATE', transport='NO_SIGNAL', timeout_minutes=5, batch_size=1,
                 max_failures=2, retries=3, retry_delay=30),
        component='c-1', input_texts={}, lifecycle=True)

    assert _run_in_shell(plain) == [
        'software', 'component', 'run', 'c-1', 'BACKUP', '--server', 's-1', '--server', 's-2',
        '--input', "dir=it's here", '--input', 'labels={"x": 1}']
    assert shlex.split(every)[1:] == [
        'software', 'component', 'run', 'c-1', 'CREATE', '--server', 's-1', '--transport',
        'NO_SIGNAL', '--timeout', '5', '--batch-size', '1', '--max-failures', '2',
        '--retries', '3', '--retry-delay', '30', '--confirm-lifecycle']


def test_tries_are_shown_without_batches_and_a_delay_only_with_tries():
    tried = cli.run_action(_request(retries=2), component='c-1', input_texts={})
    no_tries = cli.run_action(_request(retry_delay=30, max_failures=1), component='c-1',
                              input_texts={})

    assert shlex.split(tried)[-2:] == ['--retries', '2']
    assert shlex.split(no_tries)[-2:] == ['--server', 's-1']


def test_every_server_is_one_option_and_leaving_out_busy_ones_is_a_runs_alone():
    every = cli.run_action(_request(server_ids=('s-1', 's-2'), leave_out_busy=True),
                           component='c-1', input_texts={}, every_server=True)
    scheduled = cli.run_action(_request(leave_out_busy=True), component='c-1',
                               input_texts={}, repeat='0 2 * * *')

    assert shlex.split(every)[1:] == ['software', 'component', 'run', 'c-1', 'BACKUP',
                                      '--all-servers', '--leave-out-busy']
    assert '--leave-out-busy' not in scheduled


def test_a_schedule_is_made_or_changed_with_its_time_and_every_option():
    scheduled = cli.run_action(_request(batch_size=1, retries=1), component='c-1',
                               input_texts={}, repeat='0 2 * * *')
    changed = cli.run_action(_request(), component='c-1', input_texts={},
                             once_at='2026-12-01 02:00', schedule='hdd-1')

    assert shlex.split(scheduled)[1:] == [
        'software', 'schedule', 'create', 'c-1', 'BACKUP', '--server', 's-1',
        '--batch-size', '1', '--retries', '1', '--repeat', '0 2 * * *']
    assert shlex.split(changed)[1:5] + shlex.split(changed)[-2:] == [
        'software', 'schedule', 'change', 'hdd-1', '--once-at', '2026-12-01 02:00']


def test_a_run_is_created_with_its_name_and_each_input_quoted():
    command = cli.run_create(
        _request(name='mysql', transport='NO_SIGNAL', timeout_minutes=30),
        input_texts={'dir': "it's here", 'labels': '{"x": 1}'})

    assert _run_in_shell(command) == [
        'software', 'run', 'create', '--config', 'c-1', '--server', 's-1', '--action',
        'BACKUP', '--name', 'mysql', '--input', "dir=it's here", '--input', 'labels={"x": 1}',
        '--transport', 'NO_SIGNAL', '--timeout', '30']


def test_live_output_is_one_option_wherever_the_request_asks_it():
    shown = [cli.run_action(_request(live=True), component='c-1', input_texts={}),
             cli.run_action(_request(live=True), component='c-1', input_texts={},
                            repeat='0 2 * * *'),
             cli.run_create(_request(name='mysql', live=True), input_texts={})]
    not_asked = cli.run_action(_request(), component='c-1', input_texts={})

    assert [shlex.split(command).count('--live') for command in shown] == [1, 1, 1]
    assert shlex.split(shown[0])[-3:] == ['--server', 's-1', '--live']
    assert '--live' not in not_asked


def test_markup_and_shell_syntax_in_values_stay_inert():
    command = cli.config_show('$(rm -rf ~); `id` <b>')

    assert command == "openstack software config show '$(rm -rf ~); `id` <b>'"
    assert _run_in_shell(command)[-1] == '$(rm -rf ~); `id` <b>'


def test_a_config_is_created_from_files_written_as_they_are(tmp_path):
    body = '#!/bin/sh\necho "$HOME" \'EOF\'\nEOF\n'
    definition = 'inputs:\n  - name: who\n'

    script = cli.config_create(name='my config', group='script', definition=definition,
                               body=body)
    words = _run_in_shell(f'cd {shlex.quote(str(tmp_path))}\n{script}')

    assert words == ['software', 'config', 'create', '--group', 'script',
                     '--definition-file', 'definition.yaml', '--config-file', 'config',
                     'my config']
    assert (tmp_path / 'config').read_text() == body
    assert (tmp_path / 'definition.yaml').read_text() == definition


def test_a_config_without_files_is_one_command():
    assert (cli.config_create(name='NAME', group='Heat::Ungrouped')
            == 'openstack software config create --group Heat::Ungrouped NAME')
