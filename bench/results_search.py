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

"""Results search (issue #41): an operation's results page searched, over RUNS runs of OUTPUT_KB
KB of stdout each: one view's time (goal under 2 s on this machine) and its backend calls
(goal: each output read once per view, from the listing that holds it), in Heat and then
archived.

The runs are made as Run Action makes them (runner.start, one operation, NO_SIGNAL) on fake
servers (bench.fleet_scale's), then each is given its result through Heat's API as a
server's signal would (a deployment update with its outputs). Each view is rendered in the
bench's Horizon process (bench.horizon_side), which counts its requests by service; its time
is the median of VIEWS views after one. Then every run is archived (runner.pruning.archive, as
retention archives it) and deleted from Heat, and the same page is viewed again: an archived
run is one record read from Object Storage.
"""

import concurrent.futures
import threading
from urllib import parse

from devcloud import credentials
import heat_deploy_runner as runner
from heat_deploy_runner.pruning import archive

from bench import fleet_scale
from bench import measure

RUNS = 200
OUTPUT_KB = 100
VIEWS = 5
THREADS = 6
NEEDLE = 'disk full on /var/lib/mysql'
GOAL_SECONDS = 2


def _stdout(number):
    """About OUTPUT_KB KB of lines, one of them the needle on every tenth run."""
    lines = [f'{number:04d} progress {line}: copied block {line} of the table data'
             for line in range(OUTPUT_KB * 1024 // 56)]
    if number % 10 == 0:
        lines[len(lines) // 2] = f'ERROR: {NEEDLE}'
    return '\n'.join(lines) + '\n'


def _views(horizon, path):
    first = horizon.view(path)
    views = [horizon.view(path) for _each in range(VIEWS)]
    return {'status': sorted({each['status'] for each in [first] + views}),
            'first_seconds': round(first['seconds'], 3), 'first_calls': first['calls'],
            'median_seconds': measure.median([each['seconds'] for each in views]),
            'samples': measure.rounded([each['seconds'] for each in views]),
            'calls': views[-1]['calls']}


def measure_search(horizon, new_heat, swift, find_transport, config_id):
    heat = new_heat()
    # One client per thread, as bench.seed's: heatclient keeps per-client state between calls.
    local = threading.local()
    operation = runner.Operation.new(credentials.DEMO_USER, config_id)
    started = runner.start(heat, find_transport, runner.RunRequest(
        config_id=config_id, action='BACKUP', name='bench-search',
        server_ids=tuple(fleet_scale.FLEET[:RUNS]), transport='NO_SIGNAL'), operation)
    runs = started.created

    def answer(numbered):
        number, run = numbered
        if not hasattr(local, 'heat'):
            local.heat = new_heat()
        local.heat.software_deployments.update(
            run.id, status='COMPLETE', status_reason='Outputs received',
            output_values={'deploy_stdout': _stdout(number), 'deploy_stderr': '',
                           'deploy_status_code': 0})
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(answer, enumerate(runs)))
    path = (f'/project/deployments/operations/{operation.id}/results/?'
            + parse.urlencode({'q': NEEDLE}))
    found = {'runs': len(runs), 'output_kb': OUTPUT_KB, 'in_heat': _views(horizon, path)}

    for run in runs:
        archive.put(swift, runner.Run.from_heat(heat.software_deployments.get(run.id))
                    .described(run.config))
        runner.delete(heat, run.id, find_transport)
    found['archived'] = _views(horizon, path)
    for run in runs:
        archive.delete(swift, run.id)
    found['goal_seconds'] = GOAL_SECONDS
    return found


def report_rows(results):
    """bench/RESULTS.md's rows of the figure (report.markdown)."""
    found = results.get('results_search')
    if not found:
        return []
    rows = []
    for key, where in (('in_heat', 'in Heat'), ('archived', 'archived')):
        view = found[key]
        calls = ', '.join(f'{service} {count}' for service, count in sorted(
            view['calls'].items()))
        rows.append((f'an operation\'s results searched, {found["runs"]} runs of '
                     f'{found["output_kb"]} KB of stdout, {where} (a view after one)',
                     f'{view["median_seconds"]:.3f} s (first {view["first_seconds"]:.3f} s); '
                     f'backend calls {calls} (first {view["first_calls"]})', '-', '-',
                     f'under {found["goal_seconds"]} s',
                     'yes' if view['median_seconds'] < found['goal_seconds'] else '**no**'))
    return rows
