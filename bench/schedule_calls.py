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

"""Schedule calls: what the Schedules page asks of the services at 10 and at 1,000 schedules
(issue #17), and what making that many schedules costs.

The page reads the project's schedules in three Mistral calls below 1,000 of them
(schedules.listed: the environments holding their records, the cron triggers, the latest
rolling executions), and the server names it shows, which Heat gives at most once a minute
(server_names). Every HTTP request of a view is counted by service through the bench's own
Horizon process (bench.horizon_views): the first view after the schedules were made, then
VIEWS - 1 more, whose median is the page's time. After each view the same three Mistral calls
are made on a bare client and timed, the floor under the page's time.

Mistral answers a list with at most its [api] max_limit rows (1,000), so the dashboard reads
the records and triggers page by page: the rows the cloud's own Horizon shows over HTTP are
counted at each scale, and once more with one schedule past the limit (1,001).

The schedules are made as Run Action's Repeat makes them (runs.forms, then
schedules.create): an environment hdd-<uuid4> holding the record, then a cron trigger of the
same name on the project's copy of the rolling workflow, for which Mistral makes a Keystone
trust from the demo user. Through python-mistralclient in THREADS threads, not the form: the
figure is the page's, not the form's. Each is BACKUP of the demo's mysql component on both
demo db servers, at a pattern that next fires months away, so nothing runs during the bench.
They are deleted at the end (trigger, and Mistral the trust with it, then record), so the
figures after this one see no schedule.
"""

import concurrent.futures
import datetime
import re
import threading
import time
import uuid

from devcloud import credentials
from heat_deploy_runner import workflows

from bench import cloud as bench_cloud
from bench import measure
from bench import rolling_cost

PAGE = '/project/schedules/'
SCALES = (10, 1000)
VIEWS = 5
# Each schedule mostly waits: on Mistral's one API process, and on Keystone for the trust.
THREADS = 8
# runner.scheduling.schedules.SCHEDULE_PREFIX: how the page tells the project's schedules from its
# other environments and triggers.
PREFIX = 'hdd-'
ACTION = 'BACKUP'
TRANSPORT = 'TEMP_URL_SIGNAL'
TIMEOUT_MINUTES = 10
_ROW = re.compile(r'<tr[^>]*data-object-id="hdd-')
_NEXT = re.compile(r'<a href="(\?marker=[^"]+)"')


def far_pattern(now):
    """Midnight UTC on the 1st of the month six months after now's: at least five months
    away, whatever day the bench runs."""
    return f'0 0 1 {(now.month + 5) % 12 + 1} *'


def schedule_record(component_id, component_name, run_name, server_ids, pattern):
    """A schedule's record as Run Action's form saves it, with what schedules.create adds
    (owner, paused)."""
    return {
        'component_id': component_id, 'component_name': component_name, 'run_name': run_name,
        'action': ACTION, 'server_ids': server_ids, 'input_values': rolling_cost.INPUTS,
        'transport': TRANSPORT, 'timeout_minutes': TIMEOUT_MINUTES, 'batch_size': 0,
        'max_failures': 0, 'pattern': pattern, 'once_at': None,
        'owner': credentials.DEMO_USER, 'paused': False,
    }


def _hours_until(mistral_time, now):
    then = datetime.datetime.strptime(mistral_time, '%Y-%m-%d %H:%M:%S').replace(
        tzinfo=datetime.timezone.utc)
    return (then - now).total_seconds() / 3600


class _Schedules:
    """The schedules made so far, and what making and deleting them took."""

    def __init__(self, session, workflow_id, record):
        self._session = session
        self._local = threading.local()
        self.workflow_id = workflow_id
        self.record = record
        self.names = []
        self.failures = []
        self.next_times = set()

    def _mistral(self):
        # One client per thread, as bench.seed keeps one heatclient per thread.
        if not hasattr(self._local, 'mistral'):
            self._local.mistral = rolling_cost.mistral(self._session)
        return self._local.mistral

    def _make(self, _index):
        mistral = self._mistral()
        name = PREFIX + str(uuid.uuid4())
        started = time.perf_counter()
        try:
            mistral.environments.create(name=name, variables=self.record, scope='private',
                                        description='heat-deploy-dashboard schedule')
        except Exception as error:
            self.failures.append(f'environment: {error}')
            return None
        try:
            trigger = mistral.cron_triggers.create(
                name, self.workflow_id,
                workflow_input=workflows.schedule_input(
                    self.record, name, credentials.DEMO_USER),
                pattern=self.record['pattern'], first_time=None)
        except Exception as error:
            # As schedules.create: a record without its trigger is not left behind.
            self.failures.append(f'cron trigger: {error}')
            mistral.environments.delete(name)
            return None
        self.names.append(name)
        self.next_times.add(trigger.next_execution_time)
        return time.perf_counter() - started

    def add(self, count):
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            each = [seconds for seconds in pool.map(self._make, range(count))
                    if seconds is not None]
        took = time.perf_counter() - started
        return {'made': len(each), 'seconds': round(took, 1),
                'per_second': round(len(each) / took, 2) if took else None,
                'one_median_seconds': round(measure.median(each), 3) if each else None,
                'one_p95_seconds': round(measure.percentile(each, 0.95), 3) if each else None}

    def _delete(self, name):
        mistral = self._mistral()
        left = []
        for what, delete in (('cron trigger', mistral.cron_triggers.delete),
                             ('environment', mistral.environments.delete)):
            try:
                delete(name)
            except Exception as error:
                left.append(f'{name} {what}: {error}')
        return left

    def delete_all(self):
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            left = [message for messages in pool.map(self._delete, self.names)
                    for message in messages]
        return {'deleted': len(self.names), 'seconds': round(time.perf_counter() - started, 1),
                'leftovers': left}


