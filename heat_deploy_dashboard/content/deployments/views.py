from django.utils.translation import gettext_lazy as _
from horizon import exceptions
from horizon import tables

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content.deployments import tables as project_tables


class IndexView(tables.DataTableView):
    table_class = project_tables.DeploymentsTable
    template_name = 'project/deployments/index.html'
    page_title = _("Software Deployments")

    def get_data(self):
        try:
            deployments = api.heat.deployments_list(self.request)
        except Exception:
            # details='' keeps the client's raw error text (URLs, tracebacks
            # from Heat) out of the page; Horizon still logs it.
            exceptions.handle(
                self.request,
                _("Unable to retrieve software deployments: the "
                  "orchestration service could not be reached or answered "
                  "with an error. Try again later, or ask your cloud "
                  "administrator to check Heat."),
                details='')
            # An empty table must not claim that there are no deployments.
            # Horizon's own browsers/views.py sets this attribute the same way.
            self.table._no_data_message = _(
                "Software deployments could not be loaded.")
            return []
        # Heat writes times as ISO 8601 in UTC with a fixed width, so the
        # strings sort in time order.
        return sorted(deployments, key=lambda d: d.creation_time,
                      reverse=True)
