import dataclasses

from django.utils.translation import gettext_lazy as _
from horizon import tables
from horizon import tabs as horizon_tabs

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content.deployments import rows
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content.servers import tables as project_tables
from heat_deploy_dashboard.content.servers import tabs as project_tabs


@dataclasses.dataclass
class ServerSummary:
    """One server with deployments: how many runs ended how, and its latest run."""

    id: str
    latest: object
    complete: int = 0
    failed: int = 0
    in_progress: int = 0


_COUNTED = {'COMPLETE': 'complete', 'FAILED': 'failed', 'IN_PROGRESS': 'in_progress'}


def server_summaries(deployments):
    """The servers of a deployment listing, most recently deployed to first.

    A server is labelled by its id. Its name is in Heat only as a resource of the stack that
    made it, and reading it would cost a call per stack or per server; Heat's deployment
    listing has ids only.
    """
    servers = {}
    # Heat writes times as ISO 8601 in UTC with a fixed width, so the strings sort in time
    # order; the id breaks ties between runs started in the same second.
    for deployment in sorted(deployments, key=lambda d: (d.creation_time, d.id)):
        server = servers.setdefault(deployment.server_id,
                                    ServerSummary(deployment.server_id, deployment))
        server.latest = deployment
        counter = _COUNTED.get(deployment.status)
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
            servers = server_summaries(project_runs.deployments(self.request))
            rows.with_run_names(self.request, [server.latest for server in servers])
        except Exception:
            return errors.list_failed(
                self,
                _("Unable to retrieve the servers' software deployments: the orchestration "
                  "service could not be reached or answered with an error. Try again "
                  "later, or ask your cloud administrator to check Heat."),
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
        context['title'] = _("Server %(server)s") % {'server': self.kwargs['server_id']}
        return context
