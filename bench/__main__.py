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

"""make bench: every figure of issues #6, #13 and #17 on a fresh local cloud, written to
bench/RESULTS.md and bench/results.json. It reports; it never asserts a goal.

`python -m bench NAME` runs only the figure NAME (one of ALONE) on a fresh cloud and prints its
results, leaving bench/RESULTS.md and bench/results.json as the whole bench wrote them. The
idle cloud's memory is measured on every start, so `python -m bench cloud_memory` is just that.
"""

import functools
import json
import os
import pathlib
import sys
import time

from devcloud import layout as layout_mod
from devcloud.services import infra
import heat_deploy_runner as runner
from tests.integration import dashboard as dashboard_mod

from bench import archive_cost
from bench import browser as browser_mod
from bench import cache_ratio
from bench import cli_run_cost
from bench import clients
from bench import cloud as bench_cloud
from bench import cloud_memory
from bench import concurrent_polls
from bench import fleet as fleet_mod
from bench import fleet_scale
from bench import follow_cost
from bench import horizon_views
from bench import list_cost
from bench import machine
from bench import memory
from bench import poll_cost
from bench import report
from bench import results_search
from bench import retention_cost
from bench import rolling_cost
from bench import scales
from bench import schedule_calls
from bench import seed
from bench import signal_to_screen
from bench import trigger_cost

HERE = pathlib.Path(__file__).resolve().parent
# Rounds of (page, baseline, floor): Heat's list of 10,000 runs varies by a quarter from one
# call to the next (1.8 to 2.6 s on 2 cores), so the median needs several.
LIST_ROUNDS = {1000: 9, 10000: 7}


