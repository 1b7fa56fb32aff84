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

"""What every panel's tables say of runs: the status words, a run's columns and actions, and
the table of runs (RunsTable) the Deployments panel's list and a server's history both are.
A panel's own tables are in its folder (the Deployments panel's in content/deployments/)."""

import collections
import logging

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.utils.translation import pgettext_lazy
from heatclient import exc as heat_exc
from horizon import exceptions
from horizon import messages
from horizon import tables

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import ids as content_ids
from heat_deploy_dashboard.content import policy
from heat_deploy_dashboard.content import recheck
from heat_deploy_dashboard.content import run_rows
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import times
import heat_deploy_runner as runner
from heat_deploy_runner import cli
from heat_deploy_runner.running.cancel import CANCELLED
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running import runs

LOG = logging.getLogger(__name__)

RUN_ACTION_RULES = (
    # Run Action creates a derived config and a deployment per server.
    ("orchestration", "software_configs:create"),
    ("orchestration", "software_deployments:create"),
)


# The run page's tab of outputs, as Horizon names it in a ?tab= link.
OUTPUTS_TAB = 'deployment_details__outputs'

STATUS_CHOICES = (
    ("COMPLETE", True),
    ("FAILED", False),
    (CANCELLED, False),
    ("IN_PROGRESS", None),
)

STATUS_DISPLAY_CHOICES = (
    ("COMPLETE",
     pgettext_lazy("Current status of a software deployment", "Complete")),
    ("FAILED",
     pgettext_lazy("Current status of a software deployment", "Failed")),
    (CANCELLED,
     pgettext_lazy("Current status of a software deployment", "Cancelled")),
    ("IN_PROGRESS",
     pgettext_lazy("Current status of a software deployment", "In Progress")),
)


def status_word(status):
    """A shown status as the tables word it, for pages that show it without a table."""
    return str(dict(STATUS_DISPLAY_CHOICES).get(status, status or ''))


def is_failed(run):
    """Whether the run failed, a cancelled one included: what Run Again on Failed runs."""
    return shown_status(run) in ('FAILED', CANCELLED)


# Horizon's colours of an outcome (Bootstrap's label classes), as its status cells use them.
STATUS_LABEL_CLASSES = {'COMPLETE': 'label-success', 'FAILED': 'label-danger',
                        CANCELLED: 'label-default', 'IN_PROGRESS': 'label-info'}


def status_counts(statuses):
    """[{status, label, label_class, count}] of shown statuses, in the order the tables list
    them."""
    counted = collections.Counter(statuses)
    return [{'status': status, 'label': label, 'label_class': STATUS_LABEL_CLASSES[status],
             'count': counted[status]}
            for status, label in STATUS_DISPLAY_CHOICES]


def operation_url(operation_id):
    """The page of one operation (runner.running.operations)."""
    return reverse('horizon:project:deployments:operation', args=[operation_id])


def status_reason_column():
    """A run's status reason column, the same in every table that shows one."""
    return tables.Column(lambda run: run.reason,
                         verbose_name=_("Status Reason"), classes=("hdd-status-reason",))


class DeploymentRow(tables.Row):
    def load_cells(self, datum=None):
        super().load_cells(datum)
        # What the live poller looks for: Horizon's status classes are generic CSS.
        self.attrs['data-status'] = self.datum.status
        # What an operation's counts are counted by (operation_summary.js).
        self.attrs['data-shown-status'] = shown_status(self.datum)


def status_column(run_of=lambda datum: datum, verbose_name=_("Status")):
    """A deployment status column, the same in every table that shows one; ``run_of`` gives
    a row's run."""
    return tables.Column(lambda datum: shown_status(run_of(datum)), verbose_name=verbose_name,
                         status=True, status_choices=STATUS_CHOICES,
                         display_choices=STATUS_DISPLAY_CHOICES)


class AlreadyFinished(Exception):
    """A run asked to be cancelled had finished: it is left as it is."""


class CancelRun(policy.RulesOncePerRequest, tables.BatchAction):
    name = "cancel"
    # "danger" is what makes Horizon ask for confirmation, with the help text below.
    action_type = "danger"
    help_text = _("Heat stops waiting for these runs and marks them failed. A server that "
                  "has already started a run may still finish it; its result will then be "
                  "shown on the deployment's page as a late result.")
    policy_rules = (("orchestration", "software_deployments:update"),)
    # Horizon's dialog dismisses with "Cancel", which beside "Cancel Run" reads as the action
    # itself: confirm_words.js names the button by this instead.
    attrs = {'data-dismiss-label': _("Keep running")}

    # Asked for each row as the page renders, in the request's language: ngettext_lazy with
    # a count would build a new lazy class on every call.
    @staticmethod
    def action_present(count):
        return ngettext("Cancel Run", "Cancel Runs", count)

    @staticmethod
    def action_past(count):
        return ngettext("Cancelled Run", "Cancelled Runs", count)

    def allowed(self, request, deployment=None):
        # Offered while a run is running; but a click on a page that was still showing it
        # running (a second click, a run that just finished) must not be an error.
        return super().allowed(request, deployment) and (
            deployment is None or deployment.status == 'IN_PROGRESS'
            or self.is_clicked(request))

    def is_clicked(self, request):
        """Whether this request is a click on this action: the pages' live polls POST too,
        and a row they redraw is offered what a fresh page would offer."""
        clicked = request.method == 'POST' and self.table.parse_action(
            request.POST.get('action'))
        return bool(clicked) and clicked[:2] == (self.table.name, self.name)

    def action(self, request, obj_id):
        deployment = api.deploy.cancel_deployment(request, obj_id)
        recheck.forget(request, obj_id)
        if not runner.is_cancelled(deployment):
            messages.info(request, _("%(run)s had already finished; it was left as it is.")
                          % {'run': self.table.get_object_display(
                              self.table.get_object_by_id(obj_id)) or obj_id})
            # Horizon counts a run whose action raised a HandledException neither cancelled
            # nor failed: the message above is the only one said of it.
            raise exceptions.HandledException(
                (AlreadyFinished, AlreadyFinished(obj_id), None))


