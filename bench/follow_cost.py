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

"""Follow cost: what it costs to have Mistral follow an operation started at once (Run Action's
form, `openstack software component run`) to its end, and how soon after its last run ends
its outcome is recorded.

Every such operation is followed by an execution of the project's follow workflow
(followers.follow), made with the operation's id: its wait action looks at each
run every 1.5 s in Mistral's executor until none is running, then its conclude action
records the outcome (with ended_at) as the execution's output and posts the notices.

An operation of 2 servers and one of 20, started as the command line starts one
(runner.start with the operation marked FOLLOWED, then followers.follow): BACKUP of the
demo's mysql component, TEMP_URL_SIGNAL. The demo has four servers with agents, so the runs go
to seed's fake server ids, where no agent answers (as poll_cost's running rows do). The
bench ends each run itself RUN_SECONDS after the follower was made, by PUTting a result to
the run's TempURL as heat-config-notify does; Heat applies it on the follower's next look.
The bench makes no Heat call from the follower's start to its outcome, so every call that
heat-api logs in that time for the operation's runs and configs is the follower's.

Per operation:
- the Mistral executions made (the project's newest, before and after: expect one, of the
  operation's id), its tasks and their action executions (a wait call returns within 50 s,
  so runs this short take one call);
- the Heat API calls naming the operation's runs or configs, counted by kind from
  heat-api's access log (gunicorn's: one line a request, in the cloud's logs/heat-api.log)
  between the follower's start and its outcome; requests naming none of them are counted
  apart (none are expected);
- the seconds from the moment the bench has ended the last run to the execution seen
  SUCCESS (polled every 0.25 s), and to the outcome's ended_at (written in whole seconds, so
  it may read up to 1 s early).

The sizes take turns round by round, one warm-up round first (it makes the project's copy of
the workflow); each operation's runs are deleted afterwards, not timed.

Pacing (measure_pacing; issue #38's goals): an operation of PACED_SERVERS runs with an hour's
timeout, followed for PACED_MINUTES, its Heat calls in that time counted as above and given
per run-hour (calls / runs x 60 / PACED_MINUTES: the first minutes' quicker looks count as if
the whole hour were as young, so the figure errs high); and one run with a minute's timeout
that never reports: the seconds from its deadline to the timeout Heat recorded (its
updated_time, whole seconds).
"""

from datetime import datetime
from datetime import timezone
import functools
import json
import re
import time

from devcloud import credentials
import heat_deploy_runner as runner
from heat_deploy_runner.following import followers
from heat_deploy_runner.mistral import following
from heat_deploy_runner.running.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.signalling import deadlines
from heat_deploy_runner import times

from bench import agent_result
from bench import cloud as bench_cloud
from bench import measure
from bench import rolling_cost
from bench import seed

SIZES = (2, 20)
ROUNDS = 5
WARMUP = 1
ACTION = 'BACKUP'
TRANSPORT = 'TEMP_URL_SIGNAL'
# How long the runs stay running once the follower is made: a few of its looks, so the calls
# counted are those of a follower that waited, not only of one that concluded.
RUN_SECONDS = 6
# What heat-config-notify PUTs for a run that went well.
RESULT = {'deploy_stdout': 'backed up\n', 'deploy_stderr': '', 'deploy_status_code': 0}
POLL_SECONDS = 0.25
TIMEOUT_SECONDS = 180
# gunicorn writes a request's access line once its reply is sent: the follower may have its
# last reply a moment before its line is in the log.
LOG_SETTLE_SECONDS = 1
# An earlier figure's follower still running would share Mistral's executor and heat-api.
QUIET_SECONDS = 60
# The project's newest executions, compared before and after an operation: far more than
# one operation could make.
NEWEST = 100
# Pacing: runs with an hour's timeout followed this long, and a run timed out after a minute.
PACED_SERVERS = 2
PACED_MINUTES = 5
PACED_TIMEOUT_MINUTES = 60
LAG_TIMEOUT_MINUTES = 1
GOAL_HEAT_CALLS_PER_RUN_HOUR = 240
GOAL_DEADLINE_LAG_SECONDS = 15
# The notices' link to the operation's page, as the form gives it (followers.operation_link).
LINK_PATH = 'project/deployments/operations/{operation}/'

