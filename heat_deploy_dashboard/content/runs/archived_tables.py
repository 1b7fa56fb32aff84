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

"""The table of archived runs: the runs retention took out of Heat into the project's
archive (heat_deploy_runner.pruning.archive), read from Swift a page at a time."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from horizon import exceptions
from horizon import messages
from horizon import tables

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import ids as content_ids
from heat_deploy_dashboard.content import policy
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import times
from heat_deploy_runner import cli
from heat_deploy_runner.pruning import archive


def archived_url(run_id):
    return reverse('horizon:project:deployments:archived', args=[run_id])


class DeleteArchivedRun(policy.RulesOncePerRequest, tables.DeleteAction):
    help_text = _("This removes the run's record from the project's archive. It does not "
                  "undo what the server did.")
    policy_rules = (("orchestration", "software_deployments:delete"),)

    @staticmethod
    def action_present(count):
        return ngettext("Delete Archived Run", "Delete Archived Runs", count)

    @staticmethod
    def action_past(count):
        return ngettext("Deleted Archived Run", "Deleted Archived Runs", count)

    def update(self, request, run):
        super().update(request, run)
        if run is not None:
            self.help_text = _("%(what)s With the openstack client: %(command)s") % {
                'what': DeleteArchivedRun.help_text, 'command': cli.run_delete(run.id)}

    def delete(self, request, obj_id):
        api.swift.archive_delete(request, obj_id)


class ArchivedRunsTable(empty.ExplainingTable):
    """Archived runs, newest first, paged by the archive's own markers."""

    run_name = tables.Column("name", verbose_name=_("Run"), link=lambda run: archived_url(
        run.id), empty_value=_("(config deleted)"), classes=("hdd-run-name",))
    server = server_names.ServerColumn()
    action = tables.Column("action", verbose_name=_("Action"))
    status = run_tables.status_column()
    status_reason = run_tables.status_reason_column()
    created = tables.Column("creation_time", verbose_name=_("Created"),
                            filters=(times.since,))
    duration = tables.Column(run_tables.duration_cell, verbose_name=_("Duration"))
    operation = tables.Column(run_tables.operation_cell, verbose_name=_("Operation"))

    # The ?tab= of the page's tab that holds the table, kept by its page links.
    tab = None

    def get_marker(self):
        return archive.listed_as(self.data[-1]) if self.data else ''

    def get_prev_marker(self):
        return archive.listed_as(self.data[0]) if self.data else ''

    def _in_tab(self, query):
        return f'tab={self.tab}&{query}' if self.tab else query

    def get_pagination_string(self):
        return self._in_tab(super().get_pagination_string())

    def get_prev_pagination_string(self):
        return self._in_tab(super().get_prev_pagination_string())

    def get_object_by_id(self, lookup):
        # An archived run's own page posts its actions to this table.
        for run in self.data:
            if run.id == lookup:
                return run
        try:
            if content_ids.is_heat_id(lookup):
                return api.swift.archived_run(self.request, lookup)
            missing = True
        except LookupError:
            missing = True
        except Exception:
            missing = False
        messages.error(self.request, (
            _("This archived run does not exist, or it is not in your project.") if missing
            else errors.heat_failed_message(_("retrieve the archived run"),
                                            service=errors.SWIFT)))
        raise exceptions.Http302(reverse('horizon:project:deployments:index'))

    def get_object_display(self, run):
        return _("%(run)s on %(server)s") % {
            'run': run.name or run.action,
            'server': server_names.name_of(self.request, run.server_id)}

    class Meta:
        name = "archived"
        pagination_param = "archive_marker"
        prev_pagination_param = "archive_prev_marker"
        table_actions = (DeleteArchivedRun,)
        row_actions = (run_tables.RunAgain, DeleteArchivedRun)
        verbose_name = _("Archived Runs")
        status_columns = ["status"]
        no_data_message = _(
            "No archived runs. Retention archives the runs it takes out of Heat, to keep "
            "the project under Heat's limits; they are listed here.")