class RunAgain(policy.RulesOncePerRequest, tables.LinkAction):
    name = "rerun"
    verbose_name = _("Run Again")
    url = "horizon:project:deployments:rerun"
    icon = "repeat"
    # A re-run creates a derived config and a deployment, like any trigger.
    policy_rules = (("orchestration", "software_deployments:create"),
                    ("orchestration", "software_configs:create"))

    def allowed(self, request, run=None):
        return super().allowed(request, run) and (run is None or run.rerunnable)

    def get_link_url(self, datum=None):
        if datum is not None and datum.archived:
            return reverse('horizon:project:deployments:archived_rerun', args=[datum.id])
        return super().get_link_url(datum)


class DeleteRun(policy.RulesOncePerRequest, tables.DeleteAction):
    help_text = _("This also deletes each run's derived config and the Object Storage "
                  "container its result was sent to. It does not undo what the server did.")
    policy_rules = (("orchestration", "software_deployments:delete"),)

    # Not lazy, as CancelRun's: asked for each row.
    @staticmethod
    def action_present(count):
        return ngettext("Delete Run", "Delete Runs", count)

    @staticmethod
    def action_past(count):
        return ngettext("Deleted Run", "Deleted Runs", count)

    def update(self, request, deployment):
        super().update(request, deployment)
        if deployment is not None:
            # A row's own button: its confirmation can name the command.
            self.help_text = _("%(what)s With the openstack client: %(command)s") % {
                'what': DeleteRun.help_text, 'command': cli.run_delete(deployment.id)}

    def delete(self, request, obj_id):
        for leftover in api.deploy.delete_deployment(request, obj_id):
            messages.warning(request, leftover.render(gettext))


def duration_cell(run):
    took = runs.duration(run)
    if took is None or run.status != 'IN_PROGRESS':
        return times.duration(took)
    # elapsed.js counts on from the server's figure while the page is open.
    return format_html('<span class="hdd-elapsed" data-seconds="{}">{}</span>',
                       int(took.total_seconds()), times.duration(took))


def operation_cell(run):
    if run.operation is None:
        return ''
    return format_html('<a href="{}" title="{}"><code>{}</code></a>',
                       operation_url(run.operation.id), run.operation.id,
                       run.operation.id[:8])


class RunsTable(empty.ExplainingTable):
    """A table of runs, one row each: the Deployments panel's list and a server's history
    are one (the status poll draws their running rows alike); each adds its own words."""

    next_step = ('horizon:project:components:index',
                 _("Run an action from the Components panel."))
    run_name = tables.Column("name", verbose_name=_("Run"),
                             link="horizon:project:deployments:detail",
                             empty_value=_("(config deleted)"),
                             # Wrapped: a long name must not push the buttons off the page.
                             classes=("hdd-run-name",))
    server = server_names.ServerColumn()
    # Not translated: besides Heat's lifecycle actions this holds the custom
    # action names (BACKUP, ROTATE_KEYS...) that template authors chose.
    action = tables.Column("action", verbose_name=_("Action"))
    status = status_column()
    status_reason = status_reason_column()
    created = tables.Column("creation_time",
                            verbose_name=_("Created"),
                            filters=(times.since,),
                            attrs={'data-type': 'timesince'})
    updated = tables.Column("updated_time",
                            verbose_name=_("Updated"),
                            filters=(times.since,))
    duration = tables.Column(duration_cell, verbose_name=_("Duration"))
    operation = tables.Column(operation_cell, verbose_name=_("Operation"))

    def get_object_by_id(self, lookup):
        # A run's own page posts its actions to this table, which holds one page of runs:
        # a run that is not on it is read from Heat.
        for deployment in self.data:
            if deployment.id == lookup:
                return deployment
        try:
            if content_ids.is_heat_id(lookup):
                return run_rows.described(self.request,
                                          [api.heat.deployment_get(self.request, lookup)])[0]
            missing = True
        except heat_exc.HTTPNotFound:
            missing = True
        except Exception:
            LOG.warning('Could not read deployment %s for an action', lookup, exc_info=True)
            missing = False
        # Horizon's redirect does not show its own message.
        messages.error(self.request, (
            _("This software deployment does not exist, or it is not in your project.")
            if missing else errors.heat_failed_message(_("retrieve the software deployment"))))
        raise exceptions.Http302(self.get_absolute_url())

    def get_object_display(self, deployment):
        # What the confirm dialogs of cancel and delete name.
        return _("%(run)s on %(server)s") % {
            'run': deployment.name or deployment.action,
            'server': server_names.name_of(self.request, deployment.server_id)}

    class Meta:
        name = "deployments"
        row_class = DeploymentRow
        table_actions = (CancelRun, DeleteRun)
        # A row's first allowed action is its button: Cancel while it runs, else Run Again.
        row_actions = (CancelRun, RunAgain, DeleteRun)
        status_columns = ["status"]
