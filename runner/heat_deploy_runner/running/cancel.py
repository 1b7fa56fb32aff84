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

"""Cancel a running deployment, and read what its server sent anyway.

Heat has no cancel call. Like Heat's own cancel it is an update to FAILED
while IN_PROGRESS: Heat then ignores any later signal. It does not stop
the server, so its result may still arrive in the signal target: a "late
result" the dashboard can show beside the cancel.
"""

from collections.abc import Callable
from datetime import datetime
from datetime import timezone
import logging

from heat_deploy_runner.configs import derived
from heat_deploy_runner.running.results import collect
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.signalling.signals import FAILED
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner.signalling.signals import SignalTransport
from heat_deploy_runner.signalling.transports import transport_of
from heat_deploy_runner.times import utc_text

LOG = logging.getLogger(__name__)

# Stored in Heat and recognised later by its prefix, so it is not
# translated: a reason written in one language must read back in any.
CANCEL_REASON_PREFIX = 'Cancelled by '
CANCEL_REASON = CANCEL_REASON_PREFIX + '%(user)s at %(time)s'


def cancel_reason(user: str, now: datetime) -> str:
    """"Cancelled by <user> at <UTC, seconds>Z"; a naive ``now`` is UTC."""
    return CANCEL_REASON % {'user': user, 'time': utc_text(now)}


def cancelled_description(user: str, now: datetime | None = None) -> str:
    """What a cancelled run in batches (a Mistral execution) is described as, for the
    operation's page: the sentence a cancelled run's status reason is, at ``now`` (by
    default the present)."""
    return cancel_reason(user, now or datetime.now(timezone.utc))


def cancel(heat, deployment_id: str, user: str,
           find_transport: Callable[[str], SignalTransport],
           now: datetime | None = None):
    """Mark a running deployment FAILED as cancelled by ``user``.

    Only an IN_PROGRESS deployment is changed, so a second cancel, or one
    racing the server's result, changes nothing. A result already waiting
    is applied first, whichever transport brought it. Returns the
    deployment as it is afterwards, a Run.
    """
    # Showing an IN_PROGRESS deployment makes Heat apply a result already
    # waiting in Swift; collect does the same for one Heat does not read.
    deployment = _with_waiting_result(
        heat, Run.from_heat(heat.software_deployments.get(deployment_id)), find_transport)
    if deployment.status != IN_PROGRESS:
        return deployment
    reason = cancel_reason(user, now or datetime.now(timezone.utc))
    # Only these two keys: Heat drops null keys on PUT, and anything else
    # sent would overwrite what the deployment holds.
    return Run.from_heat(heat.software_deployments.update(
        deployment_id, status=FAILED, status_reason=reason))


def _with_waiting_result(heat, run, find_transport):
    if run.status != IN_PROGRESS:
        return run
    config = derived.config_or_none(heat, run.config_id)
    if config is None:
        return run
    try:
        return collect(heat, run.described(config), find_transport)
    except Exception:
        # A cancel must work while the messaging service is down; a result
        # it could not read becomes the late result.
        LOG.warning('Could not look for the result of deployment %s before '
                    'cancelling it', run.id, exc_info=True)
        return run


def is_cancelled(run) -> bool:
    """Whether the run (a Run) was cancelled."""
    return (run.status == FAILED and
            (run.status_reason or '').startswith(CANCEL_REASON_PREFIX))


# A cancelled run is FAILED in Heat (cancel can only fail a run): shown as what it is.
CANCELLED = 'CANCELLED'


def shown_status(run) -> str | None:
    """The status a run is shown and filtered by: Heat's, CANCELLED for a cancelled one."""
    return CANCELLED if is_cancelled(run) else run.status


def late_result(heat, run, find_transport: Callable[[str], SignalTransport]) -> dict | None:
    """What the server of a cancelled run (a Run; its derived config is read when it has
    none) sent after the cancel.

    None when the run is not cancelled, its config is gone, or nothing arrived.
    ``find_transport`` maps a transport name to a transport, e.g.
    ``functools.partial(transports.transport_for, swift=connection)``.
    """
    if not is_cancelled(run):
        return None
    config = run.config or derived.config_or_none(heat, run.config_id)
    if config is None:
        return None
    values = derived.derived_input_values(config)
    transport = transport_of(values, find_transport)
    return transport.read_result(values) if transport else None
