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

"""What runs on the cloud during the soak, each in a thread of its own: users' pages, the
command line starting and cancelling runs, and a service killed (SIGKILL) and started again
every few minutes. The schedules firing every minute are Mistral's own."""

import argparse
from datetime import datetime
from datetime import timezone
import json
import os
import random
import re
import signal
import subprocess
import threading
import time

import psutil
import requests

from devcloud import layout as layout_mod
from devcloud.services import identity
from heat_deploy_runner import times
from tests.integration import dashboard as dashboard_mod

# A page asks every PAGE_POLL_SECONDS and gives up on a reply after 20 s (status_poll.js).
POLL_SECONDS = times.PAGE_POLL_SECONDS
PAGE_TIMEOUT = 20
LIST_PAGE = '/project/deployments/'
STATUS_POLL = '/project/deployments/status/'
OPERATION_LINK = r'/project/deployments/operations/[0-9a-f-]{36}/'
# After a failed reply, the next ask waits longer and longer, up to this (status_poll.js's
# MAX_RETRY_MS): asked again every 1.5 s, 20 users kept two sync workers busy with requests
# they had given up on, long after what slowed the pages had passed.
MAX_RETRY_SECONDS = 15
# A user goes back to the Deployments page and opens the newest operation this often.
VISIT_SECONDS = 60
# The services killed, one after the other: what Heat, Mistral and Keystone stand on first
# (RabbitMQ, PostgreSQL), then the plugin's services; each of Mistral's two executors in its
# turn, the other serving meanwhile; a Horizon worker is one of gunicorn's.
SECOND_EXECUTOR = 'mistral-executor-2'
SERVICES = ('rabbitmq', 'postgres', 'keystone', 'heat-api', 'heat-engine', 'mistral-executor',
            'swift-proxy', 'swift-object', 'zaqar', 'mistral-engine', SECOND_EXECUTOR,
            'memcached', 'horizon-worker')
DOWN_SECONDS = 20


def named(text):
    """The services ``text`` names, comma-separated, in its order (python -m soak --services):
    each one of SERVICES."""
    services = tuple(text.split(','))
    unknown = [each for each in services if each not in SERVICES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f'not killed by the soak: {", ".join(unknown)}; of {", ".join(SERVICES)}')
    return services