class Bench:
    """The cloud, the demo user's clients and what has been measured so far."""

    def __init__(self, the_cloud, results):
        self.cloud = the_cloud
        self.layout = the_cloud.layout
        self.results = results
        session = clients.user_session(self.layout)
        self.session = session
        self.heat = clients.raw_heat(session)
        self.swift = clients.swift(session)
        self.demo = {r.resource_name: r.physical_resource_id
                     for r in self.heat.resources.list('demo')}
        self.dashboard = dashboard_mod.Dashboard(self.layout.dashboard_url)
        self.dashboard.login()
        self.horizon = horizon_views.HorizonProcess(self.layout)
        self.fleet = fleet_mod.Fleet(self.heat)
        self.seeder = seed.Seeder(lambda: clients.raw_heat(session), self.demo['mysql'],
                                  'BACKUP')
        self.ids = {'component': self.demo['mysql'], 'config': self.demo['mysql'],
                    'server': seed.FAKE_SERVERS[0], 'stack': self.heat.stacks.get('demo').id,
                    # Its form reads the stack's wiring for the input mysql feeds.
                    'wired_component': self.demo['wordpress']}
        results['backend_calls'] = {}
        results['list_cost'] = {}

    def newest_deployment(self):
        listed = self.heat.software_deployments.list()
        self.ids['deployment'] = listed[0].id
        # The newest operation: seeded runs belong to operations, as the dashboard's do; the
        # demo stack's runs to none.
        self.ids['operation'] = next(
            operation.id for operation in map(runner.operation_of_run, listed) if operation)

    def calls_at(self, scale, **known):
        bench_cloud.progress(f'backend calls per page at {scale} deployments')
        self.newest_deployment()
        pages = scales.backend_calls(self.horizon, self.ids, skip=known)
        self.results['backend_calls'][str(scale)] = {
            'deployments': scales.deployment_count(self.heat), 'pages': dict(pages, **known)}

    def list_cost_at(self, scale):
        bench_cloud.progress(f'list page cost at {scale} deployments')
        found = list_cost.measure_list(self.horizon, self.heat, self.dashboard,
                                       LIST_ROUNDS[scale])
        self.results['list_cost'][str(scale)] = found
        return {'status': [found['first_view']['status'], found['page_statuses'][-1]],
                'first': found['first_view']['calls'], 'again': found['page_calls']}

    def status_calls(self, ids):
        path = poll_cost.STATUS_URL + '?' + '&'.join(f'id={each}' for each in ids)
        return self.horizon.view(path)['calls']

    def signal_to_screen(self, browser=None):
        own = browser is None
        browser = browser or browser_mod.Browser(self.layout)
        try:
            bench_cloud.progress('signal-to-screen: runs of 5, 60 and 300 s on 12 servers')
            self.results['signal_to_screen'] = signal_to_screen.measure_runs(
                self.heat, self.swift, self.fleet, self.cloud, browser)
        finally:
            if own:
                browser.quit()

    def browser_figures(self):
        browser = browser_mod.Browser(self.layout)
        try:
            self.signal_to_screen(browser)
            bench_cloud.progress('poll cost: 1, 20 and 100 running rows')
            self.results['poll_cost'] = poll_cost.measure_polls(
                self.heat, self.swift, self.fleet.wait_config_id, browser, self.status_calls)
        finally:
            browser.quit()

    def horizon_master(self):
        """The pid of the cloud's Horizon gunicorn master, whose children are its workers."""
        return next(proc.pid for name, proc in self.cloud.sup.processes if name == 'horizon')

    def memory(self):
        bench_cloud.progress('memory: Horizon workers over 1,000 page views')
        self.newest_deployment()
        self.results['memory'] = memory.measure_memory(
            self.dashboard, self.horizon_master(), list(scales.panel_pages(self.ids).values()))

    def concurrent_polls(self):
        bench_cloud.progress('concurrent polls: 20 pages polling 20 running rows for 60 s')
        self.results['concurrent_polls'] = concurrent_polls.measure_concurrent(
            self.layout, self.heat, self.swift, self.fleet.wait_config_id, self.horizon_master())

    def cloud_memory(self):
        """Nothing more: run() measures the idle cloud's memory on every start."""

    def rolling_cost(self):
        bench_cloud.progress('rolling cost: a Mistral-run operation vs the same runs from the '
                             'form')
        self.results['rolling_cost'] = rolling_cost.measure_rolling(
            self.heat, self.swift, self.session, self.demo['mysql'],
            [self.demo['db_server_1'], self.demo['db_server_2']])

    def cli_run_cost(self):
        bench_cloud.progress('command line: component run --wait against the form')
        self.results['cli_run_cost'] = cli_run_cost.measure_cli_run(
            self.layout, layout_mod.venv_bin('openstack'), self.heat, self.swift,
            self.demo['mysql'], [self.demo['db_server_1'], self.demo['db_server_2']])

    def follow_cost(self):
        bench_cloud.progress('follow cost: Mistral following an operation started at once, '
                             'on 2 and on 20 servers')
        self.results['follow_cost'] = follow_cost.measure_follow(
            self.heat, self.swift, self.session, self.layout, self.demo['mysql'])

    def follower_pacing(self):
        bench_cloud.progress(f'follower pacing: Heat calls per run-hour, '
                             f'{follow_cost.PACED_MINUTES} minutes of runs with an hour\'s '
                             'timeout, and a deadline\'s lag')
        self.results['follower_pacing'] = follow_cost.measure_pacing(
            self.heat, self.swift, self.session, self.layout, self.demo['mysql'])

    def fleets(self):
        browser = browser_mod.Browser(self.layout)
        try:
            self.results['fleets'] = fleet_scale.measure_fleet(
                self.heat, self.swift, self.session, self.dashboard, browser,
                self.layout.path('logs'))
        finally:
            browser.quit()

    def results_search(self):
        bench_cloud.progress(f'results search: an operation of {results_search.RUNS} runs of '
                             f'{results_search.OUTPUT_KB} KB, in Heat and archived')
        self.results['results_search'] = results_search.measure_search(
            self.horizon, lambda: clients.raw_heat(self.session), self.swift,
            functools.partial(runner.transport_for, swift=self.swift), self.demo['mysql'])

    def schedule_calls(self):
        self.results['schedule_calls'] = schedule_calls.measure_schedules(
            self.horizon, self.dashboard, self.heat, self.session, self.demo['mysql'], 'mysql',
            [self.demo['db_server_1'], self.demo['db_server_2']])

    def archive_cost(self):
        bench_cloud.progress('archive cost: a server\'s Archived tab and the Archived Runs '
                             'list at 100, 10,000 and 100,000 archived runs')
        self.results['archive_cost'] = archive_cost.measure_archive(
            self.horizon, lambda: clients.swift(self.session), self.layout,
            self.session.get_project_id())

    def retention_cost(self):
        scales.grow_to(10000, self.heat, self.seeder)
        bench_cloud.progress('retention: the Deployments page of 10,000 runs made over time, '
                             'pruned at the default bound')
        self.results['retention_cost'] = retention_cost.measure_retention(
            self.horizon, lambda: clients.raw_heat(self.session),
            lambda: clients.swift(self.session), self.session.get_project_id(),
            infra.database_url(self.layout, 'heat'))

    def run(self):
        scales.warm_up(self.horizon, self.ids)
        scales.grow_to(10, self.heat, self.seeder)
        self.calls_at(10)
        bench_cloud.progress('trigger cost: form, its API calls, the openstack CLI')
        self.results['trigger_cost'] = trigger_cost.measure_trigger(
            self.layout, self.dashboard, self.heat, layout_mod.venv_bin('openstack'),
            self.demo['mysql'], self.demo['db_server_1'])
        self.rolling_cost()
        self.cli_run_cost()
        self.follow_cost()
        self.follower_pacing()
        self.fleets()
        self.results_search()
        # After rolling_cost, so the page's executions list holds operations of the
        # project's, as it would; its schedules are deleted before the figures after it.
        self.schedule_calls()
        # While the deployments page is still short: 1,000 views of every panel's pages.
        self.memory()
        self.browser_figures()
        # Still a short deployments page: the one more user's view under the load is the page's
        # cost under polls, not the cost of a long list.
        self.concurrent_polls()

        bench_cloud.progress('seeding to 1,000 deployments')
        scales.grow_to(1000, self.heat, self.seeder)
        bench_cloud.progress('config cache hit ratio')
        self.results['config_cache'] = cache_ratio.measure_cache(self.horizon)
        self.calls_at(1000)
        self.list_cost_at(1000)

        bench_cloud.progress('seeding to 10,000 deployments')
        scales.grow_to(10000, self.heat, self.seeder)
        # The list cost's views are the deployments page's calls: viewing it twice more
        # would take minutes.
        self.calls_at(10000, deployments=self.list_cost_at(10000))
        bench_cloud.progress('the Components page at 10,000 deployments')
        self.results['components_cost'] = dict(
            list_cost.measure_components(self.horizon, self.heat, LIST_ROUNDS[10000]),
            deployments=scales.deployment_count(self.heat))
        self.results['seeding'] = {
            'deployments': self.seeder.made, 'failed': self.seeder.failed,
            'seconds': round(self.seeder.seconds, 1), 'per_second': self.seeder.throughput(),
            'threads': seed.THREADS, 'servers': seed.SERVERS}
        # On an archive of its own making, before retention fills it.
        self.archive_cost()
        # Last: it deletes most of the 10,000 runs.
        self.retention_cost()

    def backend_calls(self):
        """Backend calls per page alone, at each scale (the whole bench also measures them)."""
        scales.warm_up(self.horizon, self.ids)
        for scale in (10, 1000, 10000):
            bench_cloud.progress(f'seeding to {scale:,} deployments')
            scales.grow_to(scale, self.heat, self.seeder)
            self.calls_at(scale)

    def close(self):
        self.horizon.close()


