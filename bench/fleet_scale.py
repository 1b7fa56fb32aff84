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

"""Fleets (issue #40): Run Action on 1, 10, 100 and 200 servers, an operation of 200 running
runs polled and drawn, and how soon its outcome is recorded once the last run ended.

The 200 servers are fake ids, as seed's: no agent reads them. One bench thread plays their
agents (fleet_agents.FleetAgents), lighter than 200 real ones: where each stock agent reads its
server's metadata every second, it lists the project's runs once a cycle (the runs the bench
knows, without it), reads each new run's derived config once, and PUTs the result to the run's
TempURL as heat-config-notify does (the demo's four servers run the stock chain, and the other
figures measure them). The component is one of the bench's own: one custom action, PING, on
the 200 servers, which a CREATE run on each (NO_SIGNAL: complete at once) puts it on.

Each size is Run Action's form POSTed through the cloud's own Horizon (gunicorn), as a browser
posts it, for the first N servers: the seconds to its answer (a redirect to the operation's
page), then to every run made (over 20 servers the form hands the operation to Mistral, which
makes them: rolling.hands_over), and from the agents' last result to the outcome Mistral
records (its execution SUCCESS). At 200 the agents hold their results while, in the first
round, Mistral's follower alone looks at the 200 running runs for FOLLOWER_SECONDS (one wait
call's length: the Heat calls naming the runs or their configs in heat-api's access log, the
follower's only, as no page is open and the agents hold), then the operation's page is open
in headless Chromium for PAGE_SECONDS (every request it makes, from Horizon's access log: the
requests a page makes per poll interval); then the status poll
is POSTed with the 200 running ids as the operation's page sends them (VIEWS times; median)
and the page itself is drawn (a page of Horizon's page size); then they let FEW of them go,
then the others all at once, while the page's poll goes on: signal to screen is from a run's
result PUT to the first poll reply that shows it ended. The others' results arrive faster
than Heat applies them (180 PUT within 3 to 5 s; Heat applies about 25 a second on this
machine), so they queue in Heat whoever shows them: the burst's figure is the seconds from its
first PUT to the last run shown ended, against Heat applying the same burst (its results PUT
at the same moments as in the median round) with nothing else asking (bench.heat_apply's, from
its first PUT to the last applied). The sizes are taken in turn
ROUNDS times (1, 10, 100, 200, then again), and each figure is the median of its rounds: one
sample of a submit was found off by 30 times.

Every run made here is deleted at the end, so the figures after this one see none of them.
"""

import concurrent.futures
import re
import time
import uuid


from devcloud import credentials
import heat_deploy_runner as runner

from bench import browser as browser_mod
from bench import cloud as bench_cloud
from bench import fleet_agents
from bench import follow_cost
from bench import heat_apply
from bench import measure
from bench import rolling_cost

SIZES = (1, 10, 100, 200)
FLEET = [str(uuid.UUID(int=100000 + i, version=4)) for i in range(max(SIZES))]
ACTION = 'PING'
COMPONENT = {
    'name': 'bench-fleet-tool',
    'group': 'component',
    'config': {'configs': [{'actions': ['CREATE', ACTION], 'tool': 'script',
                            'config': '#!/bin/sh\necho pong\n'}]},
    'inputs': [], 'outputs': [], 'options': {},
}
STATUS_PATH = '/project/deployments/status/'
VIEWS = 8
# Of the 200 held, these many answer first, alone.
FEW = 20
# Each size is submitted this many times, in turn with the others: its figures are medians.
ROUNDS = 3
POLL_SECONDS = 1.5
WAIT_SECONDS = 300
DELETE_THREADS = 8
# The follower alone at 200 running runs (a wait call returns within 50 s), then the page.
FOLLOWER_SECONDS = 50
PAGE_SECONDS = 15
# A line of Horizon's access log (gunicorn's, with the request's seconds last) of a request
# headless Chromium made: (path, status, seconds).
_BROWSER_REQUEST = re.compile(
    r'"[A-Z]+ (\S+) HTTP/[^"]*" (\d{3}) \S+ "[^"]*" "[^"]*HeadlessChrome[^"]*" ([\d.]+)$')
# Horizon's own requests once a page has loaded, whatever the page: its header, filled in
# by AJAX. Not counted per interval: they are not made again while the page stays open.
ONCE_AT_LOAD = ('/header/',)
_OPERATION = re.compile(r'/project/deployments/operations/([^/]+)/$')


def operation_of(location):
    """The operation id of the page Run Action's answer leads to; None elsewhere."""
    found = _OPERATION.search(location or '')
    return found and found.group(1)


