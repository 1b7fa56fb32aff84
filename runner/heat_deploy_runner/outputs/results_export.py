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

"""An operation's results as data: a row per run (server, status, exit code, duration, try,
declared outputs, the last lines of stdout and stderr), as CSV or JSON, the same from the
page and from the command line.

Outputs are what the run page shows: secrets the derived config knows scrubbed, and a
declared output whose name says it is a secret masked whole (masking). CSV cells that a
spreadsheet would take for a formula (=, +, -, @ and control characters first) get a
leading apostrophe, as OWASP advises: an output is text the server chose.
"""

import csv
import io
import json

from heat_deploy_runner import masking
from heat_deploy_runner.outputs.output_search import output_texts
from heat_deploy_runner.running import runs as runs_mod

# The last lines of stdout and stderr a row carries.
TAIL_LINES = 5
COLUMNS = ('server', 'server_id', 'run_id', 'status', 'exit_code', 'duration_seconds',
           'try', 'started_at', 'updated_at')
_STREAMS = ('deploy_stdout', 'deploy_stderr')
_FORMULA_FIRST = ('=', '+', '-', '@', '\t', '\r')


def _tail(text):
    return '\n'.join(text.rstrip('\n').split('\n')[-TAIL_LINES:]) if text else ''


def row(run, server_name=None) -> dict:
    """One run's row: COLUMNS, 'outputs' {declared output: text}, 'stdout' and 'stderr'
    (their last TAIL_LINES lines)."""
    texts = dict(output_texts(run))
    duration = runs_mod.duration(run)
    operation = run.operation
    return {
        'server': server_name or run.server_id,
        'server_id': run.server_id,
        'run_id': run.id,
        'status': run.status,
        'exit_code': runs_mod.exit_code(run),
        'duration_seconds': int(duration.total_seconds()) if duration is not None else None,
        'try': (f'{operation.try_number} of {operation.tries}'
                if operation and operation.tries else None),
        'started_at': run.creation_time,
        'updated_at': run.updated_time,
        'outputs': {name: masking.mask_value(name, text) for name, text in texts.items()
                    if name not in _STREAMS},
        'stdout': _tail(texts.get('deploy_stdout', '')),
        'stderr': _tail(texts.get('deploy_stderr', '')),
    }


def rows(runs, server_names=None) -> list:
    """The runs' rows by server (its name, else its id), then when each started: the same
    order wherever the runs came from; ``server_names`` {server id: name}."""
    names = server_names or {}
    return [row(run, names.get(run.server_id)) for run in sorted(runs, key=lambda run: (
        names.get(run.server_id) or run.server_id, run.creation_time or '', run.id))]


def output_names(found) -> list:
    """Every declared output any of the rows has, in the order first met."""
    names = {}
    for each in found:
        names.update(dict.fromkeys(each['outputs']))
    return list(names)


def flat(found) -> tuple:
    """(column names, [values]) of the rows on one level: a column per declared output
    ('output: NAME'), then stdout and stderr."""
    outputs = output_names(found)
    columns = [*COLUMNS, *(f'output: {name}' for name in outputs), 'stdout', 'stderr']
    values = [[each[column] for column in COLUMNS]
              + [each['outputs'].get(name) for name in outputs]
              + [each['stdout'], each['stderr']] for each in found]
    return columns, values


def safe_cell(value):
    """A CSV cell no spreadsheet evaluates."""
    if isinstance(value, str) and value.startswith(_FORMULA_FIRST):
        return "'" + value
    return value


def csv_text(found) -> str:
    columns, values = flat(found)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator='\n')
    writer.writerow(columns)
    writer.writerows([safe_cell(value) for value in each] for each in values)
    return out.getvalue()


def json_text(found) -> str:
    """The rows as a JSON list of objects, one level, keyed as the CSV's columns: what
    `openstack software operation results -f json` prints."""
    columns, values = flat(found)
    return json.dumps([dict(zip(columns, each)) for each in values], indent=2,
                      ensure_ascii=False) + '\n'
