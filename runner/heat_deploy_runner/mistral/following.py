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

"""How Mistral's wait and conclude read an operation's runs: when to look again at the
running ones (pause), and each run as it is now (settled_or_gone, with_results and
looked_at)."""

import functools
import logging
import time

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
import requests
from swiftclient import exceptions as swift_exc

from heat_deploy_runner.running.expiry import is_overdue
from heat_deploy_runner.running import results
from heat_deploy_runner.running import settling
from heat_deploy_runner.signalling import deadlines
from heat_deploy_runner.signalling.signals import NotAnswering
from heat_deploy_runner import times

# A look where results arrive costs a request per place (results.places): a submit's
# TEMP_URL_SIGNAL runs share one container, one listing for all 200. Up to FEW_PLACES, the
# running runs are looked at as often as a page polls (times.PAGE_POLL_SECONDS), however old:
# a result is then applied, and the outcome recorded, as soon as a page would see it. Runs in
# more places (a HEAD or a queue's stats each) are looked at as often while young, and less
# often as they age (the youngest's age over PACE), up to MAX_POLL_SECONDS. Either way Heat
# is read once per wait call, and for a run again only when its result may have arrived or
# its deadline has passed.
POLL_SECONDS = times.PAGE_POLL_SECONDS
MAX_POLL_SECONDS = 15
PACE = 10
FEW_PLACES = 4
LOG = logging.getLogger(__name__)
# How an action waits out a service failing for a moment (a_moments_failure): a wait call
# pauses the first before the workflow calls it again; another action, safe to run again, is
# run again after each, about a minute in all.
MOMENT_PAUSES = (5, 5, 10, 10, 15, 15)


def pause(running, now):
    """Seconds until the next look at the running runs: as often as a page polls where they
    are in FEW_PLACES, else as their youngest's age says (PACE); no later than the first
    deadline."""
    if len(results.places({row.id: row.config for row in running})) <= FEW_PLACES:
        wait = POLL_SECONDS
    else:
        ages = [(now - started).total_seconds() for started in
                (times.parse_time(row.creation_time) for row in running) if started]
        wait = min(MAX_POLL_SECONDS, max(POLL_SECONDS, min(ages, default=0) / PACE))
    ends = [deadlines.deadline(row.config) for row in running]
    to_deadline = min(((end - now).total_seconds() for end in ends if end), default=wait)
    return max(0, min(wait, to_deadline))


def settled_or_gone(clients, run_id, configs):
    """The run as Heat shows it, its waiting result applied (settling.settled); None once
    it was deleted."""
    try:
        return settling.settled(clients.heat, clients.find_transport, run_id, configs)
    except heat_exc.HTTPNotFound:
        return None


def with_results(clients, running):
    """The ids of the running runs whose result may have arrived (results.may_have_results:
    one cheap look where their results arrive, one for a submit's runs)."""
    try:
        return results.may_have_results({row.id: row.config for row in running},
                                        clients.find_transport)
    except NotAnswering:
        # Heat's show would wait on the service that does not answer: looked at next time.
        return set()


def looked_at(clients, row, configs, may_have_result):
    """The running run as it is now, read from Heat (settled) only when its result may have
    arrived (with_results) or its deadline has passed."""
    if may_have_result or is_overdue(row):
        return settled_or_gone(clients, row.id, configs)
    return row


def a_moments_failure(error: Exception) -> bool:
    """Whether ``error`` is a service not answering, or answering with its own failure (5xx):
    what a restart of Heat, Keystone, Swift, their database or their message bus looks like
    from here, and ends once it is back. Refusals (4xx) are answers, and are not."""
    # Keystone not answering a new session's look at its versions is a DiscoveryFailure.
    if isinstance(error, (NotAnswering, ks_exc.ConnectionError, ks_exc.DiscoveryFailure,
                          requests.exceptions.ConnectionError, requests.exceptions.Timeout)):
        return True
    if isinstance(error, heat_exc.HTTPException):
        return (error.code or 0) >= 500
    if isinstance(error, ks_exc.HttpError):
        return (error.http_status or 0) >= 500
    if isinstance(error, swift_exc.ClientException):
        return error.http_status is None or error.http_status >= 500
    return False


def waits_out_a_moment(run):
    """An action's run, made again after each of MOMENT_PAUSES while it fails for a service
    failing for a moment: for an action that reads, or whose every step is safe to do again."""
    @functools.wraps(run)
    def again(action, context):
        for pause in (*MOMENT_PAUSES, None):
            try:
                return run(action, context)
            except Exception as error:
                if pause is None or not a_moments_failure(error):
                    raise
                LOG.warning('Operation %s: %s met a service failing for a moment, run again '
                            'in %s s: %s', context.execution.workflow_execution_id,
                            type(action).__name__, pause, error)
                time.sleep(pause)
    return again