def run_action_form(servers):
    """What Run Action's form POSTs for PING on these servers, at its defaults."""
    return {'action': ACTION, 'servers': list(servers), 'transport': 'TEMP_URL_SIGNAL',
            'timeout': '60', 'max_failures': '0', 'retries': '0', 'retry_delay': '0'}


class _Fleet:
    def __init__(self, heat, swift, dashboard, mistral_api, browser, logs):
        self.heat = heat
        self.dashboard = dashboard
        self.browser = browser
        self.heat_log = logs / 'heat-api.log'
        self.horizon_log = logs / 'horizon.log'
        self.mistral = mistral_api
        self.find_transport = lambda name: runner.transport_for(name, swift=swift)
        self.failures = []
        self.component_id = heat.software_configs.create(**COMPONENT).id
        placed = runner.start(heat, self.find_transport, runner.RunRequest(
            config_id=self.component_id, action='CREATE', server_ids=tuple(FLEET),
            name=COMPONENT['name'], transport='NO_SIGNAL'),
            runner.Operation.new(credentials.DEMO_USER, self.component_id))
        self.made = [run.id for run in placed.created]
        if placed.failures:
            self.failures.append(f'placing the component: {placed.failures[:3]}')

    def submit(self, servers):
        """(seconds to the form's answer, the operation id)."""
        path = f'/project/components/{self.component_id}/run/'
        form = run_action_form(FLEET[:servers])
        seconds, answer = measure.timed_answer(
            lambda: self.dashboard.post(path, form, allow_redirects=False))
        operation = operation_of(answer.headers.get('Location'))
        if answer.status_code != 302 or operation is None:
            self.failures.append(f'{servers} servers: the form answered {answer.status_code} '
                                 f'{answer.headers.get("Location")}')
        return seconds, operation

    def runs_of(self, operation):
        return [row for row in self.heat.software_deployments.list()
                if getattr(runner.operation_of_run(row), 'id', None) == operation]

    def wait(self, what, check):
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            found = check()
            if found:
                return found
            time.sleep(0.25)
        self.failures.append(f'not in {WAIT_SECONDS} s: {what}')
        return None

    def all_made(self, operation, servers):
        def made():
            found = self.runs_of(operation)
            return found if len(found) >= servers else None
        runs = self.wait(f'{servers} runs of {operation}', made) or []
        self.made.extend(run.id for run in runs)
        return runs

    def outcome_seen(self, operation):
        """The moment Mistral's execution of the operation is seen ended."""
        def ended():
            found = self.mistral.executions.get(operation)
            return found if found.state in rolling_cost.FINISHED else None
        execution = self.wait(f'the outcome of {operation}', ended)
        if execution is not None and execution.state != 'SUCCESS':
            self.failures.append(f'{operation}: {execution.state} {execution.state_info}')
        return time.monotonic()

    def poll(self, running):
        """(seconds, the reply) of one status poll of these running ids, as the operation's
        page sends them: its drawn rows' ids, the rest as running elsewhere."""
        took, answer = measure.timed_answer(lambda: self.dashboard.post(
            STATUS_PATH, {'id': running[:20], 'elsewhere': running[20:], 'table': 'operation'}))
        if answer.status_code != 200:
            self.failures.append(f'status poll: {answer.status_code}')
            return took, {}
        return took, answer.json()

    def polls(self, ids):
        """The status poll's reply times for these running ids: one every POLL_SECONDS from
        start to start (status_poll.js)."""
        seconds = []
        for _view in range(VIEWS):
            took, _reply = self.poll(ids)
            seconds.append(took)
            time.sleep(max(0.0, POLL_SECONDS - took))
        return seconds

    def watched(self, ids, wanted=None):
        """{id: the moment the page's poll first said the run ended}, polling as the page
        does (it sends the ids of those still running only) until every one of ``wanted``
        (all of ``ids`` by default) was said ended."""
        seen = {}
        wanted = set(ids if wanted is None else wanted)
        deadline = time.monotonic() + WAIT_SECONDS
        while not wanted <= set(seen) and time.monotonic() < deadline:
            asked = [each for each in ids if each not in seen]
            took, reply = self.poll(asked)
            now = time.monotonic()
            if reply:
                # Its "running": those shown running and those it left as running (quiet).
                still = set(reply['running'])
                seen.update((each, now) for each in asked if each not in still)
            time.sleep(max(0.0, POLL_SECONDS - took))
        if not wanted <= set(seen):
            self.failures.append(f'{len(wanted - set(seen))} runs never shown ended')
        return seen

    def follower_alone(self, runs):
        """The Heat calls naming these running runs or their configs over FOLLOWER_SECONDS,
        no page open and the agents holding: the follower's."""
        offset = self.heat_log.stat().st_size
        time.sleep(FOLLOWER_SECONDS)
        time.sleep(follow_cost.LOG_SETTLE_SECONDS)
        calls = follow_cost.count_calls(
            follow_cost.lines_from(self.heat_log, offset),
            [run.id for run in runs] + [run.config_id for run in runs])
        minutes = FOLLOWER_SECONDS / 60
        return dict(calls, seconds=FOLLOWER_SECONDS, running=len(runs),
                    per_run_hour=round(calls['total'] / len(runs) / minutes * 60, 1))

    def page_requests(self, operation):
        """Every request the operation's page makes in the PAGE_SECONDS after it loaded, at
        Horizon's own page size (20 rows drawn, the others' running runs polled with them),
        by kind (the status poll, Horizon's once at load, the rest), and those made again
        per poll interval: Chromium's lines in Horizon's access log, which
        a reload of the page (rolling_refresh.js) does not forget as its Resource Timing
        does."""
        self.browser.page_size(browser_mod.HORIZON_PAGE_SIZE)
        try:
            self.browser.open(f'/project/deployments/operations/{operation}/')
            offset = self.horizon_log.stat().st_size
            time.sleep(PAGE_SECONDS)
            made = [found.groups() for found in map(
                _BROWSER_REQUEST.search, follow_cost.lines_from(self.horizon_log, offset))
                if found]
        finally:
            self.browser.page_size(browser_mod.PAGE_SIZE)
            self.browser.open('/project/')
        polls = [(float(seconds), code) for path, code, seconds in made if STATUS_PATH in path]
        at_load = [path for path, _code, _seconds in made if path in ONCE_AT_LOAD]
        return {'seconds': PAGE_SECONDS, 'requests': len(made), 'status_polls': len(polls),
                'once_at_load': at_load,
                'status_codes': sorted({int(code) for _seconds, code in polls}),
                'status_seconds': measure.rounded([seconds for seconds, _code in polls], 3),
                'others': sorted({path for path, _code, _seconds in made
                                  if STATUS_PATH not in path}),
                'per_interval': round((len(made) - len(at_load)) / (PAGE_SECONDS / POLL_SECONDS),
                                      2)}

    def delete_made(self):
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(DELETE_THREADS) as pool:
            left = [str(each) for found in pool.map(
                lambda run_id: runner.delete(self.heat, run_id, self.find_transport),
                self.made) for each in found]
        self.heat.software_configs.delete(self.component_id)
        return {'deleted': len(self.made), 'seconds': round(time.monotonic() - started, 1),
                'leftovers': left}


