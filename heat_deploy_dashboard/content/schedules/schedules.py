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

"""The Schedules panel's schedules (runner.scheduling.schedules: what a schedule is), listed and
shown; content/scheduling.py makes, pauses, resumes, changes and deletes them."""

import dataclasses
import datetime

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content.runs import rolling
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner.scheduling import schedule_kinds
from heat_deploy_runner.scheduling import schedules as runner_schedules

# A firing this late with no operation made means Mistral could not act (see problem()).
LATE = datetime.timedelta(minutes=3)
STATES = {runner_schedules.ACTIVE: _("Active"), runner_schedules.PAUSED: _("Paused"),
          runner_schedules.DONE: _("Done"),
          runner_schedules.NO_TRIGGER: _("No trigger in Mistral")}
# What a schedule's history says was done (runner.scheduling.schedules.with_history), as shown.
CHANGES = {runner_schedules.CREATED: _("created"), runner_schedules.PAUSED: _("paused"),
           runner_schedules.RESUMED: _("resumed"), runner_schedules.CHANGED: _("changed")}


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
        return STATES[runner_schedules.state(self.record, self.trigger)]

    @property
    def paused(self):
        return bool(self.record.get('paused'))

    @property
    def next_run(self):
        return (runner_schedules.mistral_time(self.trigger.next_execution_time)
                if self.trigger else None)

    @property
    def inputs(self):
        return runner_schedules.shown_inputs(self.record)

    @property
    def last_change(self):
        """Who last made, paused, resumed or changed it, and when: its history's latest
        entry ({what, by, at}), or None (a schedule made before schedules kept one)."""
        return runner_schedules.last_change(self.record)

    @property
    def runs_on_servers(self):
        """Whether its firings run on servers (runner.scheduling.schedule_kinds): operations to be
        told of, and what Run Action's form changes."""
        return schedule_kinds.kind_of(self.record).runs_on_servers

    @property
    def component(self):
        return self.record.get('component_name')

    @property
    def component_url(self):
        return reverse('horizon:project:components:detail',
                       args=[self.record['component_id']])

    @property
    def action(self):
        # Not translated: custom action names are the template author's.
        return self.record.get('action')

    @property
    def servers(self):
        return ', '.join(self.names.get(each) or each
                         for each in self.record.get('server_ids', []))

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


class RetentionSchedule(Schedule):
    """The project's retention schedule (runner.scheduling.schedule_kinds.RETENTION): it archives
    the project's runs past the bound, on no server, with no component."""

    component_url = None

    @property
    def component(self):
        return _("Retention")

    @property
    def action(self):
        return _("Archive runs past the bound")

    @property
    def servers(self):
        return _("All of the project's")


_SHOWN = {schedule_kinds.RUN: Schedule, schedule_kinds.RETENTION: RetentionSchedule}


def listed(request):
    """The project's schedules, with their triggers and latest operations: three calls to
    Mistral below a thousand schedules (Mistral's page), two more from each thousand on."""
    records = api.mistral.schedule_records(request)
    triggers = {each.name: each for each in api.mistral.cron_triggers_list(request)}
    # The latest operations of every schedule, within Mistral's largest page.
    # A firing still running before any later one that ended (a paused schedule's last).
    latest = {}
    paused = {each.name: runner_schedules.paused_at(each.variables) for each in records}
    for execution in api.mistral.rolling_runs_list(request, min(1000, 20 + 2 * len(records))):
        schedule = execution.asked.schedule
        # The trigger kept for a paused schedule's last firing may fire once more: that
        # firing runs nothing (its plan retires it) and is not the schedule's latest.
        if execution.retired or (paused.get(schedule) and runner_schedules.mistral_time(
                execution.created_at) > paused[schedule]):
            continue
        if schedule not in latest or (execution.running and not latest[schedule].running):
            latest[schedule] = execution
    names = server_names.names(request)
    return [_SHOWN[schedule_kinds.kind_of(each.variables)](
        each.name, each.variables,
        triggers.get(runner_schedules.trigger_of(each.name, each.variables)),
        latest.get(each.name), names,
        server_names.missing(request, each.variables.get('server_ids', [])))
        for each in records]
