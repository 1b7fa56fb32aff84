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

"""The fleet's agents (bench.fleet_scale): one bench thread, lighter than 200 stock agents,
answering each run made on the fleet's servers as heat-config-notify does: its result PUT to
the run's TempURL, read from the run's derived config."""

import threading
import time

from heat_deploy_runner.configs import derived

from bench import agent_result

# A stock agent's own answer to PING.
RESULT = {'deploy_stdout': 'pong\n', 'deploy_stderr': '', 'deploy_status_code': 0}
CYCLE_SECONDS = 0.5


class FleetAgents:
    """One thread answering every run made on the fleet's servers: its result PUT to its
    TempURL as soon as it is seen (unless held), the moment of each PUT kept by run id.

    Runs are found in Heat's listing of the project's runs, twice a second: while Mistral
    makes an operation's runs, the bench does not know them yet. Where the bench knows them
    (answer), they are answered without that listing, their configs read beforehand, as a
    stock agent knows its server's runs from its metadata, which the cloud's servers read from
    Swift (POLL_TEMP_URL), not Heat: at 200 running runs the project held 1,100 runs, and a
    listing of them twice a second took Heat's two API workers from the page's shows."""

    def __init__(self, heat, servers):
        self.heat = heat
        self.servers = set(servers)
        self.put_at = {}
        self.holding = threading.Event()
        self.failures = []
        self._configs = {}
        # None: every running run found in Heat's listing; {run id: config id}: those only.
        self._answering = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *_exc):
        self._stop.set()
        self._thread.join()

    def answer(self, runs):
        """Answer these runs only (None: every run found again), their configs read first."""
        if runs is not None:
            for run in runs:
                self._config(run.config_id)
        self._answering = None if runs is None else {run.id: run.config_id for run in runs}

    def _config(self, config_id):
        if config_id not in self._configs:
            self._configs[config_id] = derived.as_dict(self.heat.software_configs.get(config_id))
        return self._configs[config_id]

    def _loop(self):
        while not self._stop.wait(CYCLE_SECONDS):
            try:
                self._cycle()
            except Exception as error:
                self.failures.append(f'agents: {type(error).__name__}: {error}')

    def _cycle(self):
        if self.holding.is_set():
            return
        answering = self._answering
        if answering is None:
            answering = {row.id: row.config_id for row in self.heat.software_deployments.list()
                         if row.server_id in self.servers and row.status == 'IN_PROGRESS'}
        for run_id, config_id in answering.items():
            if run_id not in self.put_at:
                agent_result.send(self._config(config_id), RESULT)
                self.put_at[run_id] = time.monotonic()
