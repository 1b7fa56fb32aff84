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

import dataclasses
import logging

from django import http
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext_lazy as _
from horizon import forms
from horizon import tables
from horizon import tabs as horizon_tabs
from horizon.utils import http as http_utils

from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content import run_rows
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content.servers import tables as project_tables
from heat_deploy_dashboard.content.servers import tabs as project_tabs

LOG = logging.getLogger(__name__)


@dataclasses.dataclass
class ServerSummary:
    """One server with deployments: how many runs ended how, and its latest run."""

    id: str
    latest: object
    complete: int = 0
    failed: int = 0
    cancelled: int = 0
    in_progress: int = 0


# By the status each run is shown with: a cancelled run is FAILED in Heat.
_COUNTED = {'COMPLETE': 'complete', 'FAILED': 'failed', 'CANCELLED': 'cancelled',
            'IN_PROGRESS': 'in_progress'}


def server_summaries(deployments):
    """The servers of a deployment listing, most recently deployed to first.

    A server is named by the table (server_names): Heat's deployment listing has ids only.
    """
    servers = {}
    # Heat writes times as ISO 8601 in UTC with a fixed width, so the strings sort in time
    # order; the id breaks ties between runs started in the same second.
    for deployment in sorted(deployments, key=lambda d: (d.creation_time, d.id)):
        server = servers.setdefault(deployment.server_id,
                                    ServerSummary(deployment.server_id, deployment))
        server.latest = deployment
        counter = _COUNTED.get(run_tables.shown_status(deployment))
        if counter:
            setattr(server, counter, getattr(server, counter) + 1)
    return sorted(servers.values(), key=lambda s: (s.latest.creation_time, s.id),
                  reverse=True)


class IndexView(tables.DataTableView):
    table_class = project_tables.ServersTable
    template_name = 'project/servers/index.html'
    page_title = _("Servers")

    def get_data(self):
        try:
            servers = server_summaries(
                run_rows.as_they_are(self.request, project_runs.deployments(self.request)))
            latest = run_rows.described(self.request, [server.latest for server in servers])
            for server, run in zip(servers, latest):
                server.latest = run
        except Exception:
            return errors.list_failed(self, _("retrieve the servers' software deployments"),
                                      _("Servers could not be loaded."))
        return servers


class DetailView(PolicyRequiredMixin, horizon_tabs.TabbedTableView):
    """Every deployment on one server, its timeline, and what its agent reads.

    The URL holds any server id: Heat answers an unknown one, or one of another project,
    with an empty list, so the page says that it lists nothing rather than that the server
    does not exist.
    """

    tab_group_class = project_tabs.ServerTabs
    template_name = 'project/servers/detail.html'
    # The id comes from the URL: it goes in through the context, escaped, never into the
    # title's template text.
    page_title = "{{ title }}"
    # What Heat checks for the calls the history makes: the listing, and the derived configs
    # that give each run its name and inputs.
    policy_rules = (("orchestration", "software_deployments:index"),
                    ("orchestration", "software_configs:show"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        server_id = self.kwargs['server_id']
        context['title'] = _("Server %(name)s") % {
            'name': server_names.name_of(self.request, server_id)}
        return context


# Who may read a server's metadata may see it unmasked: the CLI shows it so.
METADATA_RULES = (("orchestration", "software_deployments:metadata"),)
METADATA_TAB = '?tab=server_details__metadata'


class RevealMetadataForm(forms.SelfHandlingForm):
    """Nothing to fill in: posting it, with its CSRF token, is the confirmation."""

    def handle(self, request, data):
        return True


class RevealMetadataView(PolicyRequiredMixin, forms.ModalFormView):
    """A server's metadata with its secrets: a GET asks to confirm, and only the POST shows
    them, so that no link, bookmark, history entry or page another site embeds does."""

    form_class = RevealMetadataForm
    template_name = 'project/servers/reveal.html'
    revealed_template_name = 'project/servers/revealed.html'
    modal_id = 'reveal_metadata_modal'
    page_title = _("Show Secrets")
    submit_label = _("Show Secrets")
    policy_rules = METADATA_RULES

    revealed = False

    def get(self, request, *args, **kwargs):
        self._require_runs()
        return super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        self._require_runs()
        return super().post(request, *args, **kwargs)

    def _require_runs(self):
        # Heat keeps metadata for a server only while deployments of it exist: one with none
        # in this project (another project's, or no server at all) is not found here.
        try:
            found = project_runs.deployments(self.request, server_id=self.kwargs['server_id'])
        except Exception:
            # The form says so when it cannot read the metadata either.
            LOG.warning('Could not list the deployments of server %s',
                        self.kwargs['server_id'], exc_info=True)
            return
        if not found:
            raise http.Http404(_("This project has no deployments on that server."))

    def get_template_names(self):
        if not self.revealed:
            return super().get_template_names()
        if http_utils.is_ajax(self.request):
            # Horizon's modal script shows an answer that is not a redirect as a new modal.
            return 'project/servers/_revealed.html'
        return self.revealed_template_name

    def get_cancel_url(self):
        return reverse('horizon:project:servers:detail',
                       args=[self.kwargs['server_id']]) + METADATA_TAB

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        server_id = self.kwargs['server_id']
        context['server_id'] = server_id
        context['server_name'] = server_names.name_of(self.request, server_id)
        context['submit_url'] = reverse('horizon:project:servers:reveal_metadata',
                                        args=[server_id])
        return context

    def form_valid(self, form):
        self.revealed = True
        context = self.get_context_data(form=form)
        context.update(project_tabs.MetadataTab.metadata_context(
            self.request, self.kwargs['server_id'], revealed=True))
        response = self.render_to_response(context)
        # Secrets: not for any cache, nor for the browser's back button.
        add_never_cache_headers(response)
        return response
