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

"""Concurrent polls: 20 open deployments pages polling 20 running rows for 60 s (issue #13).

The running rows are poll_cost's: runs on the fake servers with TEMP_URL_SIGNAL that never
report, cancelled afterwards so no later page polls them. Each page is a user's own HTTP
session, logged in through the real form, whose poller sends what deployment_poller.js sends:
a POST of the running rows' ids with the CSRF token of the table's form, one every 1.5 s from
start to start and at least 0.5 s after the last reply, given up after 20 s. A poll slower
than that, or answering other than 200, or with a JSON error, is an error; after one the page
waits as the script does (1.5 s, doubling to 15 s).

While the pages poll, the ESTABLISHED TCP connections of each Horizon gunicorn worker are
counted every second by the port they go to. The plugin's pool (heat_deploy_dashboard/api/
pool.py) bounds its Heat, Swift and Zaqar connections per worker; Keystone (Horizon's login
and token checks) and memcached (Django's cache) are Horizon's own and are shown beside them.
One more user's deployments page is timed during the load and, for its baseline, without it.

Alone on a fresh bench cloud, for working on it: `.venv/bin/python -m bench concurrent_polls`
(prints its results; bench/RESULTS.md is left as the whole bench wrote it).
"""

import collections
from html import parser as html_parser
import os
import re
import subprocess
import sys
import threading
import time

import psutil
import requests

from devcloud import layout as layout_mod
import heat_deploy_runner as runner
from tests.integration import dashboard as dashboard_mod

from bench import horizon_views
from bench import measure
from bench import poll_cost

PAGES = 20
ROWS = 20
SECONDS = 60
PAGE = '/project/deployments/'
# deployment_poller.js: POLL_MS, MIN_PAUSE_MS, MAX_RETRY_MS and its $.ajax timeout.
POLL_INTERVAL = poll_cost.POLL_INTERVAL
MIN_PAUSE = 0.5
MAX_RETRY = 15
POLL_TIMEOUT = 20
# Views of the one more user's page under the load, and as many without it: half before the
# load and half after, as the shared machine's own load drifts during the figure.
PAGE_ROUNDS = 6
# Before the first timed view under the load: every page has started polling by then.
SETTLE_SECONDS = 5
SAMPLE_EVERY = 1
# The services the plugin's pool bounds per worker (api/pool.py: Heat and Zaqar share one
# session, Swift has its own; each caps the connections to one host).
POOLED = ('heat_api', 'swift_proxy', 'zaqar')
_POOL_SIZE = ('import django; django.setup(); '
              'from heat_deploy_dashboard.api import pool; print(pool.POOL_SIZE)')
_STATUS = re.compile(r'<tr\b[^>]*\bdata-status="([^"]*)"')


class _PageParser(html_parser.HTMLParser):
    """What the poller reads from the page: its URL, its table's form token, the running ids."""

    def __init__(self):
        super().__init__()
        self.url = None
        self.table = None
        self.running = []
        # {table id: the token of the form it is in}; $table.closest('form') in the script.
        self.tokens = {}
        self._form_token = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'form':
            self._form_token = None
        elif tag == 'input' and attrs.get('name') == 'csrfmiddlewaretoken':
            self._form_token = attrs.get('value')
        elif tag == 'table' and attrs.get('id'):
            self.tokens[attrs['id']] = self._form_token
        elif tag == 'p' and 'hdd-poll-state' in (attrs.get('class') or '').split():
            self.url, self.table = attrs.get('data-url'), attrs.get('data-table')
        elif tag == 'tr' and attrs.get('data-status') == 'IN_PROGRESS':
            self.running.append(attrs.get('data-object-id'))

    def handle_endtag(self, tag):
        if tag == 'form':
            self._form_token = None

    def token(self):
        return self.tokens.get(self.table)


def _login(layout):
    dashboard = dashboard_mod.Dashboard(layout.dashboard_url)
    dashboard.login()
    return dashboard


def _timed_view(dashboard):
    started = time.perf_counter()
    response = dashboard.get(PAGE)
    return time.perf_counter() - started, response.status_code


