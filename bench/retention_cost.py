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

"""The Deployments page after retention (issue #29): a project that has made 10,000 runs over
time, with retention at its default bound, against Heat's listing of the 10,000 runs, measured
in the same run (goal: at most 0.2 x).

The seeded runs were made within minutes; "over time" is how retention is asked to read them:
oldest first, they are spread evenly over DAYS days up to now (the start times
retention.past reads are rewritten in memory; Heat keeps its own). The runs past the default
bound are pruned: the first SAMPLE archived and deleted as the retention workflow does
(retention.prune_runs, in THREADS threads: the pruning's own figure), the others removed from
Heat's database in one statement, as a whole bench has no room for the quarter of an hour
retention's three Heat calls a run take at 8,000 runs (the page after it reads Heat's rows,
which are the same either way). Heat's listing is timed before the pruning (the baseline), the
Deployments page after it, each the median of VIEWS.
"""

import concurrent.futures
import dataclasses
import datetime
import functools
import time

import sqlalchemy

import heat_deploy_runner as runner
from heat_deploy_runner.components import listing
from heat_deploy_runner.pruning import retention

from bench import measure

PAGE = '/project/deployments/'
# 100 runs a day: a nightly BACKUP on 100 servers, or an hourly CHECK on four.
DAYS = 100
VIEWS = 5
# As bench.seed: Heat's API has two workers in front of one engine.
THREADS = 6
CHUNK = 100
SAMPLE = 1200


def _spread(found, now):
    ours = sorted((run for run in found if run.operation),
                  key=lambda run: (run.creation_time or '', run.id))
    step = datetime.timedelta(days=DAYS) / max(len(ours), 1)
    return [run.changed(creation_time=(now - step * (len(ours) - 1 - index)).strftime(
        '%Y-%m-%dT%H:%M:%SZ')) for index, run in enumerate(ours)]


def _listing_seconds(heat):
    times = []
    for _each in range(VIEWS):
        started = time.perf_counter()
        heat.software_deployments.list()
        times.append(time.perf_counter() - started)
    return times


def _remove_rows(heat_database, runs):
    """Heat's rows of these runs and of their derived configs, gone in one transaction."""
    engine = sqlalchemy.create_engine(heat_database)
    try:
        with engine.begin() as connection:
            connection.execute(sqlalchemy.text(
                'DELETE FROM software_deployment WHERE id IN :ids').bindparams(
                    sqlalchemy.bindparam('ids', expanding=True)), {'ids': [r.id for r in runs]})
            connection.execute(sqlalchemy.text(
                'DELETE FROM software_config WHERE id IN :ids').bindparams(
                    sqlalchemy.bindparam('ids', expanding=True)),
                {'ids': [r.config_id for r in runs]})
    finally:
        engine.dispose()
    return len(runs)


def measure_retention(horizon, new_heat, new_swift, project_id, heat_database):
    heat = new_heat()
    made = len(heat.software_deployments.list())
    baseline = _listing_seconds(heat)
    now = datetime.datetime.now(datetime.timezone.utc)
    found = retention.past(_spread(listing.runs(heat, project_id), now), retention.Policy(),
                           now)

    def prune(chunk):
        swift = new_swift()
        return len(retention.prune_runs(
            new_heat(), swift, functools.partial(runner.transport_for, swift=swift), chunk,
            now).runs)

    sample, rest = found[:SAMPLE], found[SAMPLE:]
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        pruned = sum(pool.map(prune, [sample[start:start + CHUNK]
                                      for start in range(0, len(sample), CHUNK)]))
    pruning = time.perf_counter() - started
    removed = _remove_rows(heat_database, rest) if rest else 0
    heat = new_heat()
    kept = len(heat.software_deployments.list())
    horizon.view(PAGE)
    views = [horizon.view(PAGE) for _each in range(VIEWS)]
    page = measure.median([each['seconds'] for each in views])
    listing_median = measure.median(baseline)
    return {
        'deployments_made': made, 'pruned': pruned, 'removed_in_database': removed,
        'kept': kept, 'days': DAYS,
        'policy': dataclasses.asdict(retention.Policy()),
        'pruning_seconds': round(pruning, 1),
        'pruning_per_run_seconds': round(pruning * THREADS / pruned, 3) if pruned else None,
        'listing_median': listing_median, 'listing_samples': measure.rounded(baseline),
        'page_median': page, 'page_samples': measure.rounded([each['seconds']
                                                             for each in views]),
        'page_status': sorted({each['status'] for each in views}),
        'page_calls': views[-1]['calls'],
        'ratio': round(page / listing_median, 3),
    }
