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

"""bench.horizon_side as a child process: page views in Horizon's configuration, one by one,
so the bench can interleave them with its baselines."""

import json
import os
import subprocess
import sys

from devcloud import credentials
from devcloud import layout as layout_mod

from bench import horizon_side

# What each counted request went to; anything else is counted as "other".
SERVICES = ('keystone', 'heat_api', 'swift_proxy', 'mistral')


def horizon_env(layout):
    """The environment devcloud.services.horizon gives the cloud's gunicorn workers."""
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        filter(None, [str(layout.path('horizon')), str(layout_mod.REPO_ROOT),
                      os.environ.get('PYTHONPATH')]))
    env['DJANGO_SETTINGS_MODULE'] = 'openstack_dashboard.settings'
    return env


class HorizonProcess:
    """The demo user, logged in, in a Horizon process of the bench's own."""

    def __init__(self, layout, username=credentials.DEMO_USER,
                 password=credentials.DEMO_PASSWORD):
        self._log = open(layout.path('logs', 'bench-horizon-side.log'), 'a')
        self._proc = subprocess.Popen(
            [sys.executable, '-m', 'bench.horizon_side'], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self._log, text=True, env=horizon_env(layout),
            cwd=str(layout_mod.REPO_ROOT))
        self._ask(json.dumps({'username': username, 'password': password,
                              'ports': {name: layout.port(name) for name in SERVICES}}))

    def _ask(self, line):
        self._proc.stdin.write(line + '\n')
        self._proc.stdin.flush()
        for reply in self._proc.stdout:
            if reply.startswith(horizon_side.REPLY):
                return json.loads(reply[len(horizon_side.REPLY):])
        raise RuntimeError(f'bench.horizon_side exited; see {self._log.name}')

    def view(self, path):
        """One GET: {"status", "seconds", "calls": {service: n}, "cache": {hits, misses}}."""
        return self._ask(path)

    def close(self):
        # It may be in the middle of a long page when the bench stops: nothing to save.
        self._proc.terminate()
        self._proc.wait()
        self._log.close()