# gunicorn's access line: host, ident, user, [time], "request line", status, ...
_ACCESS = re.compile(r'^\S+ \S+ \S+ \[[^\]]*\] "([A-Z]+) (\S+) HTTP/[0-9.]+" (\d{3}) ')
_PROJECT = re.compile(r'^/v1/[^/]+/')
_ID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')
ENDED_AT = '%Y-%m-%dT%H:%M:%SZ'


def access_request(line):
    """(method, path) of a gunicorn access line; None for any other line (heat-api's own log
    lines, and gunicorn's, share the file)."""
    found = _ACCESS.match(line)
    return (found.group(1), found.group(2)) if found else None


def call_kind(method, path):
    """The call without its project, ids and query: 'GET software_deployments/{id}'."""
    return f'{method} {_ID.sub("{id}", _PROJECT.sub("", path.split("?", 1)[0]))}'


def count_calls(lines, ids):
    """{'total', 'by_kind': {kind: n}, 'others'} of heat-api's log lines: the requests whose
    path names one of ``ids`` (the operation's runs and configs), and how many named none."""
    ids = set(ids)
    by_kind, others = {}, 0
    for line in lines:
        request = access_request(line)
        if request is None:
            continue
        method, path = request
        if ids.isdisjoint(_ID.findall(path)):
            others += 1
            continue
        kind = call_kind(method, path)
        by_kind[kind] = by_kind.get(kind, 0) + 1
    return {'total': sum(by_kind.values()), 'by_kind': by_kind, 'others': others}


def lines_from(path, offset):
    """The log's lines written past ``offset`` bytes."""
    with open(path, 'rb') as log:
        log.seek(offset)
        return log.read().decode('utf-8', 'replace').splitlines()


def outcome_of(output):
    """The outcome a follower recorded: python-mistralclient gives an execution's output as
    JSON text."""
    found = json.loads(output) if isinstance(output, str) else output
    return (found or {}).get('outcome') or {}


def ended_at_lag(ended_at, last_end):
    """Seconds from ``last_end`` (since the epoch) to an outcome's ended_at."""
    moment = datetime.strptime(ended_at, ENDED_AT).replace(tzinfo=timezone.utc)
    return moment.timestamp() - last_end


def _distinct(values):
    return sorted(set(values))


def summary(servers, samples):
    """The figures of one size's operations (each as _Follower.one measured it)."""
    if not samples:
        return {'servers': servers, 'rounds': 0}
    seen = [each['seconds_to_success'] for each in samples]
    calls = [each['heat_calls']['total'] for each in samples]
    kinds = sorted({kind for each in samples for kind in each['heat_calls']['by_kind']})
    return {
        'servers': servers,
        'rounds': len(samples),
        'executions': _distinct(each['executions'] for each in samples),
        'workflows': _distinct(name for each in samples for name in each['workflows']),
        'tasks': _distinct(each['tasks'] for each in samples),
        'action_executions': _distinct(each['action_executions'] for each in samples),
        'heat_calls': calls,
        'heat_calls_median': measure.median(calls),
        'heat_calls_per_run_median': round(measure.median(calls) / servers, 2),
        'heat_calls_by_kind_median': {
            kind: measure.median([each['heat_calls']['by_kind'].get(kind, 0)
                                  for each in samples]) for kind in kinds},
        'other_heat_requests_max': max(each['heat_calls']['others'] for each in samples),
        'seconds_to_success': {'median': round(measure.median(seen), 3),
                               'max': round(max(seen), 3), 'values': measure.rounded(seen, 3)},
        'ended_at_lag_seconds': measure.rounded(
            [each['ended_at_lag_seconds'] for each in samples], 3),
    }


def _counts(values):
    return '/'.join(str(value) for value in values)


def table(found):
    """A few lines to read at a glance: one per size."""
    lines = [f'{"servers":>7} {"executions":>10} {"tasks":>5} {"actions":>7} '
             f'{"heat calls":>10} {"per run":>7} {"to SUCCESS median/max":>22}']
    for size in found['sizes'].values():
        if not size['rounds']:
            lines.append(f'{size["servers"]:>7} no operation ended as it should')
            continue
        seen = size['seconds_to_success']
        lines.append(f'{size["servers"]:>7} {_counts(size["executions"]):>10} '
                     f'{_counts(size["tasks"]):>5} {_counts(size["action_executions"]):>7} '
                     f'{size["heat_calls_median"]:>10g} {size["heat_calls_per_run_median"]:>7g} '
                     f'{seen["median"]:>11.3f} / {seen["max"]:.3f} s')
    return lines