def _size(fleet, agents, servers, first_round):
    """One round of one size: its submit, the runs made, the poll and page while held (at the
    largest size; the follower alone and the page's requests in the first round), and the
    outcome's lag after the last result."""
    held = servers == max(SIZES)
    if held:
        agents.holding.set()
    submit_seconds, operation = fleet.submit(servers)
    started = time.monotonic()
    runs = fleet.all_made(operation, servers) if operation else []
    found = {'submit_seconds': submit_seconds,
             'all_made_seconds': time.monotonic() - started + submit_seconds,
             'made': len(runs), 'operation': operation}
    if held and runs:
        ids = [run.id for run in runs]
        if first_round:
            found['follower_alone'] = fleet.follower_alone(runs)
            found['page_requests'] = fleet.page_requests(operation)
        found['polls'] = fleet.polls(ids)
        page, answer = measure.timed_answer(lambda: fleet.dashboard.get(
            f'/project/deployments/operations/{operation}/'))
        found['page'] = {'status': answer.status_code, 'seconds': page,
                         'rows': len(re.findall(r'<tr[^>]*data-object-id=', answer.text))}
        # A few answer first, the page polling all 200: what the page's path costs a result
        # without the load of every other one; then the others, all at once.
        few = set(ids[:FEW])
        agents.answer([run for run in runs if run.id in few])
        agents.holding.clear()
        seen = fleet.watched(ids, wanted=few)
        agents.answer([run for run in runs if run.id not in few])
        seen.update(fleet.watched([each for each in ids if each not in few]))
        agents.answer(None)
        found['signal_to_screen_few'] = [seen[each] - agents.put_at[each] for each in few
                                         if each in seen and each in agents.put_at]
        found['signal_to_screen'] = [seen[each] - agents.put_at[each] for each in ids
                                     if each not in few and each in seen
                                     and each in agents.put_at]
        burst = [each for each in ids if each not in few]
        if all(each in seen and each in agents.put_at for each in burst):
            first_put = min(agents.put_at[each] for each in burst)
            found['burst_all_shown_seconds'] = max(seen[each] for each in burst) - first_put
            found['burst_put_offsets'] = sorted(agents.put_at[each] - first_put
                                                for each in burst)
    if runs:
        fleet.wait('every result sent', lambda: all(run.id in agents.put_at for run in runs))
        last_put = max((agents.put_at.get(run.id, 0) for run in runs), default=0)
        found['outcome_after_last_result_seconds'] = fleet.outcome_seen(operation) - last_put
    return found