class _Page:
    """One user's open deployments page and its poller."""

    def __init__(self, layout):
        self.dashboard = _login(layout)
        found = _PageParser()
        found.feed(self.dashboard.get(PAGE).text)
        self.url, self.token, self.running = found.url, found.token(), found.running
        if not (self.url and self.token):
            raise RuntimeError('the deployments page has no poller or no form token')
        # (seconds, what went wrong or None) of every poll.
        self.polls = []

    def _post(self):
        """One poll: what went wrong, or None."""
        # As jQuery sends it: the ids as repeated fields (traditional), and the headers of an
        # ajax call that wants JSON.
        try:
            response = self.dashboard.http.post(
                self.dashboard.url(self.url), data={'id': self.running}, timeout=POLL_TIMEOUT,
                headers={'X-CSRFToken': self.token, 'X-Requested-With': 'XMLHttpRequest',
                         'Accept': 'application/json, text/javascript, */*; q=0.01',
                         'Referer': self.dashboard.url(PAGE)})
        except requests.RequestException as error:
            return type(error).__name__
        if response.status_code != 200:
            return f'HTTP {response.status_code}'
        try:
            reply = response.json()
        except ValueError:
            return 'not JSON'
        if 'error' in reply:
            return f'JSON error: {reply["error"]}'
        gone = set(reply['gone'])
        fresh = {each: _STATUS.search(html) for each, html in reply['rows'].items()}
        self.running = [each for each in self.running if each not in gone and (
            each not in fresh or (fresh[each] and fresh[each].group(1) == 'IN_PROGRESS'))]
        return None

    def poll_until(self, deadline):
        retry = POLL_INTERVAL
        while self.running and time.monotonic() < deadline:
            started = time.monotonic()
            failed = self._post()
            seconds = time.monotonic() - started
            if failed is None and seconds > POLL_TIMEOUT:
                failed = f'slower than {POLL_TIMEOUT} s'
            self.polls.append((seconds, failed))
            if failed is None:
                retry = POLL_INTERVAL
                pause = max(MIN_PAUSE, POLL_INTERVAL - seconds)
            elif failed == 'HTTP 401':
                # The page asks to log in again and stops polling.
                return
            else:
                pause, retry = retry, min(retry * 2, MAX_RETRY)
            time.sleep(max(0, min(pause, deadline - time.monotonic())))


def _pool_size(layout):
    # heat_deploy_dashboard.api needs Horizon's settings to import: read the size as the
    # cloud's workers import it.
    return int(subprocess.run(
        [sys.executable, '-c', _POOL_SIZE], env=horizon_views.horizon_env(layout),
        cwd=str(layout_mod.REPO_ROOT), capture_output=True, text=True, check=True).stdout)


def _established(pid, services, horizon_port):
    """{service: ESTABLISHED connections} the worker opened; those it accepted are left out."""
    counts = collections.Counter()
    for each in psutil.Process(pid).net_connections(kind='tcp'):
        if (each.status == psutil.CONN_ESTABLISHED and each.raddr
                and each.laddr.port != horizon_port):
            counts[services.get(each.raddr.port, f'port {each.raddr.port}')] += 1
    return counts


def _sample_connections(layout, master_pid, stop, samples):
    """Appends {worker pid: {service: n}} every SAMPLE_EVERY s until stop is set."""
    services = {layout.port(name): name for name in layout_mod.PORT_OFFSETS}
    while not stop.wait(SAMPLE_EVERY):
        sample = {}
        for worker in psutil.Process(master_pid).children():
            try:
                sample[worker.pid] = _established(worker.pid, services, layout.port('horizon'))
            except psutil.NoSuchProcess:
                # Replaced by gunicorn (a worker timeout) between listing and counting.
                continue
        samples.append(sample)


def _per_worker(samples):
    """{pid: {service: {"max", "median"}}} over the samples the worker was alive in."""
    services = {service for sample in samples for counts in sample.values() for service in counts}
    series = collections.defaultdict(lambda: collections.defaultdict(list))
    for sample in samples:
        for pid, counts in sample.items():
            for service in services:
                series[pid][service].append(counts.get(service, 0))
    return {str(pid): {service: {'max': max(values), 'median': measure.median(values)}
                       for service, values in by_service.items()}
            for pid, by_service in series.items()}


