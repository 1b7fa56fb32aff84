"""Schedules made, paused, resumed, changed and deleted (runner.schedules) through the API
seam: Run Action makes them, and the project's retention schedule with its first; the Schedules
panel (content/schedules/) does the rest."""

import logging

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from horizon import messages

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import kept_secrets
from heat_deploy_runner import retention
from heat_deploy_runner import schedules as runner_schedules

LOG = logging.getLogger(__name__)

# What Mistral checks to make a schedule's cron trigger.
CREATE_RULES = (("workflow", "cron_triggers:create"),)
BAD_PATTERN = _("Give a cron pattern of five fields: minute, hour, day of the month, month "
                "and day of the week, e.g. 0 2 * * * for every day at 02:00 UTC.")


class _Calls(kept_secrets.SecretCalls):
    """A schedule's calls (runner.schedules.MistralCalls'), through the API seam."""

    def __init__(self, request):
        super().__init__(request)
        self.username = request.user.username

    def record_get(self, name):
        return api.mistral.schedule_record_get(self.request, name).variables

    def record_save(self, name, variables, create=False):
        return api.mistral.schedule_record_save(self.request, name, variables, create=create)

    def record_delete(self, name):
        api.mistral.schedule_record_delete(self.request, name)

    def trigger_create(self, name, workflow_input, pattern=None, first_time=None,
                       workflow=None):
        api.mistral.cron_trigger_create(self.request, name, workflow_input, pattern=pattern,
                                        first_time=first_time, workflow=workflow)

    def trigger_delete(self, name):
        api.mistral.cron_trigger_delete(self.request, name)

    def firing(self, trigger):
        return api.mistral.firing(self.request, trigger)


def create(request, record):
    """Save the record and start its trigger (runner.schedules.create); its name. The
    project's first schedule makes its retention schedule too: schedules are what fill
    Heat's caps with nobody watching."""
    name = runner_schedules.create(_Calls(request), record)
    try:
        if keep_retention(request):
            messages.info(request, _("Retention is now on for this project: its runs past "
                                     "the bound are archived and taken out of Heat, as the "
                                     "Schedules panel shows."))
    except Exception:
        # The schedule was made; the Schedules panel offers to turn retention on.
        LOG.warning('Could not make the retention schedule', exc_info=True)
    return name


def retention_settings():
    """(the retention bound, its cron pattern) of the dashboard's settings:
    HEAT_DEPLOY_RETENTION = {'keep_latest': 5, 'keep_days': 7, 'keep_at_most': 2000,
    'pattern': '17 3 * * *'}, defaults for what it leaves out."""
    configured = getattr(settings, 'HEAT_DEPLOY_RETENTION', None) or {}
    return retention.Policy.of(configured), configured.get('pattern', retention.PATTERN)


def keep_retention(request):
    """Make the project's retention schedule unless it has one; whether it was made."""
    return runner_schedules.keep_retention(_Calls(request), *retention_settings())


GOES_ON = _("The firing now running goes on; no more firings.")


def _said_if_going_on(request, goes_on):
    if goes_on:
        messages.info(request, GOES_ON)


def pause(request, name):
    _said_if_going_on(request, runner_schedules.pause(_Calls(request), name))


def resume(request, name):
    runner_schedules.resume(_Calls(request), name, retention_settings())


def change(request, name, record):
    if runner_schedules.change(_Calls(request), name, record):
        messages.info(request, _("The firing now running goes on as it was; the next firing "
                                 "runs the change."))


def delete(request, name):
    _said_if_going_on(request, runner_schedules.delete(_Calls(request), name))
