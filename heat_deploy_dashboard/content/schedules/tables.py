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

import datetime

from django import shortcuts
from django.utils import formats
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from horizon import messages
from horizon import tables
from openstack_dashboard.api import base

from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.notices import subjects as notices
from heat_deploy_dashboard.content import policy
from heat_deploy_dashboard.content.runs import rolling
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content.schedules import schedules
from heat_deploy_dashboard.content import scheduling
from heat_deploy_runner.running import runs
from heat_deploy_runner.scheduling import schedules as runner_schedules
from heat_deploy_runner.times import UTC_TIME


def local_time(moment):
    """An aware time in the user's time zone (Horizon's setting), with the zone named."""
    return formats.date_format(timezone.localtime(moment), 'Y-m-d H:i T') if moment else ''


def _inputs(schedule):
    # As the run pages show values (true, JSON), not as Python prints them (True, {'a': 1}).
    return ', '.join(f'{name} = {runs.display_text(None, value)}'
                     for name, value in sorted(schedule.inputs.items()))


def _when(schedule):
    if schedule.record.get('pattern'):
        return _("%(pattern)s (cron, UTC)") % {'pattern': schedule.record['pattern']}
    return _("once, at %(time)s UTC") % {'time': schedule.record.get('once_at')}


def _last_url(schedule):
    return run_tables.operation_url(schedule.last.id) if schedule.last else None


def _last(schedule):
    if schedule.last is None:
        return None
    return '%s (%s)' % (local_time(runner_schedules.mistral_time(schedule.last.created_at)),
                        rolling.STATES.get(schedule.last.state, schedule.last.state))


def _change_time(text):
    """The time a history entry gives (runner.times.UTC_TIME) in the user's time zone; as
    it is written when it is not such a time."""
    try:
        moment = datetime.datetime.strptime(text, UTC_TIME)
    except (TypeError, ValueError):
        return text
    return local_time(moment.replace(tzinfo=datetime.timezone.utc))


def _last_change(schedule):
    """"paused by demo, 2026-11-27 06:40 UTC". Horizon escapes it: the username, as the
    rest of the entry, is whatever Mistral's environment holds."""
    change = schedule.last_change
    if change is None:
        return None
    what = str(change.get('what'))
    return _("%(what)s by %(user)s, %(time)s") % {
        'what': schedules.CHANGES.get(what, what), 'user': change.get('by'),
        'time': _change_time(change.get('at'))}


class ChangeSchedule(policy.RulesOncePerRequest, tables.LinkAction):
    name = "change"
    verbose_name = _("Change Schedule")
    url = "horizon:project:schedules:change"
    classes = ("ajax-modal",)
    icon = "pencil"
    # Run Action's rules, and remaking the trigger.
    policy_rules = run_tables.RUN_ACTION_RULES + (
        ("workflow", "cron_triggers:create"), ("workflow", "cron_triggers:delete"))

    def allowed(self, request, schedule=None):
        return super().allowed(request, schedule) and (schedule is None
                                                       or schedule.runs_on_servers)


class ScheduleNotices(policy.RulesOncePerRequest, tables.LinkAction):
    """The schedule's notices (content/notices): who is told of its firings' outcome, Notify
    Me and Remove, on a page of their own."""

    name = "notices"
    verbose_name = _("Notices")
    icon = "bell"
    policy_rules = notices.RULES[notices.SCHEDULE]

    def get_link_url(self, schedule):
        return notices.notices_url(notices.SCHEDULE, schedule.name)

    def allowed(self, request, schedule=None):
        return (super().allowed(request, schedule)
                and base.is_service_enabled(request, notices.SERVICE_TYPE)
                and (schedule is None or schedule.runs_on_servers))


