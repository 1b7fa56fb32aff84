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

"""Settling a running run: what every reader that may write does before showing it (the
dashboard's status poll, Mistral's wait), so that a run ends the same way whoever watches.

A result waiting where Heat does not look (a Zaqar signal) is applied, then a run still
running past its deadline is recorded as timed out. The two calls are the caller's own, made
on its clients: the dashboard's API seam, or a Mistral action's clients.
"""

from collections.abc import Callable
import logging

from heatclient import exc as heat_exc

from heat_deploy_runner.configs import derived
from heat_deploy_runner.running.expiry import expire
from heat_deploy_runner.running.expiry import is_overdue
from heat_deploy_runner.running.results import collect
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.signalling.signals import IN_PROGRESS

LOG = logging.getLogger(__name__)


def settle(run: Run, collect: Callable[[Run], Run], expire: Callable[[Run], Run]) -> Run:
    """The run (with its derived config) after ``collect`` (results.collect) and, past its
    deadline, ``expire`` (expiry.expire); each given the run, answering it as it is after.

    A failure leaves the run as it was: the next look tries again, and a page or a workflow
    should not fail because the messaging service does. A run whose result could not be
    looked for is not timed out: its result may be waiting. Only a run past its deadline
    costs the second call.
    """
    if run.status != IN_PROGRESS or run.config is None:
        return run
    try:
        run = collect(run)
    except Exception:
        LOG.warning('Could not look for the result of deployment %s', run.id, exc_info=True)
        return run
    if not is_overdue(run):
        return run
    try:
        return expire(run)
    except Exception:
        LOG.warning('Could not mark deployment %s as timed out', run.id, exc_info=True)
        return run


def settled(heat, find_transport, run_id: str, configs: dict) -> Run:
    """The run of this id, read from Heat and settled (settle) on the caller's clients, as
    a watcher without the dashboard settles it (Mistral's wait, the command line's --wait).
    ``configs`` keeps the derived configs read, by id: they never change."""
    run = Run.from_heat(heat.software_deployments.get(run_id))
    if run.status != IN_PROGRESS:
        return run
    # One look, not "in" then a read: kept configs (kept_configs) may drop one meanwhile.
    config = configs.get(run.config_id)
    if config is None:
        config = configs[run.config_id] = derived.as_dict(
            heat.software_configs.get(run.config_id))
    return settle(
        run.described(config),
        lambda each: collect(heat, each, find_transport), lambda each: expire(heat, each))


# Heat filters its deployment listing by one server at most: up to this many servers are
# listed one by one (a short listing each); more, in one listing of the project's runs, which
# costs about as much as a few dozen short ones whatever the number of servers.
LISTED_ONE_BY_ONE = 5


def busy_servers(heat, find_transport, server_ids, configs: dict) -> list:
    """Those of the servers still running a run, as Heat shows it once settled: Heat's
    listing keeps a run IN_PROGRESS until someone shows it (a TempURL result is applied
    then) or applies its Zaqar result, so a run whose follower was lost would otherwise keep
    every later run off the server. A run gone meanwhile is not running. ``configs`` keeps
    the derived configs read, by id."""
    wanted = list(dict.fromkeys(server_ids))
    if len(wanted) <= LISTED_ONE_BY_ONE:
        rows = [row for server_id in wanted
                for row in heat.software_deployments.list(server_id=server_id)]
    else:
        rows = [row for row in heat.software_deployments.list() if row.server_id in wanted]
    busy = set()
    for row in rows:
        if row.status != IN_PROGRESS or row.server_id in busy:
            continue
        try:
            if settled(heat, find_transport, row.id, configs).status == IN_PROGRESS:
                busy.add(row.server_id)
        except heat_exc.HTTPNotFound:
            continue
    return [server_id for server_id in wanted if server_id in busy]
