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

"""`--wait`: an operation followed to its end from the command line, each run settled as the
dashboard's status poll settles it (settling.settled: a Zaqar result applied, a run past its
deadline recorded as timed out), each server said as its run ends."""

import time

from heatclient import exc as heat_exc

from heat_deploy_runner.components import listing
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running import runs
from heat_deploy_runner.running.settling import settled
from heat_deploy_runner.signalling import deadlines
from heat_deploy_runner.signalling.signals import COMPLETE
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner import times
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows import executions

POLL_SECONDS = times.PAGE_POLL_SECONDS
# Followed with --follow: the server's hook sends live output at most once a second.
LIVE_POLL_SECONDS = 1
# A rolling operation's execution is asked about this often (its batches start on Mistral).
EXECUTION_SECONDS = 5
# A run still shown running this long past its deadline is left to the pages: its timeout
# could not be recorded (the messaging service or Heat not answering).
GIVE_UP_SECONDS = 300


class GaveUp(Exception):
    """Runs still running well past their deadlines: ``running``, their ids."""

    def __init__(self, running):
        super().__init__(', '.join(running))
        self.running = running


def ended_line(run, name):
    """One server's end, as it is printed: "demo-db-1: COMPLETE, exit code 0"."""
    code = runs.exit_code(run)
    said = f'{name}: {shown_status(run)}'
    if code is not None:
        said += f', exit code {code}'
    if run.status != COMPLETE and run.status_reason:
        said += f' ({run.status_reason})'
    return said


def follow(clients, operation_id, run_ids, say, execution=None, watch=None):
    """The operation's runs once none is running (and, for a rolling one, once its Mistral
    ``execution`` has ended: the execution as it ended is returned too), each with its
    derived config where it was read. ``run_ids``: the runs known to be its already; a
    rolling operation's others are found among the project's runs as its batches start them.
    ``say`` gets ended_line of each run as it ends; ``watch``, when given, each run still
    running, at each look (LIVE_POLL_SECONDS apart)."""
    names = clients.servers.names()
    configs, ended, known = {}, {}, list(run_ids)
    next_listing = 0
    while True:
        if execution is not None and time.monotonic() >= next_listing:
            # None once deleted: it starts no further batch.
            execution = executions.get(clients.mistral, clients.project_id, execution.id)
            known += [each.id for each in listing.runs(clients.heat, clients.project_id)
                      if each.operation and each.operation.id == operation_id
                      and each.id not in known]
            next_listing = time.monotonic() + EXECUTION_SECONDS
        late = []
        for run_id in list(known):
            if run_id in ended:
                continue
            try:
                run = settled(clients.heat, clients.find_transport, run_id, configs)
            except heat_exc.HTTPNotFound:
                # Deleted while followed: it has ended, with nothing to show.
                known.remove(run_id)
                say(f'{run_id}: deleted')
                continue
            if run.status != IN_PROGRESS:
                ended[run_id] = run.described(run.config or configs.get(run.config_id))
                say(ended_line(run, names.get(run.server_id) or run.server_id))
                continue
            if watch is not None:
                watch(run)
            if _long_past_deadline(run, configs):
                late.append(run_id)
        rolling = execution is not None and execution.state in workflows.RUNNING_STATES
        if len(ended) == len(known) and not rolling:
            return [ended[run_id] for run_id in known], execution
        if late and len(late) == len(known) - len(ended) and not rolling:
            raise GaveUp(late)
        time.sleep(POLL_SECONDS if watch is None else LIVE_POLL_SECONDS)


def _long_past_deadline(run, configs):
    config = configs.get(run.config_id)
    deadline = config and deadlines.deadline(config)
    return bool(deadline) and time.time() > deadline.timestamp() + GIVE_UP_SECONDS
