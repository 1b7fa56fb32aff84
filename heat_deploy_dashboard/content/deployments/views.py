import re
import types
from urllib import parse

from django import http
from django import shortcuts
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views import generic
from heatclient import exc as heat_exc
from horizon import exceptions
from horizon import messages
from horizon import tables
from horizon import tabs as horizon_tabs
from horizon.utils import functions as horizon_utils
from horizon.utils import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content.deployments import paging
from heat_deploy_dashboard.content.deployments import rows
from heat_deploy_dashboard.content.deployments import tables as project_tables
from heat_deploy_dashboard.content.deployments import tabs as project_tabs
from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import ids as content_ids
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard import deploy
from heat_deploy_dashboard.deploy import cli
from heat_deploy_dashboard.deploy import runs


# What Heat checks for the calls a run's page makes: the deployment and its derived config.
SHOW_RULES = (("orchestration", "software_deployments:show"),
              ("orchestration", "software_configs:show"))


def _filtered(request, deployments, filters):
    """Heat lists a project's deployments whole (no filters but server_id), so the table's
    filters apply here; matching ignores case and surrounding spaces, a status may be typed
    as shown ("In Progress", "Cancelled"), and a server by its name or its id."""
    for field, value in filters.items():
        wanted = value.strip().lower()
        if field == 'server':
            deployments = [d for d in deployments
                           if server_names.matches(request, d.server_id, wanted)]
        elif field == 'status':
            wanted = wanted.replace(' ', '_')
            deployments = [d for d in deployments
                           if (project_tables.shown_status(d) or '').lower() == wanted]
        elif field == 'action':
            deployments = [d for d in deployments if (d.action or '').lower() == wanted]
    return deployments


def _of_operation(request, deployments, operation_id):
    """The runs of one operation, and the operation (None when no run of it is found). Its
    runs' configs were cached as they started; others are read for at most READ_SECONDS."""
    configs = config_cache.get_many(request, {d.config_id for d in deployments},
                                    seconds=directory.READ_SECONDS)
    found, operation = [], None
    for deployment in deployments:
        config = configs.get(deployment.config_id)
        of_run = config and deploy.operation_of(config)
        if of_run and of_run.id == operation_id:
            found.append(deployment)
            operation = of_run
    return found, operation


class IndexView(tables.PagedTableMixin, tables.DataTableView):
    table_class = project_tables.DeploymentsTable
    template_name = 'project/deployments/index.html'
    page_title = _("Software Deployments")

    def _operation_id(self):
        wanted = self.request.GET.get('operation', '')
        return wanted if content_ids.is_heat_id(wanted) else None

    def get_data(self):
        operation_id = self._operation_id()
        self.operation = None
        try:
            deployments = project_runs.deployments(self.request)
            if operation_id:
                deployments, self.operation = _of_operation(self.request, deployments,
                                                            operation_id)
        except Exception:
            return errors.list_failed(self, _("retrieve software deployments"),
                                      _("Software deployments could not be loaded."))
        # Heat writes times as ISO 8601 in UTC with a fixed width, so the
        # strings sort in time order; runs started in the same second keep one
        # order between pages by their ids.
        filters = {field: value for field, value in self.get_filters().items() if value}
        deployments = sorted(_filtered(self.request, deployments, filters),
                             key=lambda d: (d.creation_time, d.id), reverse=True)
        if filters and not deployments:
            self.table._no_data_message = empty.NO_MATCH
        marker, direction = self._get_marker()
        page = paging.page_of(deployments, horizon_utils.get_page_size(self.request),
                              marker, direction)
        self._has_prev_data, self._has_more_data = page.has_prev, page.has_more
        return rows.described(self.request, page.rows)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        operation_id = self._operation_id()
        if operation_id:
            context['operation_id'] = operation_id
            context['operation'] = self.operation
            context['all_url'] = reverse('horizon:project:deployments:index')
        return context