class Stoppable(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.stopping = threading.Event()

    def stop(self):
        self.stopping.set()
        self.join(timeout=PAGE_TIMEOUT + 10)


class Page(Stoppable):
    """A user following the newest operation, as a browser tab does: the Deployments page,
    then the newest operation's page, whose running rows are polled every POLL_SECONDS
    (deployment_poller.js) and which is drawn again every few seconds while its rolling run
    goes on (rolling_refresh.js); every VISIT_SECONDS, back to the Deployments page for the
    newest operation. Each reply: (started, seconds, status, path), status None when none
    came."""

    def __init__(self, base_url):
        super().__init__()
        self.user = dashboard_mod.Dashboard(base_url)
        self.user.login()
        self.replies = []
        self.retry_seconds = POLL_SECONDS

    def _ask(self, method, path, **kwargs):
        started = time.monotonic()
        try:
            response = self.user.http.request(method, self.user.url(path),
                                              timeout=PAGE_TIMEOUT, **kwargs)
        except requests.RequestException:
            response = None
        self.replies.append((started, time.monotonic() - started,
                             None if response is None else response.status_code, path))
        if response is not None and response.ok:
            self.retry_seconds = POLL_SECONDS
            return response
        return None

    def _later(self):
        """Wait before asking again after a failed reply, each time twice as long."""
        waited = self.stopping.wait(self.retry_seconds)
        self.retry_seconds = next_retry(self.retry_seconds)
        return waited

    def run(self):
        # The users do not all arrive in the same second.
        self.stopping.wait(random.uniform(0, VISIT_SECONDS))
        while not self.stopping.is_set():
            visit_ends = time.monotonic() + VISIT_SECONDS
            listed = self._ask('GET', LIST_PAGE)
            if listed is None:
                self._later()
                continue
            newest = re.search(OPERATION_LINK, listed.text)
            if not newest:
                self.stopping.wait(POLL_SECONDS)
                continue
            self._follow(newest.group(0), visit_ends)

    def _follow(self, path, visit_ends):
        while time.monotonic() < visit_ends and not self.stopping.is_set():
            page = self._ask('GET', path)
            if page is None:
                self._later()
                continue
            refresh = re.search(r'data-refresh-seconds="(\d+)"', page.text)
            drawn_again = time.monotonic() + (int(refresh.group(1)) if refresh else VISIT_SECONDS)
            running = running_ids(page.text)
            table = re.search(r'class="hdd-poll-state[^>]*data-table="([^"]+)"', page.text, re.S)
            while running and time.monotonic() < min(drawn_again, visit_ends):
                if self.stopping.wait(POLL_SECONDS):
                    return
                reply = self._ask('POST', STATUS_POLL, headers={
                    'X-CSRFToken': self.user.http.cookies.get('csrftoken', ''),
                    'Referer': self.user.url(path)},
                    data={'id': running, 'table': table and table.group(1)})
                if reply is not None:
                    running = reply.json()['running']
                elif self._later():
                    return
            self.stopping.wait(max(0.0, min(drawn_again, visit_ends) - time.monotonic()))


def next_retry(seconds):
    """The wait after one more failed reply (status_poll.js: twice as long, up to 15 s)."""
    return min(seconds * 2, MAX_RETRY_SECONDS)


def running_ids(page):
    """The ids of the rows a page shows running, which its poller follows."""
    return [re.search(r'data-object-id="([^"]+)"', row).group(1)
            for row in re.findall(r'<tr[^>]*data-status="IN_PROGRESS"[^>]*>', page)
            if 'data-object-id="' in row]


def openstack(layout, *argv):
    """An `openstack` command as the demo user: its stdout, parsed when it is JSON."""
    env = dict(os.environ, **identity.cli_environment(layout))
    done = subprocess.run([layout_mod.venv_bin('openstack'), *argv], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    if done.returncode:
        raise RuntimeError(f'openstack {" ".join(argv)}: {done.stderr.strip()[-300:]}')
    if ('-f', 'json') not in zip(argv, argv[1:]):
        return done.stdout
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise RuntimeError(f'openstack {" ".join(argv)} printed no JSON: '
                           f'{done.stdout[:200]!r} {done.stderr.strip()[-200:]!r}') from None


class CommandLine(Stoppable):
    """Every ``every`` seconds, a CHECK started from the command line, cancelled after a
    few seconds every other time: the operations it started."""

    def __init__(self, layout, every=60):
        super().__init__()
        self.layout = layout
        self.every = every
        self.started = []
        self.errors = []

    def run(self):
        while not self.stopping.wait(self.every):
            try:
                made = openstack(self.layout, 'software', 'component', 'run', 'monitoring',
                                 'CHECK', '--server', 'demo-mon-1', '--timeout', '2',
                                 '--input', 'pause_seconds=20', '-f', 'json')
                self.started.append(made['operation'])
                if len(self.started) % 2 and not self.stopping.wait(5):
                    openstack(self.layout, 'software', 'operation', 'cancel',
                              made['operation'], '-f', 'json')
            except Exception as error:
                # A service may be down: said in the figures, not fatal.
                self.errors.append(str(error)[:300])


class Killer(Stoppable):
    """Every ``every`` seconds from its start, the next of ``services`` SIGKILLed (its whole
    process group, as a crash of its host leaves it: PostgreSQL's backends, RabbitMQ's Erlang
    VM, gunicorn's workers with their master) and started again ``down_seconds`` later:
    (service, from, to) each, on the pages' clock, and (service, when) on the logs'
    (killed_at)."""

    def __init__(self, cloud, services=SERVICES, every=120, down_seconds=DOWN_SECONDS):
        super().__init__()
        self.cloud = cloud
        self.services = services
        self.every = every
        self.down_seconds = down_seconds
        self.outages = []
        self.killed_at = []
        self.errors = []

    def run(self):
        # The n-th kill at n x every, however long each service took to start again: waiting
        # ``every`` after each restart, 13 services took over 31 minutes.
        started = time.monotonic()
        for turn, service in enumerate(self.services * 100, start=1):
            if self.stopping.wait(max(0.0, started + turn * self.every - time.monotonic())):
                return
            began = time.monotonic()
            self.killed_at.append((service, times.utc_text(datetime.now(timezone.utc))))
            if service == 'horizon-worker':
                self._kill_a_horizon_worker()
                self.stopping.wait(self.down_seconds)
            else:
                self._kill(service)
                self.stopping.wait(self.down_seconds)
                try:
                    self.cloud.start_service(service)
                except Exception as error:
                    self.errors.append(f'{service} did not start again: {error}'[:300])
            self.outages.append((service, began, time.monotonic()))

    def _kill(self, service):
        proc = self.cloud.sup.running(service)
        if proc is None:
            self.errors.append(f'{service} was not running when its turn came')
            return
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def _kill_a_horizon_worker(self):
        master = psutil.Process(self.cloud.sup.running('horizon').pid)
        workers = master.children(recursive=True)
        if workers:
            os.kill(random.choice(workers).pid, signal.SIGKILL)
