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

"""results_export: an operation's results as rows, CSV and JSON."""

import csv
import io
import json

from heat_deploy_runner.configs import derived
from heat_deploy_runner import masking
from heat_deploy_runner import Operation
from heat_deploy_runner.outputs import results_export
from heat_deploy_runner import Run

CONFIG = {'inputs': [{'name': 'db_password', 'type': 'String', 'value': 'hunter22'}],
          'outputs': [{'name': 'table_count'}, {'name': 'api_token'}]}


def _run(run_id, server, stdout, status='COMPLETE', code=0, **outputs):
    operation = Operation('op-1', 'alice', '2026-11-29T01:00:00Z', source='mysql',
                          try_number=2, tries=3)
    return Run(run_id, server, f'config-{run_id}', action='BACKUP', status=status,
               creation_time='2026-11-29T01:00:00Z', updated_time='2026-11-29T01:01:05Z',
               input_values={derived.OPERATION_OPTION: operation.as_option()},
               output_values=dict(outputs, deploy_stdout=stdout, deploy_stderr='warn\n',
                                  deploy_status_code=code), config=CONFIG)


def _rows():
    return results_export.rows(
        [_run('r1', 's1', ''.join(f'line {n}\n' for n in range(1, 9)), table_count='2',
              api_token='t0ps3cret'),
         _run('r2', 's2', 'pw hunter22 used\n', status='FAILED', code=3,
              table_count='=HYPERLINK("http://evil")')],
        {'s1': 'db-1'})


def test_a_row_tells_the_run_its_outputs_and_the_end_of_its_streams():
    first, second = _rows()

    assert {key: first[key] for key in results_export.COLUMNS} == {
        'server': 'db-1', 'server_id': 's1', 'run_id': 'r1', 'status': 'COMPLETE',
        'exit_code': 0, 'duration_seconds': 65, 'try': '2 of 3',
        'started_at': '2026-11-29T01:00:00Z', 'updated_at': '2026-11-29T01:01:05Z'}
    assert first['stdout'] == '\n'.join(f'line {n}' for n in range(4, 9))
    assert first['stderr'] == 'warn'
    # A server without a known name is named by its id.
    assert second['server'] == 's2'


def test_secrets_are_masked_by_name_and_scrubbed_from_outputs():
    first, second = _rows()

    assert first['outputs']['api_token'] == masking.MASK
    assert second['stdout'] == f'pw {masking.MASK} used'
    assert 'hunter22' not in results_export.csv_text(_rows())
    assert 't0ps3cret' not in results_export.json_text(_rows())


def test_the_csv_parses_to_the_rows_with_a_column_per_declared_output():
    found = _rows()

    parsed = list(csv.DictReader(io.StringIO(results_export.csv_text(found))))

    assert list(parsed[0]) == [*results_export.COLUMNS, 'output: table_count',
                               'output: api_token', 'stdout', 'stderr']
    assert parsed[0]['output: table_count'] == '2' and parsed[0]['exit_code'] == '0'
    assert parsed[1]['stdout'] == found[1]['stdout']
    assert parsed[1]['output: api_token'] == ''


def test_a_csv_cell_a_spreadsheet_would_evaluate_is_made_text():
    parsed = list(csv.DictReader(io.StringIO(results_export.csv_text(_rows()))))

    assert parsed[1]['output: table_count'] == '\'=HYPERLINK("http://evil")'
    # The JSON keeps the value as the server sent it: it is data, not a sheet.
    assert json.loads(results_export.json_text(_rows()))[1]['output: table_count'] == \
        '=HYPERLINK("http://evil")'


def test_the_json_holds_the_csvs_columns_and_values():
    found = _rows()
    columns, values = results_export.flat(found)

    assert json.loads(results_export.json_text(found)) == [dict(zip(columns, each))
                                                           for each in values]


def test_rows_come_by_server_name_then_start_whatever_order_the_runs_came_in():
    later = _run('r3', 's1', 'again').changed(creation_time='2026-11-29T02:00:00Z')
    given = [_run('r2', 's2', 'x'), later, _run('r1', 's1', 'y')]

    found = results_export.rows(given, {'s1': 'zeta', 's2': 'alpha'})

    assert [each['run_id'] for each in found] == ['r2', 'r1', 'r3']
    assert [each['run_id'] for each in results_export.rows(list(reversed(given)),
                                                           {'s1': 'zeta', 's2': 'alpha'})] \
        == ['r2', 'r1', 'r3']