class _Follower:
    """Operations started at once on fake servers, each followed by Mistral to its end."""

    def __init__(self, heat, swift, mistral_api, project_id, config_id, log_path, link):
        self.heat = heat
        self.mistral = mistral_api
        self.project_id = project_id
        self.config_id = config_id
        self.log_path = log_path
        self.link = link
        self.find_transport = functools.partial(runner.transport_for, swift=swift)
        self.failures = []
        self.left = []

    def one(self, servers):
        """The figures of one operation on the first ``servers`` fake servers; None when it
        did not end as it should (said in failures). Its runs are deleted afterwards."""
        self._quiet()
        before = {each.id for each in self._newest()}
        return self._with_runs(servers, DEFAULT_TIMEOUT_MINUTES,
                               lambda started: self._followed(started, before))

    def paced(self):
        """The Heat calls per run-hour of a follower of runs with an hour's timeout."""
        self._quiet()
        return self._with_runs(PACED_SERVERS, PACED_TIMEOUT_MINUTES, self._paced)

    def deadline_lag(self):
        """The seconds from a run's deadline to its timeout recorded in Heat."""
        self._quiet()
        return self._with_runs(1, LAG_TIMEOUT_MINUTES, self._timed_out)

    def _with_runs(self, servers, timeout_minutes, measure_them):
        started = runner.start(
            self.heat, self.find_transport, runner.RunRequest(
                config_id=self.config_id, action=ACTION, server_ids=seed.FAKE_SERVERS[:servers],
                input_values=rolling_cost.INPUTS, transport=TRANSPORT,
                timeout_minutes=timeout_minutes),
            runner.Operation.new(credentials.DEMO_USER, self.config_id,
                                 runner=runner.FOLLOWED))
        try:
            if started.failures or len(started.created) != servers:
                self.failures.append(f'{servers} servers: not started: {started.failures}')
                return None
            return measure_them(started)
        finally:
            for run in started.created:
                self.left.extend(runner.delete(self.heat, run.id, self.find_transport))

    def _paced(self, started):
        servers = len(started.created)
        offset = self.log_path.stat().st_size
        execution = followers.follow(self.mistral, self.project_id, started, {}, self.link)
        time.sleep(PACED_MINUTES * 60)
        calls = count_calls(lines_from(self.log_path, offset),
                            [run.id for run in started.created]
                            + [run.config_id for run in started.created] + [self.config_id])
        for run in started.created:
            agent_result.send(run.config, RESULT)
        if self._finished(execution.id).state != 'SUCCESS':
            self.failures.append(f'paced follower {execution.id} did not end SUCCESS')
        return {'servers': servers, 'minutes': PACED_MINUTES, 'heat_calls': calls,
                'per_run_hour': calls['total'] / servers * 60 / PACED_MINUTES}

    def _timed_out(self, started):
        [run] = started.created
        execution = followers.follow(self.mistral, self.project_id, started, {}, self.link)
        self._finished(execution.id)
        shown = self.heat.software_deployments.get(run.id)
        recorded = times.parse_time(shown.updated_time)
        if shown.status != 'FAILED' or recorded is None:
            self.failures.append(f'run {run.id} not timed out: {shown.status}')
            return None
        return {'lag_seconds': (recorded - deadlines.deadline(run.config)).total_seconds()}

    def _followed(self, started, before):
        servers = len(started.created)
        names = {run.server_id: f'fake-{index}' for index, run in enumerate(started.created)}
        # From here to the outcome the bench calls Mistral and Swift, never Heat.
        offset = self.log_path.stat().st_size
        execution = followers.follow(self.mistral, self.project_id, started, names, self.link)
        time.sleep(RUN_SECONDS)
        for run in started.created:
            agent_result.send(run.config, RESULT)
        ended, ended_wall = time.monotonic(), time.time()
        execution = self._finished(execution.id)
        seen = time.monotonic()
        time.sleep(LOG_SETTLE_SECONDS)
        ids = ([run.id for run in started.created] + [run.config_id for run in started.created]
               + [self.config_id])
        calls = count_calls(lines_from(self.log_path, offset), ids)

        made = [each for each in self._newest() if each.id not in before]
        tasks = self.mistral.tasks.list(workflow_execution_id=execution.id)
        action_executions = {task.name: len(self.mistral.action_executions.list(
            task_execution_id=task.id)) for task in tasks}
        found = outcome_of(execution.output)
        what = f'{servers} servers, execution {execution.id}'
        if execution.state != 'SUCCESS' or not found.get('ended_at'):
            self.failures.append(f'{what}: {execution.state} {execution.state_info}')
            return None
        if found.get('counts') != {'COMPLETE': servers}:
            self.failures.append(f'{what}: outcome counts {found.get("counts")}')
        if execution.id != started.operation.id:
            self.failures.append(f'{what}: not of the operation\'s id {started.operation.id}')
        return {
            'servers': servers,
            'executions': len(made),
            'workflows': [each.workflow_name for each in made],
            'tasks': len(tasks),
            'action_executions': sum(action_executions.values()),
            'action_executions_by_task': action_executions,
            'heat_calls': calls,
            'seconds_to_success': seen - ended,
            'ended_at_lag_seconds': ended_at_lag(found['ended_at'], ended_wall),
        }

    def _finished(self, execution_id):
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while True:
            execution = self.mistral.executions.get(execution_id)
            if execution.state in rolling_cost.FINISHED or time.monotonic() > deadline:
                return execution
            time.sleep(POLL_SECONDS)

    def _newest(self):
        return self.mistral.executions.list(limit=NEWEST, sort_keys='created_at',
                                            sort_dirs='desc')

    def _quiet(self):
        """Once no other execution of the project runs (an earlier figure's follower)."""
        deadline = time.monotonic() + QUIET_SECONDS
        while self.mistral.executions.list(state='RUNNING', limit=NEWEST):
            if time.monotonic() > deadline:
                self.failures.append('other executions still running after '
                                     f'{QUIET_SECONDS} s')
                return
            time.sleep(1)


