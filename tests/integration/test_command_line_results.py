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

"""`openstack software operation results | server results | run diff`: what the servers said,
as the results pages and their downloads have it, from the command line."""

import csv
import io

from devcloud import credentials
import heat_deploy_runner as runner
from tests.integration.command_line import json_of
from tests.integration.command_line import openstack
from tests.integration import waiting


def _backup_operation(heat, find_transport, demo_resources, cleanup, **inputs):
    operation = runner.Operation.new(credentials.DEMO_USER, demo_resources['mysql'])
    started = runner.start(heat, find_transport, runner.RunRequest(
        config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
        server_ids=[demo_resources['db_server_1'], demo_resources['db_server_2']],
        input_values=dict({'tables': 'users', 'pause_seconds': 0}, **inputs),
        transport='TEMP_URL_SIGNAL'), operation=operation)
    cleanup.extend(started.created)
    return operation.id, [waiting.finished(heat, run.id, timeout=90) for run in started.created]


def test_an_operations_results_as_csv_are_the_pages_download(
        cloud, heat, find_transport, demo_resources, cleanup, user):
    operation_id, runs = _backup_operation(heat, find_transport, demo_resources, cleanup,
                                           log_lines=2)

    done = openstack(cloud, 'software', 'operation', 'results', operation_id, '-f', 'csv')
    page = user.get(f'/project/deployments/operations/{operation_id}/results.csv')
    searched = openstack(cloud, 'software', 'operation', 'results', operation_id, '--grep',
                         'COPYING block 1', '-f', 'json')

    assert done.returncode == 0, done.stderr
    assert page.status_code == 200
    from_cli = list(csv.reader(io.StringIO(done.stdout)))
    from_page = list(csv.reader(io.StringIO(page.text)))
    assert from_cli == from_page
    assert sorted(row[2] for row in from_cli[1:]) == sorted(run.id for run in runs)
    assert {row['server'] for row in json_of(searched)} == {'demo-db-1', 'demo-db-2'}


def test_run_diff_shows_the_lines_that_changed_since_the_servers_previous_run(
        cloud, heat, find_transport, demo_resources, cleanup):
    _first, [earlier, _other] = _backup_operation(
        heat, find_transport, demo_resources, cleanup, labels={'note': 'before'})
    _second, [later, _again] = _backup_operation(
        heat, find_transport, demo_resources, cleanup, labels={'note': 'after'})

    done = openstack(cloud, 'software', 'run', 'diff', later.id)

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f'--- {earlier.id}') and lines[1].startswith(f'+++ {later.id}')
    changed = lines[2:]
    # Only what differs, line 2 and 3: the labels and the archive's name.
    assert [line.split(':', 1)[0] for line in changed] == ['-2', '-3', '+2', '+3'], changed
    assert 'before' in changed[0] and 'after' in changed[2]
    assert 'Wrote backups/backup-' in changed[1] and 'Wrote backups/backup-' in changed[3]


def test_a_servers_results_are_its_pages_download_and_searched_by_name(
        cloud, heat, find_transport, demo_resources, cleanup, user):
    _operation, [run, _other] = _backup_operation(heat, find_transport, demo_resources,
                                                  cleanup, labels={'note': 'server-history'})
    server = demo_resources['db_server_1']

    done = openstack(cloud, 'software', 'server', 'results', server, '-f', 'csv')
    page = user.get(f'/project/servers/{server}/results.csv')
    searched = openstack(cloud, 'software', 'server', 'results', 'demo-db-1', '--grep',
                         'server-history', '-f', 'json')

    assert done.returncode == 0, done.stderr
    assert page.status_code == 200
    assert list(csv.reader(io.StringIO(done.stdout))) == list(
        csv.reader(io.StringIO(page.text)))
    assert [row['run_id'] for row in json_of(searched)] == [run.id]