# The figures that can run alone, for working on one without waiting for the whole bench.
ALONE = {'concurrent_polls': Bench.concurrent_polls, 'backend_calls': Bench.backend_calls,
         'rolling_cost': Bench.rolling_cost, 'cli_run_cost': Bench.cli_run_cost,
         'follow_cost': Bench.follow_cost, 'follower_pacing': Bench.follower_pacing,
         'schedule_calls': Bench.schedule_calls, 'archive_cost': Bench.archive_cost,
         'fleets': Bench.fleets, 'results_search': Bench.results_search,
         'retention_cost': Bench.retention_cost,
         'cloud_memory': Bench.cloud_memory, 'signal_to_screen': Bench.signal_to_screen}


def run(results, figure):
    with bench_cloud.fresh_cloud() as the_cloud:
        results['cloud_start_seconds'] = round(the_cloud.startup_seconds, 1)
        # Idle: before the bench logs in, makes its servers' stack or seeds anything.
        bench_cloud.progress('memory of the whole cloud, idle after start')
        results['cloud_memory'] = cloud_memory.measure_cloud_memory(the_cloud.sup.processes)
        bench = Bench(the_cloud, results)
        try:
            figure(bench)
        finally:
            bench.close()


def main(args):
    if len(args) > 1 or (args and args[0] not in ALONE):
        sys.exit(f'usage: python -m bench [{"|".join(ALONE)}]')
    figure = ALONE[args[0]] if args else Bench.run
    started = time.monotonic()
    results = {'machine': machine.describe()}
    try:
        run(results, figure)
    except BaseException as error:
        # What was measured before the error is still worth reading; the error says why the
        # rest is missing.
        results['error'] = f'{type(error).__name__}: {error}'
        raise
    finally:
        results['wall_seconds'] = round(time.monotonic() - started, 1)
        results['machine']['load_average_at_end'] = os.getloadavg()
        raw, table = json.dumps(results, indent=1, sort_keys=True) + '\n', report.markdown(results)
        if args:
            print(raw + '\n' + table)
        else:
            (HERE / 'results.json').write_text(raw)
            (HERE / 'RESULTS.md').write_text(table)
        bench_cloud.progress(f'done in {results["wall_seconds"] / 60:.1f} min'
                             + ('' if args else f': {HERE / "RESULTS.md"}'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