def _load(layout, pages, master_pid, one_more):
    """Every page polls for SECONDS while the connections are sampled and the one more user's
    page is viewed PAGE_ROUNDS times; returns (connection samples, page views)."""
    deadline = time.monotonic() + SECONDS
    stop, samples = threading.Event(), []
    sampler = threading.Thread(target=_sample_connections,
                               args=(layout, master_pid, stop, samples))
    pollers = [threading.Thread(target=page.poll_until, args=(deadline,)) for page in pages]
    sampler.start()
    for poller in pollers:
        poller.start()
        # Pages opened at different moments: their polls do not all start together.
        time.sleep(POLL_INTERVAL / len(pollers))
    time.sleep(SETTLE_SECONDS)
    views = []
    spacing = (deadline - time.monotonic()) / PAGE_ROUNDS
    for _ in range(PAGE_ROUNDS):
        # A view that began after the pages stopped would be one without the load.
        if time.monotonic() >= deadline:
            break
        slot = time.monotonic() + spacing
        views.append(_timed_view(one_more))
        time.sleep(max(0, slot - time.monotonic()))
    for poller in pollers:
        poller.join()
    stop.set()
    sampler.join()
    return samples, views


def measure_concurrent(layout, heat, swift, config_id, horizon_master_pid):
    pool_size = _pool_size(layout)
    running = poll_cost._add_running(heat, swift, config_id, ROWS)
    try:
        pages = [_Page(layout) for _ in range(PAGES)]
        # Newest first, the runs just made are the first page's rows: without all of them the
        # pages would poll something else.
        if any(sorted(page.running) != sorted(running) for page in pages):
            raise RuntimeError(f'the deployments page does not show the {ROWS} running rows')
        one_more = _login(layout)
        # The login landed on the deployments page: its first view is done.
        without = [_timed_view(one_more) for _ in range(PAGE_ROUNDS // 2)]
        samples, during = _load(layout, pages, horizon_master_pid, one_more)
        # The machine is shared: what else ran shows here, over the last minute of the load.
        load_average = os.getloadavg()[0]
        without += [_timed_view(one_more) for _ in range(PAGE_ROUNDS - PAGE_ROUNDS // 2)]
    finally:
        for deployment_id in running:
            runner.cancel(heat, deployment_id, 'bench', runner.transport_for)
    polls = [each for page in pages for each in page.polls]
    seconds = [took for took, _failed in polls]
    errors = collections.Counter(failed for _took, failed in polls if failed)
    per_worker = _per_worker(samples)
    by_service = collections.defaultdict(int)
    for found in per_worker.values():
        for service, counts in found.items():
            by_service[service] = max(by_service[service], counts['max'])
    during_seconds = [took for took, _status in during]
    without_seconds = [took for took, _status in without]
    return {
        'pages': PAGES, 'rows': ROWS, 'seconds': SECONDS, 'load_average': load_average,
        'polls': len(polls),
        'polls_per_page': sorted(len(page.polls) for page in pages),
        'poll_median_seconds': measure.median(seconds),
        'poll_p95_seconds': measure.percentile(seconds, 0.95),
        'poll_max_seconds': max(seconds),
        'errors': sum(errors.values()),
        'error_kinds': dict(errors),
        'pool_size': pool_size,
        'pooled_services': list(POOLED),
        'connection_samples': len(samples),
        'connections_per_worker': per_worker,
        'connections_max_by_service': dict(by_service),
        'page_during_load': {'samples': measure.rounded(during_seconds),
                             'statuses': sorted({status for _took, status in during}),
                             'median': measure.median(during_seconds)},
        'page_without_load': {'samples': measure.rounded(without_seconds),
                              'statuses': sorted({status for _took, status in without}),
                              'median': measure.median(without_seconds)},
        'page_ratio': measure.ratio(during_seconds, without_seconds),
    }
