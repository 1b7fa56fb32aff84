"""Schedules: a component's action run on its servers at times a cron pattern gives (or once),
by Mistral, with nobody's browser open.

Each is a Mistral cron trigger of heat-deploy-runner's rolling workflow, named
``hdd-<uuid>``, and an environment of the same name holding its record (what runs where,
when, whose), which stays while the schedule is paused: Mistral cannot pause a trigger, so
pausing deletes it and resuming makes it again (with a new trust, from the user who
resumes). A firing leaves out servers still running an earlier run (skip_busy), so a
schedule never runs twice at once on a server. Patterns are UTC, as Mistral reads them.
"""

import dataclasses
import datetime
import logging
import uuid

from croniter import croniter
from django.utils.translation import gettext_lazy as _

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import kept_secrets
from heat_deploy_dashboard.content.runs import rolling
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner import masking
from heat_deploy_runner import workflows

LOG = logging.getLogger(__name__)

# Mistral wants a first time at least a minute ahead.
MIN_LEAD = datetime.timedelta(minutes=2)
# A firing this late with no operation made means Mistral could not act (see problem()).
LATE = datetime.timedelta(minutes=3)
MISTRAL_TIME = '%Y-%m-%d %H:%M:%S'
# What Mistral checks to make a schedule's cron trigger.
CREATE_RULES = (("workflow", "cron_triggers:create"),)
BAD_PATTERN = _("Give a cron pattern of five fields: minute, hour, day of the month, month "
                "and day of the week, e.g. 0 2 * * * for every day at 02:00 UTC.")


def valid_pattern(pattern):
    """Whether Mistral takes this cron pattern: five fields, as croniter reads them."""
    return len(pattern.split()) == 5 and croniter.is_valid(pattern)


def next_times(pattern, count=5, now=None):
    """The next ``count`` times (aware, UTC) the pattern fires."""
    times = croniter(pattern, now or datetime.datetime.now(datetime.timezone.utc))
    return [times.get_next(datetime.datetime) for _each in range(count)]


def mistral_time(text):
    """A time as Mistral writes it (naive UTC), aware; None for none."""
    if not text:
        return None
    return datetime.datetime.strptime(text, MISTRAL_TIME).replace(tzinfo=datetime.timezone.utc)


@dataclasses.dataclass
class Schedule:
    """One schedule as the panel shows it."""

    name: str
    record: dict
    trigger: object = None
    last: object = None  # api.mistral.Execution
    names: dict = dataclasses.field(default_factory=dict)  # server names by id
    missing: list = dataclasses.field(default_factory=list)  # its servers not the project's

    @property
    def id(self):
        return self.name

    @property
    def state(self):
        if self.trigger is not None:
            return _("Active")
        if self.record.get('paused'):
            return _("Paused")
        if self.record.get('once_at'):
            # Mistral deletes a one-time trigger once it has fired.
            return _("Done")
        return _("No trigger in Mistral")

    @property
    def paused(self):
        return bool(self.record.get('paused'))

    @property
    def next_run(self):
        return mistral_time(self.trigger.next_execution_time) if self.trigger else None

    @property
    def inputs(self):
        shown = {name: masking.mask_value(name, value)
                 for name, value in (self.record.get('input_values') or {}).items()}
        # Kept in Object Storage (kept_secrets): only their names are in the record.
        return dict(shown, **{name: masking.MASK for name in self.record.get('secret_names', [])})

    def problem(self, now=None):
        """Why the schedule does not do its work, in a sentence; None when it does."""
        now = now or datetime.datetime.now(datetime.timezone.utc)
        if self.next_run and self.next_run + LATE < now:
            # Mistral moves next_execution_time on before it tries, and a refused trust is
            # only logged: the missed time is the only sign.
            return _("Mistral could not act for %(owner)s at %(time)s: the trust it holds "
                     "from them no longer works (a role lost, or the user gone). Resume "
                     "the schedule to act for you.") % {
                'owner': self.record.get('owner'), 'time': self.next_run.strftime(
                    '%Y-%m-%d %H:%M UTC')}
        if self.missing:
            # Heat takes a run for any server id; no agent reads it, so it times out.
            return _("Not among the project's servers any more: %(servers)s. Runs sent to "
                     "them wait until their timeout: change the schedule's servers, or "
                     "delete it.") % {'servers': ', '.join(self.missing)}
        if self.last is not None and not self.last.running:
            return rolling.reason(self.last)
        return None


