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

"""Schedules made, paused, resumed, changed and deleted (runner.scheduling.schedules, which
api.mistral calls): Run Action makes them, and the project's retention schedule with its first; the
Schedules panel (content/schedules/) does the rest."""

import logging

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from horizon import messages

from heat_deploy_dashboard import api
from heat_deploy_runner.pruning import retention

LOG = logging.getLogger(__name__)

# What Mistral checks to make a schedule's cron trigger.
CREATE_RULES = (("workflow", "cron_triggers:create"),)
BAD_PATTERN = _("Give a cron pattern of five fields: minute, hour, day of the month, month "
                "and day of the week, e.g. 0 2 * * * for every day at 02:00 UTC.")


def create(request, record):
    """Save the record and start its trigger (runner.scheduling.schedules.create); its name. The
    project's first schedule makes its retention schedule too: schedules are what fill
    Heat's caps with nobody watching."""
    name = api.mistral.schedule_create(request, record)
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
    return api.mistral.retention_keep(request, *retention_settings())


GOES_ON = _("The firing now running goes on; no more firings.")


def _said_if_going_on(request, goes_on):
    if goes_on:
        messages.info(request, GOES_ON)


def pause(request, name):
    _said_if_going_on(request, api.mistral.schedule_pause(request, name))


def resume(request, name):
    api.mistral.schedule_resume(request, name, retention_settings())


def change(request, name, record):
    if api.mistral.schedule_change(request, name, record):
        messages.info(request, _("The firing now running goes on as it was; the next firing "
                                 "runs the change."))


def delete(request, name):
    _said_if_going_on(request, api.mistral.schedule_delete(request, name))
