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

"""The project's archived runs (heat_deploy_runner.pruning.archive): their list, each one's page
and outputs, and Run Again from them. Read from the project's Object Storage only: a member of
another project, or the admin, reads their own project's archive, where these ids are not."""

from django import http
from django import shortcuts
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views import generic
from horizon import messages
from horizon import tables
from horizon.utils import functions as horizon_utils

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content.deployments import views as deployment_views
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content.runs import archived_tables
from heat_deploy_dashboard.content.runs import operations
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_runner import cli
from heat_deploy_runner.pruning import archive

# Who may list and read runs in Heat may read them in the archive.
READ_RULES = (("orchestration", "software_deployments:index"),)


def archived(request, run_id):
    """The project's archived run of this id; Http404 when its archive has none."""
    try:
        return api.swift.archived_run(request, run_id)
    except LookupError:
        raise http.Http404(_("This archived run does not exist, or it is not in your "
                             "project."))
    except Exception:
        errors.heat_failed(request, _("retrieve the archived run"), service=errors.SWIFT,
                           redirect=reverse('horizon:project:deployments:archived_index'))


class ArchivedActionsTable(archived_tables.ArchivedRunsTable):
    """An archived run's actions on its own page: they post to the archived list."""

    def get_absolute_url(self):
        return reverse('horizon:project:deployments:archived_index')


class IndexView(PolicyRequiredMixin, tables.PagedTableMixin, tables.DataTableView):
    """The project's archived runs, newest first: one listing of the archive and one read
    per row, however many it holds."""

    table_class = archived_tables.ArchivedRunsTable
    template_name = 'project/deployments/archived_index.html'
    page_title = _("Archived Runs")
    policy_rules = READ_RULES

    def get_data(self):
        marker, direction = self._get_marker()
        try:
            found = api.swift.archive_page(self.request, archive.PROJECT,
                                           horizon_utils.get_page_size(self.request),
                                           marker, backwards=direction == 'asc')
        except Exception:
            return errors.list_failed(self, _("retrieve the archived runs"),
                                      _("Archived runs could not be loaded."),
                                      service=errors.SWIFT)
        self._has_prev_data, self._has_more_data = found.has_prev, found.has_more
        return found.runs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context['deployments_url'] = reverse('horizon:project:deployments:index')
        return context


class DetailView(deployment_views.DetailView):
    """An archived run's page: the run page's tabs, over the archive's record."""

    policy_rules = READ_RULES

    def get_data(self):
        return archived(self.request, self.kwargs['run_id'])

    def get_late_result(self):
        return None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = context['deployment']
        context['url'] = reverse('horizon:project:deployments:archived_index')
        context['actions'] = ArchivedActionsTable(self.request).render_row_actions(run)
        context['command'] = '\n'.join((cli.run_show(run.id), cli.run_output(run.id)))
        return context


class OutputDownloadView(PolicyRequiredMixin, generic.View):
    """The whole text of one output of an archived run, as a file."""

    policy_rules = READ_RULES

    def get(self, request, run_id, output_name):
        return deployment_views.output_file(archived(request, run_id), output_name)


class RerunView(PolicyRequiredMixin, generic.View):
    """The form the archived run came from, filled in with its action, server and inputs."""

    policy_rules = READ_RULES + run_tables.RunAgain.policy_rules

    def get(self, request, run_id):
        run = archived(request, run_id)
        source = operations.source_link(request, run.operation)
        if source is not None and run.config is not None:
            if source['component']:
                return deployment_views.run_action_form(source['id'], run.action,
                                                        [run.server_id], run.config)
            return deployment_views.deploy_form(source['id'], run)
        messages.error(request, _("The component or config this run came from is gone, so "
                                  "it cannot be run again from here."))
        return shortcuts.redirect(archived_tables.archived_url(run_id))
