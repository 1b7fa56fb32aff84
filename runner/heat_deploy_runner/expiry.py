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
from urllib import parse

from heat_deploy_runner import derived
from heat_deploy_runner.signals import FAILED
from heat_deploy_runner.signals import IN_PROGRESS
from heat_deploy_runner import tempurl
from heat_deploy_runner import zaqar

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

_TEMP_URL_EXPIRES = 'temp_url_expires'


def _utc(moment: datetime) -> datetime:
    # A naive time is UTC, as Heat and Zaqar write theirs.
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def _parse_time(value) -> datetime | None:
    """An ISO 8601 time ("...Z", with an offset or naive UTC) or Unix
    seconds, as UTC; None for anything else."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        seconds = value
    else:
        text = str(value).strip()
        try:
            seconds = int(text)
        except ValueError:
            if text[-1:] in ('Z', 'z'):
                text = text[:-1] + '+00:00'
            try:
                return _utc(datetime.fromisoformat(text))
            except ValueError:
                return None
    try:
        return datetime.fromtimestamp(seconds, timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None


def _temp_url_expiry(signal_id) -> datetime | None:
    if not isinstance(signal_id, str):
        return None
    query = parse.parse_qs(parse.urlparse(signal_id).query)
    expires = query.get(_TEMP_URL_EXPIRES)
    # Swift takes Unix seconds or ISO 8601 here.
    return _parse_time(expires[0]) if expires else None


def deadline(config) -> datetime | None:
    """When the signal target of the run of this derived config expires (UTC).

    None when the config has no expiring signal target: NO_SIGNAL, or a
    stack's deployment signalling through Heat, CFN or Heat's own Zaqar.
    """
    values = derived.derived_input_values(config)
    return (_temp_url_expiry(values.get(tempurl.SIGNAL_ID)) or
            _parse_time(values.get(zaqar.EXPIRES)))


def _minutes(config, run_deadline: datetime) -> int | None:
    # The target is prepared just before the derived config is created, so
    # the timeout is the time between the config's creation and the
    # deadline, less a few seconds: rounded, the minutes the run was given.
    created = _parse_time(derived.as_dict(config).get('creation_time'))
    if created is None or created >= run_deadline:
        return None
    return round((run_deadline - created) / timedelta(minutes=1))


def timed_out_reason(config, run_deadline: datetime) -> str:
    """"Timed out: the server did not report back by <UTC, seconds>Z
    (timeout: <N> min). Its agent either never ran it or could not send the
    result over <transport>."; without the minutes when the config's
    creation time is unknown."""
    reason = TIMED_OUT_REASON % {
        'deadline': _utc(run_deadline).strftime('%Y-%m-%dT%H:%M:%SZ')}
    minutes = _minutes(config, run_deadline)
    if minutes:
        reason += MINUTES_SUFFIX % {'minutes': minutes}
    transport = derived.derived_input_values(config).get(derived.SIGNAL_TRANSPORT)
    return reason + UNREPORTED_SUFFIX % {'transport': transport}


def is_overdue(deployment, config, now: datetime | None = None) -> bool:
    """Whether the deployment still runs after its deadline. No call made."""
    if derived.as_dict(deployment).get('status') != IN_PROGRESS:
        return False
    run_deadline = deadline(config)
    if run_deadline is None:
        return False
    return _utc(now or datetime.now(timezone.utc)) >= run_deadline


def as_timed_out(deployment, config) -> dict:
    """The deployment (past its deadline) as expire will record it, as a dict, for a page
    that shows it without changing anything in Heat."""
    return dict(derived.as_dict(deployment), status=FAILED,
                status_reason=timed_out_reason(config, deadline(config)))


def expire(heat, deployment, config, now: datetime | None = None):
    """The deployment, marked FAILED as timed out if it ran past its deadline.

    ``config`` is its derived config (dict or resource). Before the
    deadline, or once finished, nothing is asked of Heat. Past it, the
    deployment is read again first: showing a running deployment makes
    Heat apply a TempURL result the server sent in time (the caller applies
    a Zaqar one before calling this, see results.collect), and a result
    that arrived wins over the timeout. Returns the deployment as it is
    afterwards.
    """
    now = _utc(now or datetime.now(timezone.utc))
    if not is_overdue(deployment, config, now):
        return deployment
    deployment_id = derived.as_dict(deployment)['id']
    current = heat.software_deployments.get(deployment_id)
    if derived.as_dict(current).get('status') != IN_PROGRESS:
        return current
    reason = timed_out_reason(config, deadline(config))
    LOG.info('Deployment %s timed out: %s', deployment_id, reason)
    # Only these two keys, as cancel: Heat drops null keys on PUT, and
    # anything else sent would overwrite what the deployment holds.
    return heat.software_deployments.update(
        deployment_id, status=FAILED, status_reason=reason)