def _deployment_and_config(request, deployment_id):
    """The deployment and its derived config as plain dicts (config None if it is gone).

    Plain dicts: heatclient's lazily loaded resources would make another GET, and so another
    Swift check in Heat, for a key Heat left out (updated_time before the first update).
    """
    try:
        deployment = api.heat.deployment_get(request, deployment_id)
        # Through the cache the list and the poller already filled. Heat refuses to delete a
        # config a deployment uses, so a cached one cannot outlive its deployment.
        config = config_cache.get_many(request, [deployment.config_id]).get(
            deployment.config_id)
        if config is not None:
            deployment = rows.with_result_applied(request, deployment, config)
        return deployment.to_dict(), config
    except heat_exc.HTTPNotFound:
        # Another project's deployment, or a deleted one: the same answer for both.
        raise http.Http404(_("This software deployment does not exist, or it is not in "
                             "your project."))
    except Exception:
        errors.heat_failed(request, _("retrieve the software deployment"),
                           redirect=reverse('horizon:project:deployments:index'))


class DetailView(PolicyRequiredMixin, horizon_tabs.TabView):
    tab_group_class = project_tabs.DeploymentDetailTabs
    template_name = 'project/deployments/detail.html'
    page_title = "{{ title }}"
    policy_rules = SHOW_RULES

    @memoized.memoized_method
    def get_data(self):
        return _deployment_and_config(self.request, self.kwargs['deployment_id'])

    @memoized.memoized_method
    def get_late_result(self):
        deployment, _config = self.get_data()
        if not deploy.is_cancelled(deployment):
            return None
        try:
            return api.deploy.late_result(self.request, deployment)
        except Exception:
            # The page still shows the cancel; only the late result is missing.
            exceptions.handle(self.request, _("Unable to check whether the server reported "
                                              "after the cancel."), details='')
            return None

    def get_tabs(self, request, **kwargs):
        deployment, config = self.get_data()
        return self.tab_group_class(request, deployment=deployment, config=config,
                                    late_result=self.get_late_result(), **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        deployment, config = self.get_data()
        context['deployment'] = deployment
        context['title'] = _("%(name)s on %(server)s") % {
            'name': (config or {}).get('name') or deployment['action'],
            'server': deployment['server_id']}
        context['url'] = reverse('horizon:project:deployments:index')
        context['late_result'] = self.get_late_result()
        table = project_tables.DeploymentActionsTable(self.request)
        context['actions'] = table.render_row_actions(types.SimpleNamespace(**deployment))
        context['command'] = cli.deployment_show(deployment['id'])
        return context


class OutputDownloadView(PolicyRequiredMixin, generic.View):
    """The whole text of one output, however long, as a file."""

    policy_rules = SHOW_RULES

    def get(self, request, deployment_id, output_name):
        deployment, _config = _deployment_and_config(request, deployment_id)
        values = deployment.get('output_values') or {}
        if output_name not in values:
            raise http.Http404(_("This deployment has no output of that name."))
        response = http.HttpResponse(runs.output_text(values[output_name]),
                                     content_type='text/plain; charset=utf-8')
        # The server chose the output's name: quotes or line breaks in a header would break
        # the response.
        filename = re.sub(r'[^\w.-]+', '_', output_name, flags=re.ASCII)
        response['Content-Disposition'] = (
            f'attachment; filename="{deployment_id}-{filename}.txt"')
        return response


def _component_of(request, deployment_id):
    """The component whose config this run derives from, or None."""
    for component in directory.components(request):
        if any(each['id'] == deployment_id for each in component.deployments):
            return component
    return None


class RerunView(PolicyRequiredMixin, generic.View):
    """The Run Action form of the run's component, filled in with the run's action, server
    and inputs, for the user to check and submit."""

    policy_rules = SHOW_RULES + project_tables.RerunDeployment.policy_rules

    def get(self, request, deployment_id):
        deployment, config = _deployment_and_config(request, deployment_id)
        detail = reverse('horizon:project:deployments:detail', args=[deployment_id])
        try:
            component = _component_of(request, deployment_id)
        except Exception:
            errors.heat_failed(request, _("find the component of this run"), redirect=detail)
        if component is None or config is None:
            messages.error(request, _("This run did not come from a software component, so "
                                      "it cannot be run again from here."))
            return shortcuts.redirect(detail)
        query = [('action', deployment['action']), ('server', deployment['server_id'])]
        query += [(run_form.INPUT_PREFIX + name, text)
                  for name, text in runs.rerun_inputs(config).items()]
        return shortcuts.redirect(
            reverse('horizon:project:components:trigger', args=[component.id]) + '?' +
            parse.urlencode(query))