def measure_follow(heat, swift, session, layout, config_id):
    follower = _Follower(heat, swift, rolling_cost.mistral(session), session.get_project_id(),
                         config_id, layout.path('logs', 'heat-api.log'),
                         layout.dashboard_url + LINK_PATH)
    samples = {servers: [] for servers in SIZES}
    for round_number in range(WARMUP + ROUNDS):
        for servers in SIZES:
            found = follower.one(servers)
            if found is not None and round_number >= WARMUP:
                samples[servers].append(found)
    result = {
        'sizes': {str(servers): summary(servers, found) for servers, found in samples.items()},
        'samples': {str(servers): found for servers, found in samples.items()},
        'run_seconds': RUN_SECONDS,
        'follower_poll_seconds': following.POLL_SECONDS,
        'failures': follower.failures,
        'cleanup_leftovers': [str(message) for message in follower.left],
    }
    for line in table(result):
        bench_cloud.progress(line)
    return result


def measure_pacing(heat, swift, session, layout, config_id):
    follower = _Follower(heat, swift, rolling_cost.mistral(session), session.get_project_id(),
                         config_id, layout.path('logs', 'heat-api.log'),
                         layout.dashboard_url + LINK_PATH)
    result = {'paced': follower.paced(), 'deadline': follower.deadline_lag(),
              'max_poll_seconds': following.MAX_POLL_SECONDS,
              'goal_heat_calls_per_run_hour': GOAL_HEAT_CALLS_PER_RUN_HOUR,
              'goal_deadline_lag_seconds': GOAL_DEADLINE_LAG_SECONDS,
              'failures': follower.failures,
              'cleanup_leftovers': [str(message) for message in follower.left]}
    if result['paced']:
        bench_cloud.progress(f'paced follower: {result["paced"]["per_run_hour"]:.0f} Heat calls '
                             f'per run-hour ({result["paced"]["heat_calls"]["by_kind"]})')
    if result['deadline']:
        bench_cloud.progress(f'deadline to recorded timeout: '
                             f'{result["deadline"]["lag_seconds"]:.0f} s')
    return result
