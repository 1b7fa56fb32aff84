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

"""Heat alone applying a burst of results: the floor under the operation page's signal to
screen at 200 (bench.fleet_scale).

A TEMP_URL_SIGNAL result is applied by Heat when the run is shown, one show at a time through
its API workers and its engine. Here nothing else shows the runs: they are made straight
through the runner on the fleet's servers (no Mistral follower), no page is open, and the
fleet's agents are stopped. Their results are PUT one after another, at the moments the fleet's
agents PUT theirs (``offsets``: seconds after the first PUT, as the burst on the page had them;
a PUT that falls behind them is made at once, as the agents' would), and each run is shown in
Heat from one of THREADS threads (the status poll's PARALLEL_SHOWS) as soon as its result is
PUT, until Heat shows it ended: the seconds from each PUT to that show, which applied the
result.
"""

import concurrent.futures
import functools
import threading
import time

import heat_deploy_runner as runner

from bench import agent_result
from bench import clients
from bench import measure

THREADS = 8
WAIT_SECONDS = 120
AGAIN_SECONDS = 0.1


def measure_heat_apply(session, swift, component_id, servers, action, result, offsets):
    find_transport = functools.partial(runner.transport_for, swift=swift)
    heat = clients.raw_heat(session)
    made = runner.start(heat, find_transport, runner.RunRequest(
        config_id=component_id, action=action, server_ids=servers, name='bench-heat-alone',
        transport='TEMP_URL_SIGNAL')).created
    own = threading.local()
    put_at, applied_at = {}, {}

    def applied(run):
        if not hasattr(own, 'heat'):
            own.heat = clients.raw_heat(session)
        give_up = time.monotonic() + WAIT_SECONDS
        # The result is in Swift before the first show, which applies it; a show that did
        # not is made again after a pause, as a poll would, not as fast as Heat answers.
        while own.heat.software_deployments.get(run.id).status == 'IN_PROGRESS':
            if time.monotonic() >= give_up:
                raise RuntimeError(f'Heat did not apply the result of {run.id} '
                                   f'in {WAIT_SECONDS} s')
            time.sleep(AGAIN_SECONDS)
        applied_at[run.id] = time.monotonic()

    try:
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            shows = []
            # As many moments as runs: a burst that PUT fewer has the rest at its last.
            offsets = (list(offsets) + [max(offsets, default=0.0)] * len(made))[:len(made)]
            started = time.monotonic()
            for run, offset in zip(made, offsets):
                time.sleep(max(0.0, started + offset - time.monotonic()))
                agent_result.send(run.config, result)
                put_at[run.id] = time.monotonic()
                shows.append(pool.submit(applied, run))
            for show in shows:
                show.result()
    finally:
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            list(pool.map(lambda run: runner.delete(heat, run.id, find_transport), made))
    seconds = [applied_at[run.id] - put_at[run.id] for run in made]
    return {'runs': len(made), 'threads': THREADS,
            'p95_seconds': round(measure.percentile(seconds, 0.95), 3),
            'median_seconds': round(measure.median(seconds), 3),
            'max_seconds': round(max(seconds), 3),
            'puts_seconds': round(max(put_at.values()) - min(put_at.values()), 2),
            'all_seconds': round(max(applied_at.values()) - min(put_at.values()), 2)}