def _three_lists(mistral_api, count):
    """The page's Mistral calls as api.mistral makes them (below 1,000 schedules), on a bare
    client: what the page cannot cost less than."""
    for listing in (mistral_api.environments.list, mistral_api.cron_triggers.list):
        listing(limit=1000, sort_keys='name', sort_dirs='asc', name='gt:' + PREFIX)
    mistral_api.executions.list(
        workflow_name=workflows.ROLLING_WORKFLOW, sort_keys='created_at', sort_dirs='desc',
        limit=min(1000, 20 + 2 * count), include_output=True)


def _views(horizon, mistral_api, count):
    """The page VIEWS times, its Mistral calls alone after each view: the first view apart
    (Horizon's templates, the server names), the median of the rest."""
    views, lists = [], []
    for _each in range(VIEWS):
        views.append(horizon.view(PAGE))
        lists.append(measure.timed(lambda: _three_lists(mistral_api, count)))
    first, again = views[0], views[1:]
    seconds = [view['seconds'] for view in again]
    return {
        'first': {'status': first['status'], 'seconds': round(first['seconds'], 3),
                  'calls': first['calls'], 'policy_checks': first['policy_checks']},
        'again': {'statuses': sorted({view['status'] for view in again}),
                  'seconds': measure.rounded(seconds, 3),
                  'median_seconds': round(measure.median(seconds), 3),
                  'calls': again[-1]['calls'], 'policy_checks': again[-1]['policy_checks'],
                  'calls_constant': all(view['calls'] == again[-1]['calls']
                                        for view in again)},
        'mistral_lists': {'seconds': measure.rounded(lists[1:], 3),
                          'median_seconds': round(measure.median(lists[1:]), 3)},
    }


def next_page(html):
    """The query of the table's link to its next page (Horizon's "More"), None on the last."""
    found = _NEXT.search(html)
    return found and found.group(1).replace('&amp;', '&')


def _shown(dashboard):
    """The rows the cloud's own Horizon shows, over HTTP through its gunicorn, following the
    table's pages (Horizon's page size) to the last: the first page's time, and every
    page's rows."""
    rows, pages, query, first = 0, 0, '', None
    try:
        while query is not None:
            started = time.perf_counter()
            page = dashboard.get(PAGE + query)
            first = first or {'status': page.status_code,
                              'seconds': round(time.perf_counter() - started, 3)}
            rows, pages = rows + len(_ROW.findall(page.text)), pages + 1
            query = next_page(page.text) if page.status_code == 200 else None
    except Exception as error:
        return {'error': f'{type(error).__name__}: {error}'}
    return dict(first, rows=rows, pages=pages)


def measure_schedules(horizon, dashboard, heat, session, config_id, run_name, server_ids):
    mistral_api = rolling_cost.mistral(session)
    project_id = session.get_project_id()
    workflow_id = workflows.ensure(mistral_api, project_id)
    now = datetime.datetime.now(datetime.timezone.utc)
    pattern = far_pattern(now)
    schedules = _Schedules(session, workflow_id, schedule_record(
        config_id, heat.software_configs.get(config_id).name, run_name, server_ids, pattern))
    found = {'pattern': pattern, 'threads': THREADS, 'views_per_scale': VIEWS, 'scales': {}}
    try:
        for scale in SCALES:
            bench_cloud.progress(f'schedule calls: {scale - len(schedules.names):,} more '
                                 f'schedules, {scale:,} in all')
            making = schedules.add(scale - len(schedules.names))
            bench_cloud.progress(f'schedule calls: the Schedules page at {scale:,} schedules')
            found['scales'][str(scale)] = dict(
                _views(horizon, mistral_api, scale), schedules=len(schedules.names),
                making=making, http=_shown(dashboard))
        # One past Mistral's max_limit: whether the page still shows every schedule.
        schedules.add(1)
        found['past_limit'] = dict(_shown(dashboard), schedules=len(schedules.names))
    finally:
        # Whatever happened: no other figure's page reads schedules, but their trusts would
        # stay in Keystone and their triggers in every check of Mistral's periodic server.
        bench_cloud.progress(f'schedule calls: deleting {len(schedules.names):,} schedules')
        found['deleting'] = schedules.delete_all()
        found['failures'] = schedules.failures
        found['hours_to_next_firing'] = (
            round(min(_hours_until(each, now) for each in schedules.next_times), 1)
            if schedules.next_times else None)
    return found
