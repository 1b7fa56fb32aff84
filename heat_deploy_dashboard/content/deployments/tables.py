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

"""The Deployments panel's own tables: its list of runs, an operation's runs, and a run's
actions on its page. The columns and actions every panel shows runs with are in
content/runs/tables.py."""

import datetime

from django import shortcuts
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from horizon import messages
from horizon import tables

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import policy
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import times
from heat_deploy_runner.running import runs


def _time_left(run):
    if run.status != 'IN_PROGRESS' or run.deadline is None:
        return ''
    left = max(run.deadline - datetime.datetime.now(datetime.timezone.utc),
               datetime.timedelta())
    # elapsed.js counts it down while the page is open.
    return format_html('<span class="hdd-elapsed" data-seconds="{}" data-count="down">{}</span>',
                       int(left.total_seconds()), times.duration(left))


def _last_line(run):
    # The place of the line the status poll brings while a live run goes (last_lines.js).
    return format_html('<span class="{}"></span>', 'hdd-last-line') if (
        run.status == 'IN_PROGRESS' and run.live) else ''


def _exit_code(run):
    code = runs.exit_code(run)
    return '' if code is None else code


class DeploymentsFilter(tables.FilterAction):
    filter_type = "server"
    filter_choices = (
        ("status", _("Status ="), True),
        ("action", _("Action ="), True),
        ("server", _("Server ="), True),
        ("operation", _("Operation ="), True),
    )


class DeploymentsTable(run_tables.RunsTable):
    """Every run of the project, a page at a time."""

    class Meta(run_tables.RunsTable.Meta):
        table_actions = (DeploymentsFilter, run_tables.CancelRun, run_tables.DeleteRun)
        verbose_name = _("Software Deployments")
        no_data_message = _(
            "No software deployments yet. Deployments appear here once a "
            "stack applies a software config to a server, or an action is "
            "run on one.")


class CancelOperation(run_tables.CancelRun):
    """Cancel every run of an operation still running, none ticked."""

    name = "cancel_all"
    requires_input = False
    classes = ("btn-danger",)
    help_text = _("Heat stops waiting for every run of this operation that is still "
                  "running, and marks them failed. A server that has already started may "
                  "still finish; its result will then be shown on its run's page as a late "
                  "result.")
    # confirm_words.js: Horizon's dialog would list the ticked rows, and none need be.
    attrs = dict(run_tables.CancelRun.attrs, **{'data-confirm-body': help_text})

    @staticmethod
    def action_present(count):
        return _("Cancel All Running")

    def get_default_attrs(self):
        # Horizon greys out a batch action until a row is ticked.
        return dict(super().get_default_attrs(), **{'data-batch-action': 'false'})

    def allowed(self, request, deployment=None):
        rolling_run = self.table.rolling_run
        return super().allowed(request, deployment) and (self.is_clicked(request) or any(
            each.status == 'IN_PROGRESS' for each in self.table.operation_runs) or (
                rolling_run is not None and rolling_run.running))

    def handle(self, table, request, obj_ids):
        # A rolling run first: no further batch starts while its running runs are cancelled.
        # A batch being started at this moment may still make its runs; they show here.
        stopped = table.rolling_run is not None and table.rolling_run.running and (
            self._stop_batches(request, table.rolling_run.id))
        running = obj_ids or [each.id for each in table.operation_runs
                              if each.status == 'IN_PROGRESS']
        if not running:
            if stopped:
                messages.success(request, _("No further batch of this operation will start."))
            else:
                messages.info(request, _("Nothing of this operation was running."))
            return shortcuts.redirect(table.get_full_url())
        return super().handle(table, request, running)

    @staticmethod
    def _stop_batches(request, execution_id):
        try:
            api.mistral.execution_cancel(request, execution_id)
        except Exception:
            errors.heat_failed(request, _("stop the operation's further batches"),
                               service=errors.MISTRAL)
            return False
        return True


class RerunFailed(policy.RulesOncePerRequest, tables.LinkAction):
    """The Run Action form of the operation's component, with its action and inputs, and the
    servers whose run failed ticked."""

    name = "rerun_failed"
    verbose_name = _("Run Again on Failed")
    icon = "repeat"
    policy_rules = run_tables.RunAgain.policy_rules

    def get_link_url(self, datum=None):
        return reverse('horizon:project:deployments:operation_rerun',
                       args=[self.table.kwargs['operation_id']])

    def get_default_classes(self):
        # Shown by operation_summary.js once a run fails while the page is open.
        classes = super().get_default_classes()
        if not any(map(run_tables.is_failed, self.table.operation_runs)):
            classes = tuple(classes) + ('hidden',)
        return classes


def _try(run):
    """Which try on its server the run is, of how many: "2 of 3"; empty for an operation
    that tries once."""
    operation = run.operation
    if not (operation and operation.tries):
        return ''
    return _("%(try)d of %(tries)d") % {'try': operation.try_number, 'tries': operation.tries}


class OperationRunsTable(DeploymentsTable):
    """The runs of one operation, one per server."""

    # The operation's rolling run (api.mistral.Execution), if it is one, and its runs on
    # every page (the table shows one): set by the view.
    rolling_run = None
    operation_runs = ()

    duration = tables.Column(run_tables.duration_cell, verbose_name=_("Elapsed"))
    time_left = tables.Column(_time_left, verbose_name=_("Time Left"))
    exit_code = tables.Column(_exit_code, verbose_name=_("Exit Code"))
    last_line = tables.Column(_last_line, verbose_name=_("Last Line"))
    output = tables.Column(lambda run: _("Output"), verbose_name=_("Output"),
                           link=lambda run: reverse(
                               'horizon:project:deployments:archived' if run.archived
                               else 'horizon:project:deployments:detail', args=[run.id])
                           + '?tab=' + run_tables.OUTPUTS_TAB)
    try_number = tables.Column(_try, verbose_name=_("Try"))
    # Where the run is kept: retention moves old runs from Heat to the project's archive.
    kept = tables.Column(lambda run: _("Archive") if run.archived else _("Heat"),
                         verbose_name=_("Kept In"))

    def get_object_by_id(self, lookup):
        # Cancel All Running acts on the runs of every page, not this page's alone.
        found = next((run for run in self.operation_runs if run.id == lookup), None)
        return found or super().get_object_by_id(lookup)

    class Meta(DeploymentsTable.Meta):
        name = "operation"
        verbose_name = _("Runs")
        table_actions = (CancelOperation, RerunFailed)
        row_actions = (run_tables.CancelRun, run_tables.RunAgain)
        columns = ('server', 'status', 'status_reason', 'try_number', 'duration',
                   'time_left', 'exit_code', 'last_line', 'output', 'kept')


class DeploymentActionsTable(DeploymentsTable):
    """The actions of one deployment on its own page: they post to the deployments list,
    which carries them out and shows the result."""

    def get_absolute_url(self):
        return reverse("horizon:project:deployments:index")

    class Meta(DeploymentsTable.Meta):
        name = "deployments"