def listed(request):
    """The project's schedules, with their triggers and latest operations: three calls to
    Mistral below a thousand schedules (Mistral's page), two more from each thousand on."""
    records = api.mistral.schedule_records(request)
    triggers = {each.name: each for each in api.mistral.cron_triggers_list(request)}
    # The latest operations of every schedule, within Mistral's largest page.
    latest = {}
    for execution in api.mistral.rolling_runs_list(request, min(1000, 20 + 2 * len(records))):
        latest.setdefault(execution.workflow_input.get('schedule'), execution)
    names = server_names.names(request)
    return [Schedule(each.name, each.variables, triggers.get(each.name), latest.get(each.name),
                     names, server_names.missing(request, each.variables.get('server_ids', [])))
            for each in records]


def _keeping_secrets(request, name, record):
    """The record as Mistral may hold it: its secret inputs kept in Object Storage, their
    names and reference in their place."""
    plain, ref = kept_secrets.keep(request, name, record.get('input_values'))
    secret_names = sorted(set(record.get('input_values') or {}) - set(plain))
    return dict(record, input_values=plain, secret_ref=ref, secret_names=secret_names)


def _start_trigger(request, name, record):
    first_time = record.get('once_at')
    api.mistral.cron_trigger_create(
        request, name, workflows.schedule_input(record, name, request.user.username),
        pattern=record.get('pattern'), first_time=first_time)


def create(request, record):
    """Save the record and start its trigger; on a failure, nothing is left behind."""
    name = api.mistral.SCHEDULE_PREFIX + str(uuid.uuid4())
    record = _keeping_secrets(request, name, dict(record, owner=request.user.username,
                                                  paused=False))
    try:
        api.mistral.schedule_record_save(request, name, record, create=True)
    except Exception:
        kept_secrets.forget(request, record['secret_ref'])
        raise
    try:
        _start_trigger(request, name, record)
    except Exception:
        api.mistral.schedule_record_delete(request, name)
        kept_secrets.forget(request, record['secret_ref'])
        raise
    return name


def pause(request, name):
    record = api.mistral.schedule_record_get(request, name).variables
    api.mistral.schedule_record_save(request, name, dict(record, paused=True))
    api.mistral.cron_trigger_delete(request, name)


def resume(request, name):
    record = dict(api.mistral.schedule_record_get(request, name).variables,
                  owner=request.user.username, paused=False)
    _start_trigger(request, name, record)
    api.mistral.schedule_record_save(request, name, record)


def change(request, name, record):
    """Give the schedule what to run and when anew, under its name. A paused one stays
    paused; otherwise its trigger is made again (Mistral cannot change one), acting for the
    user who changes it. On a failure the schedule is left as it was."""
    # The record first: it answers only the working project's.
    before = api.mistral.schedule_record_get(request, name).variables
    paused = bool(before.get('paused'))
    # New secrets get an object of their own: the old trigger may still need the old one.
    after = _keeping_secrets(request, name, dict(
        record, owner=before.get('owner') if paused else request.user.username,
        paused=paused))
    try:
        if paused:
            api.mistral.schedule_record_save(request, name, after)
        else:
            _remake_trigger(request, name, before, after)
    except Exception:
        kept_secrets.forget(request, after['secret_ref'])
        raise
    if not paused:
        api.mistral.schedule_record_save(request, name, after)
    kept_secrets.forget(request, before.get('secret_ref'))


def _remake_trigger(request, name, before, after):
    api.mistral.cron_trigger_delete(request, name)
    try:
        _start_trigger(request, name, after)
    except Exception:
        try:
            _start_trigger(request, name, before)
        except Exception:
            # A one-time schedule that has fired has no time left to start again at.
            LOG.warning("Could not restore schedule %s's trigger", name, exc_info=True)
        raise


def delete(request, name):
    # The record first: it answers only the working project's (Mistral would let an admin
    # delete any project's trigger by name).
    record = api.mistral.schedule_record_get(request, name).variables
    api.mistral.cron_trigger_delete(request, name)
    api.mistral.schedule_record_delete(request, name)
    kept_secrets.forget(request, record.get('secret_ref'))