def summary(servers, rounds):
    """A size's figures over its rounds: medians, with every round's samples."""
    def median_of(key):
        values = [each[key] for each in rounds if key in each]
        return round(measure.median(values), 3) if values else None
    found = {'servers': servers, 'rounds': len(rounds),
             'submit_seconds': median_of('submit_seconds'),
             'submit_samples': measure.rounded([each['submit_seconds'] for each in rounds], 3),
             'all_made_seconds': median_of('all_made_seconds'),
             'made': min(each['made'] for each in rounds),
             'operations': [each['operation'] for each in rounds]}
    drained = [each['burst_all_shown_seconds'] for each in rounds
               if 'burst_all_shown_seconds' in each]
    if drained:
        found['burst_all_shown_seconds'] = round(measure.median(drained), 3)
        found['burst_all_shown_samples'] = measure.rounded(drained, 3)
    lags = [each['outcome_after_last_result_seconds'] for each in rounds
            if 'outcome_after_last_result_seconds' in each]
    if lags:
        found['outcome_after_last_result_seconds'] = round(measure.median(lags), 3)
        found['outcome_samples'] = measure.rounded(lags, 3)
    for key in ('signal_to_screen', 'signal_to_screen_few'):
        shown = [seconds for each in rounds for seconds in each.get(key, ())]
        if shown:
            found[key] = {
                'runs': len(shown), 'median_seconds': round(measure.median(shown), 3),
                'p95_seconds': round(measure.percentile(shown, 0.95), 3),
                'max_seconds': round(max(shown), 3)}
    for key in ('follower_alone', 'page_requests'):
        measured = [each[key] for each in rounds if key in each]
        if measured:
            found[key] = measured[0]
    polls = [seconds for each in rounds for seconds in each.get('polls', ())]
    if polls:
        pages = [each['page'] for each in rounds if 'page' in each]
        found['poll'] = {'running': servers, 'seconds': measure.rounded(polls, 3),
                         'median_seconds': round(measure.median(polls), 3)}
        found['page'] = {'status': max(page['status'] for page in pages),
                         'seconds': round(measure.median([page['seconds'] for page in pages]), 3),
                         'rows': min(page['rows'] for page in pages)}
    return found


def _median_burst(rounds):
    """The moments the burst's results were PUT (seconds after its first) in the round whose
    page showed them all in the median time: Heat alone is given the same burst."""
    bursts = sorted((each['burst_all_shown_seconds'], each['burst_put_offsets'])
                    for each in rounds if 'burst_put_offsets' in each)
    return bursts[(len(bursts) - 1) // 2][1] if bursts else []


def measure_fleet(heat, swift, session, dashboard, browser, logs):
    fleet = _Fleet(heat, swift, dashboard, rolling_cost.mistral(session), browser, logs)
    result = {'sizes': {}, 'views': VIEWS * ROUNDS, 'rounds': ROUNDS,
              'agents': 'one bench thread plays the fleet\'s agents: a listing of the '
              'project\'s runs a cycle while Mistral makes them (the runs the bench knows, '
              'without it), each new run\'s config once, its result PUT to its TempURL'}
    rounds = {servers: [] for servers in SIZES}
    try:
        with fleet_agents.FleetAgents(heat, FLEET) as agents:
            for number in range(ROUNDS):
                for servers in SIZES:
                    bench_cloud.progress(f'fleets: Run Action on {servers} servers, round '
                                         f'{number + 1} of {ROUNDS}')
                    rounds[servers].append(_size(fleet, agents, servers, number == 0))
            result['agent_failures'] = agents.failures
        bench_cloud.progress(f'fleets: Heat alone applying {max(SIZES) - FEW} results at once')
        result['heat_alone'] = heat_apply.measure_heat_apply(
            session, swift, fleet.component_id, FLEET[FEW:], ACTION, fleet_agents.RESULT,
            _median_burst(rounds[max(SIZES)]))
    finally:
        result['sizes'] = {str(servers): summary(servers, found)
                           for servers, found in rounds.items() if found}
        bench_cloud.progress(f'fleets: deleting {len(fleet.made)} runs')
        result['deleting'] = fleet.delete_made()
        result['failures'] = fleet.failures
    return result
