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

"""Starting, watching and stopping the cloud's processes, each by its own PID."""

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request


class ServiceFailed(RuntimeError):
    """A service did not start; the message names it and the log to read."""


class Supervisor:
    """Owns every process the cloud starts and stops them all, newest first."""

    def __init__(self, log_dir):
        self.log_dir = log_dir
        self.processes = []  # (name, Popen)
        self._launch = {}  # name -> how it was started, so one service can be restarted
        self._ready = {}  # name -> what the first wait_until waited for: "it is ready again"

    def log_path(self, name):
        self.log_dir.mkdir(parents=True, exist_ok=True)
        return self.log_dir / f'{name}.log'

    def start(self, name, argv, env=None, cwd=None, user=None):
        log = open(self.log_path(name), 'ab')
        full_env = dict(os.environ)
        full_env.update(env or {})
        kwargs = {}
        if user:
            kwargs['user'] = user
            kwargs['group'] = user
            kwargs['extra_groups'] = []
        # A new session: a Ctrl-C in the terminal reaches only the supervisor, which then
        # stops everything in order instead of every service dying at once.
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=full_env,
                                cwd=cwd, start_new_session=True, **kwargs)
        log.close()
        self.processes.append((name, proc))
        self._launch[name] = (argv, env, cwd, user)
        return proc

    def restart(self, name, ready):
        """Stop one service and start it again the same way (tests use this to make a
        service fail for real)."""
        for index, (each, proc) in enumerate(self.processes):
            if each == name:
                stop_process(proc)
                del self.processes[index]
                break
        argv, env, cwd, user = self._launch[name]
        proc = self.start(name, argv, env=env, cwd=cwd, user=user)
        self.wait_until(name, proc, ready)
        return proc

    def stop(self, name):
        for each, proc in self.processes:
            if each == name:
                stop_process(proc)

    def service_names(self):
        return sorted(self._launch)

    def running(self, name):
        """The live process of a service, or None."""
        for each, proc in self.processes:
            if each == name and proc.poll() is None:
                return proc
        return None

    def stop_service(self, name, timeout=15):
        """Stop one service as the whole cloud would (SIGTERM to its process group, SIGKILL
        after timeout) and forget its process; start_service starts it again."""
        if name not in self._launch:
            raise KeyError(f'no service named {name!r}; known: {", ".join(sorted(self._launch))}')
        kept = []
        for each, proc in self.processes:
            if each == name:
                stop_process(proc, timeout)
            else:
                kept.append((each, proc))
        self.processes[:] = kept

    def start_service(self, name, timeout=120):
        """Start a stopped service again exactly as it was first started, and wait until it is
        ready the way its first start waited (for a service with no such check: until it has
        stayed up for a second). A service already running is left alone."""
        if name not in self._launch:
            raise KeyError(f'no service named {name!r}; known: {", ".join(sorted(self._launch))}')
        proc = self.running(name)
        if proc is not None:
            return proc
        self.processes[:] = [(each, p) for each, p in self.processes if each != name]
        argv, env, cwd, user = self._launch[name]
        proc = self.start(name, argv, env=env, cwd=cwd, user=user)
        ready = self._ready.get(name)
        if ready is None:
            up_since = time.monotonic()
            ready = lambda: time.monotonic() - up_since >= 1  # noqa: E731
        self.wait_until(name, proc, ready, timeout)
        return proc

    def check_alive(self, name, proc):
        if proc.poll() is not None:
            raise ServiceFailed(f'{name} exited with status {proc.returncode}; '
                                f'see its log: {self.log_path(name)}')

    def wait_until(self, name, proc, ready, timeout=120):
        """Wait for ready() to be true while the process stays alive."""
        self._ready.setdefault(name, ready)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc is not None:
                self.check_alive(name, proc)
            if ready():
                return
            time.sleep(0.2)
        raise ServiceFailed(f'{name} was not ready after {timeout} s; '
                            f'see its log: {self.log_path(name)}')

    def stop_all(self, timeout=15):
        for name, proc in reversed(self.processes):
            stop_process(proc, timeout)
        self.processes.clear()


def stop_process(proc, timeout=15):
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def port_open(port, host='127.0.0.1'):
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def http_answers(url):
    """True once anything answers HTTP at url, whatever the status."""
    try:
        urllib.request.urlopen(url, timeout=2).close()
        return True
    except urllib.error.HTTPError:
        return True
    except (OSError, urllib.error.URLError):
        return False


def run(argv, log_path, env=None, user=None, cwd=None, timeout=600):
    """Run a set-up command to completion, appending its output to a log."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    kwargs = {'user': user, 'group': user, 'extra_groups': []} if user else {}
    with open(log_path, 'ab') as log:
        result = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, env=full_env,
                                cwd=cwd, timeout=timeout, **kwargs)
    if result.returncode != 0:
        raise ServiceFailed(f'"{" ".join(map(str, argv))}" failed with status '
                            f'{result.returncode}; see {log_path}')
