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

"""Seeding deployments through Heat's real API, the way the dashboard makes them.

Every seeded run is made by heat_deploy_runner.start (derived config, then
deployment), ten servers to an operation as one Run Action makes them, with NO_SIGNAL so it is
finished at once and the pages have nothing to poll. The servers are made-up ids: Heat does not
check server_id for a standalone deployment
(service_software_config._push_metadata_software_deployments finds no server resource and
pushes no metadata), so 50 fake servers cost nothing beyond the rows themselves.
"""

import concurrent.futures
import threading
import time
import uuid

import heat_deploy_runner as runner

SERVERS = 50
# Servers per trigger call: each call reads the source config once, then makes a derived
# config and a deployment per server, as one Run Action on ten servers does.
SERVERS_PER_TRIGGER = 10
# Heat's API runs two sync gunicorn workers in front of one engine: more threads only queue.
THREADS = 6

FAKE_SERVERS = [str(uuid.UUID(int=i + 1, version=4)) for i in range(SERVERS)]


class Seeder:
    """Adds runs of one config's action on the fake servers, in parallel."""

    def __init__(self, make_heat, config_id, action, input_values=None):
        self._make_heat = make_heat
        self._local = threading.local()
        self.config_id = config_id
        self.action = action
        self.input_values = input_values or {}
        self.made = 0
        self.failed = 0
        self.seconds = 0.0

    def _heat(self):
        # One client per thread: heatclient keeps per-client state between calls.
        if not hasattr(self._local, 'heat'):
            self._local.heat = self._make_heat()
        return self._local.heat

    def _trigger(self, servers):
        result = runner.start(
            self._heat(), runner.transport_for, runner.RunRequest(
                config_id=self.config_id, action=self.action, server_ids=servers,
                input_values=self.input_values, transport='NO_SIGNAL'),
            operation=runner.Operation.new('bench', self.config_id))
        return len(result.created), len(result.failures)

    def add(self, count):
        """Make `count` more runs; returns the seconds it took."""
        batches = []
        next_server = self.made
        while count > 0:
            size = min(SERVERS_PER_TRIGGER, count)
            batches.append([FAKE_SERVERS[(next_server + i) % SERVERS] for i in range(size)])
            next_server += size
            count -= size
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            for created, failed in pool.map(self._trigger, batches):
                self.made += created
                self.failed += failed
        took = time.perf_counter() - started
        self.seconds += took
        return took

    def throughput(self):
        """Deployments per second over everything seeded so far."""
        return self.made / self.seconds if self.seconds else 0.0