class PauseSchedule(policy.RulesOncePerRequest, tables.BatchAction):
    name = "pause"
    policy_rules = (("workflow", "cron_triggers:delete"),)
    help_text = _("Nothing runs while a schedule is paused; it keeps what it runs and when.")

    @staticmethod
    def action_present(count):
        return ngettext("Pause Schedule", "Pause Schedules", count)

    @staticmethod
    def action_past(count):
        return ngettext("Paused Schedule", "Paused Schedules", count)

    def allowed(self, request, schedule=None):
        return super().allowed(request, schedule) and (schedule is None
                                                       or schedule.trigger is not None)

    def action(self, request, obj_id):
        scheduling.pause(request, obj_id)


class ResumeSchedule(policy.RulesOncePerRequest, tables.BatchAction):
    name = "resume"
    policy_rules = (("workflow", "cron_triggers:create"),)
    help_text = _("The schedule runs again from its next time, acting for you: Mistral makes "
                  "a new trust from you for it.")

    @staticmethod
    def action_present(count):
        return ngettext("Resume Schedule", "Resume Schedules", count)

    @staticmethod
    def action_past(count):
        return ngettext("Resumed Schedule", "Resumed Schedules", count)

    def allowed(self, request, schedule=None):
        return super().allowed(request, schedule) and (schedule is None or schedule.paused)

    def action(self, request, obj_id):
        scheduling.resume(request, obj_id)


class TurnOnRetention(policy.RulesOncePerRequest, tables.Action):
    name = "retention"
    verbose_name = _("Turn On Retention")
    requires_input = False
    policy_rules = (("workflow", "cron_triggers:create"),)
    help_text = _("Mistral then archives the project's runs past the bound in its Object "
                  "Storage and deletes them from Heat, daily by default: Heat caps each "
                  "project's runs.")

    def allowed(self, request, datum=None):
        return super().allowed(request, datum) and not self.table.retention_on

    def single(self, table, request, obj_id):
        try:
            scheduling.keep_retention(request)
        except Exception:
            errors.heat_failed(request, _("turn retention on"), service=errors.MISTRAL)
        else:
            messages.success(request, _("Retention is on: it is listed with the "
                                        "schedules."))
        return shortcuts.redirect(request.get_full_path())


class DeleteSchedule(policy.RulesOncePerRequest, tables.DeleteAction):
    policy_rules = (("workflow", "cron_triggers:delete"),)
    help_text = _("Runs it already started are kept.")

    @staticmethod
    def action_present(count):
        return ngettext("Delete Schedule", "Delete Schedules", count)

    @staticmethod
    def action_past(count):
        return ngettext("Deleted Schedule", "Deleted Schedules", count)

    def delete(self, request, obj_id):
        scheduling.delete(request, obj_id)


class SchedulesTable(empty.ExplainingTable):
    """The project's schedules (schedules.Schedule), one row each."""

    component = tables.Column("component", verbose_name=_("Component"),
                              link=lambda s: s.component_url)
    action = tables.Column("action", verbose_name=_("Action"))
    servers = tables.Column("servers", verbose_name=_("Servers"))
    inputs = tables.Column(_inputs, verbose_name=_("Inputs"))
    when = tables.Column(_when, verbose_name=_("When"))
    next_run = tables.Column(lambda s: local_time(s.next_run), verbose_name=_("Next Run"))
    state = tables.Column("state", verbose_name=_("State"))
    last = tables.Column(_last, verbose_name=_("Last Operation"), link=_last_url,
                         empty_value=_("None yet"))
    last_change = tables.Column(_last_change, verbose_name=_("Last Change"))
    problem = tables.Column(lambda s: s.problem(), verbose_name=_("Problem"),
                            empty_value='')

    # Whether the project's retention schedule is among its schedules, on any page: set by
    # the view.
    retention_on = False

    class Meta:
        name = "schedules"
        verbose_name = _("Schedules")
        table_actions = (TurnOnRetention, DeleteSchedule)
        row_actions = (ChangeSchedule, ScheduleNotices, PauseSchedule, ResumeSchedule,
                       DeleteSchedule)
