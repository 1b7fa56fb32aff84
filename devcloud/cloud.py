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

"""The whole local cloud: start every service in order, stop them all by PID."""

import contextlib
import fcntl
import os
import signal
import threading
import time

from devcloud import demo
from devcloud import process
from devcloud.services import heat
from devcloud.services import horizon
from devcloud.services import identity
from devcloud.services import infra
from devcloud.services import keystone
from devcloud.services import mistral
from devcloud.services import swift
from devcloud.services import zaqar


class AlreadyRunning(RuntimeError):
    pass


class Cloud:
    def __init__(self, layout, progress=None, with_demo=True, heat_quota=heat.DEFAULT_QUOTA):
        self.layout = layout
        self.heat_quota = heat_quota
        self.progress = progress or (lambda message: None)
        self.with_demo = with_demo
        self.sup = process.Supervisor(layout.path('logs'))
        self._lock = None
        self.demo_stack = None

    def _acquire_lock(self):
        self.layout.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.layout.path('devcloud.pid')
        lock = open(path, 'a+')
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            pid = lock.read().strip() or 'unknown'
            lock.close()
            raise AlreadyRunning(
                f'A local cloud is already running from {self.layout.data_dir} (pid {pid}). '
                f'Stop it with Ctrl-C in its terminal or "kill {pid}", or start another one '
                f'beside it with DEVCLOUD_DIR and DEVCLOUD_PORT_BASE set.')
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        self._lock = lock

    def start(self):
        self._acquire_lock()
        started = time.monotonic()
        try:
            infra.start_postgres(self.layout, self.sup, self.progress)
            infra.start_memcached(self.layout, self.sup, self.progress)
            infra.start_rabbitmq(self.layout, self.sup, self.progress)
            keystone.start(self.layout, self.sup, self.progress)
            self.progress('Keystone: projects, users, roles and the service catalog')
            identity.ensure_identity(self.layout)
            swift.start(self.layout, self.sup, self.progress)
            zaqar.start(self.layout, self.sup, self.progress)
            self.progress('Heat: starting the engine and the API')
            heat.start(self.layout, self.sup, self.progress, self.heat_quota)
            mistral.start(self.layout, self.sup, self.progress)
            horizon.start(self.layout, self.sup, self.progress)
            if self.with_demo:
                self.demo_stack = demo.start(self.layout, self.sup, self.progress)
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.monotonic() - started

    def services(self):
        """The names of the services started, as stop_service and start_service take them:
        postgres, memcached, rabbitmq, keystone, swift-object, swift-proxy, redis, zaqar,
        heat-engine, horizon, agent-demo-db-1..."""
        return self.sup.service_names()

    def stop_service(self, name):
        """Stop one service of the running cloud, to see how the others cope without it."""
        self.sup.stop_service(name)

    def start_service(self, name):
        """Start a service stopped by stop_service again, the way the cloud first started it,
        and return once it is ready (as the cloud's start waits for it)."""
        self.sup.start_service(name)

    def restart_with(self, name, write_conf, *args):
        """Start one service again with its configuration written anew by
        ``write_conf(layout, *args)`` (a setting changed for a test, or its default again)."""
        write_conf(self.layout, *args)
        self.stop_service(name)
        self.start_service(name)

    def stop(self):
        with _signals_held():
            self.sup.stop_all()
        if self._lock:
            self._lock.close()
            self._lock = None


@contextlib.contextmanager
def _signals_held():
    """Ctrl-C and SIGTERM ignored while the cloud stops: a second Ctrl-C (or a wrapper passing
    one on) would otherwise end the stop half-way and leave the other services running."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept = {number: signal.signal(number, signal.SIG_IGN)
            for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in kept.items():
            signal.signal(number, handler)
