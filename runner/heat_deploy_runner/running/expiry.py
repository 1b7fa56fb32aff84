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

"""A run whose result never arrives fails when its timeout passes.

Heat enforces no timeout on a standalone deployment: one whose server never
reports back (the agent is gone, the result was lost) would stay
IN_PROGRESS for ever. A run's signal target expires with its timeout (the
TempURL's ``temp_url_expires``, the Zaqar signed URL's ``URL-Expires``), so
that moment is the run's deadline. Past it, ``expire`` does what a cancel
does: an update to FAILED while IN_PROGRESS, with a reason that says it
timed out.

No late result is looked for afterwards, unlike after a cancel: Swift and
Zaqar refuse a result sent after the deadline, since the URL the server
signals through has expired with the timeout, so none can arrive.
"""

from datetime import datetime
from datetime import timedelta
from datetime import timezone
import logging

from heat_deploy_runner.configs import derived
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.signalling.signals import FAILED
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner import times

LOG = logging.getLogger(__name__)

# Stored in Heat and recognised later by its prefix, so it is not
# translated (as cancel's reason).
TIMED_OUT_PREFIX = 'Timed out: '
TIMED_OUT_REASON = (TIMED_OUT_PREFIX +
                    'the server did not report back by %(deadline)s')
MINUTES_SUFFIX = ' (timeout: %(minutes)d min)'
# Nothing came back, so the server cannot say why: these are the two ways it happens.
UNREPORTED_SUFFIX = ('. Its agent either never ran it or could not send the result over '
                     '%(transport)s.')


def _minutes(config, run_deadline: datetime) -> int | None:
    # The target is prepared just before the derived config is created, so
    # the timeout is the time between the config's creation and the
    # deadline, less a few seconds: rounded, the minutes the run was given.
    created = times.parse_time(derived.as_dict(config).get('creation_time'))
    if created is None or created >= run_deadline:
        return None
    return round((run_deadline - created) / timedelta(minutes=1))


def timed_out_reason(config, run_deadline: datetime) -> str:
    """"Timed out: the server did not report back by <UTC, seconds>Z
    (timeout: <N> min). Its agent either never ran it or could not send the
    result over <transport>."; without the minutes when the config's
    creation time is unknown."""
    reason = TIMED_OUT_REASON % {
        'deadline': times.utc_text(run_deadline)}
    minutes = _minutes(config, run_deadline)
    if minutes:
        reason += MINUTES_SUFFIX % {'minutes': minutes}
    transport = derived.derived_input_values(config).get(derived.SIGNAL_TRANSPORT)
    return reason + UNREPORTED_SUFFIX % {'transport': transport}


def is_overdue(run: Run, now: datetime | None = None) -> bool:
    """Whether the run (with its derived config) still runs after its deadline. No call
    made."""
    if run.status != IN_PROGRESS or run.deadline is None:
        return False
    return times.utc(now or datetime.now(timezone.utc)) >= run.deadline


def as_timed_out(run: Run) -> Run:
    """The run (past its deadline, with its derived config) as expire will record it, for a
    page that shows it without changing anything in Heat."""
    return run.changed(status=FAILED, status_reason=timed_out_reason(run.config, run.deadline))


def expire(heat, run: Run, now: datetime | None = None) -> Run:
    """The run (with its derived config), marked FAILED as timed out if it ran past its
    deadline.

    Before the deadline, or once finished, nothing is asked of Heat. Past it, the run is
    read again first: showing a running deployment makes Heat apply a TempURL result the
    server sent in time (the caller applies a Zaqar one before calling this, see
    results.collect), and a result that arrived wins over the timeout. Returns the run as it
    is afterwards, with its config.
    """
    now = times.utc(now or datetime.now(timezone.utc))
    if not is_overdue(run, now):
        return run
    current = Run.from_heat(heat.software_deployments.get(run.id)).described(run.config)
    if current.status != IN_PROGRESS:
        return current
    reason = timed_out_reason(run.config, run.deadline)
    LOG.info('Deployment %s timed out: %s', run.id, reason)
    # Only these two keys, as cancel: Heat drops null keys on PUT, and
    # anything else sent would overwrite what the deployment holds.
    return Run.from_heat(heat.software_deployments.update(
        run.id, status=FAILED, status_reason=reason)).described(run.config)
