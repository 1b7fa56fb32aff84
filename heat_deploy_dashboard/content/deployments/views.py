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

import collections
import dataclasses
import re
from urllib import parse

from django import http
from django import shortcuts
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
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
from heat_deploy_dashboard.content.deployments import outcomes
from heat_deploy_dashboard.content.deployments import tables as project_tables
from heat_deploy_dashboard.content.deployments import tabs as project_tabs
from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.notices import subjects as notices
from heat_deploy_dashboard.content import paging
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content import recheck
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content import run_rows
from heat_deploy_dashboard.content.runs import operations
from heat_deploy_dashboard.content.runs import rolling
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import stack_maps
import heat_deploy_runner as runner
from heat_deploy_runner import cli
from heat_deploy_runner.running import runs
from heat_deploy_runner.signalling import live


# What Heat checks for the calls a run's page makes: the deployment and its derived config.
SHOW_RULES = (("orchestration", "software_deployments:show"),
              ("orchestration", "software_configs:show"))


def _filtered(request, deployments, filters):
    """Heat lists a project's deployments whole (no filters but server_id), so the table's
    filters apply here; matching ignores case and surrounding spaces, a status may be typed
    as shown ("In Progress", "Cancelled"), a server by its name or its id, and an operation
    by the start of its id (the table shows 8 characters)."""
    for field, value in filters.items():
        wanted = value.strip().lower()
        if field == 'operation':
            deployments = [d for d in deployments
                           if d.operation and d.operation.id.startswith(wanted)]
        elif field == 'server':
            deployments = [d for d in deployments
                           if server_names.matches(request, d.server_id, wanted)]
        elif field == 'status':
            wanted = wanted.replace(' ', '_')
            deployments = [d for d in deployments
                           if (run_tables.shown_status(d) or '').lower() == wanted]
        elif field == 'action':
            deployments = [d for d in deployments if (d.action or '').lower() == wanted]
    return deployments


class IndexView(tables.PagedTableMixin, tables.DataTableView):
    table_class = project_tables.DeploymentsTable
    template_name = 'project/deployments/index.html'
    page_title = _("Software Deployments")

    def get_data(self):
        try:
            deployments = project_runs.deployments(self.request)
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
            self.table.empty_reason = empty.NO_MATCH
        marker, direction = self._get_marker()
        page = paging.page_of(deployments, horizon_utils.get_page_size(self.request),
                              marker, direction)
        self._has_prev_data, self._has_more_data = page.has_prev, page.has_more
        recheck.remember_listed(self.request, page.rows)
        return run_rows.described(self.request, page.rows)


def _attention(run):
    # What an operator looks at first: what failed, then what still runs.
    return 0 if run_tables.is_failed(run) else 1 if run.status == 'IN_PROGRESS' else 2


class OperationView(PolicyRequiredMixin, tables.PagedTableMixin, tables.DataTableView):
    """One submit of Run Action or Deploy: its runs, one per server, as they go; a page at a
    time (Horizon's page size), the failed runs first, then the running ones."""

    table_class = project_tables.OperationRunsTable
    template_name = 'project/deployments/operation.html'
    page_title = "{{ title }}"
    policy_rules = SHOW_RULES

    @memoized.memoized_method
    def _operation(self):
        """The operation (operations.Found), its runs failed first, then running, each in
        server name order; None when a service could not be read."""
        found = operations.find(self.request, self.kwargs['operation_id'])
        if found is None:
            return None
        names = server_names.names(self.request)
        return dataclasses.replace(found, runs=sorted(found.runs, key=lambda run: (
            _attention(run), names.get(run.server_id) or run.server_id, run.id)))

    @memoized.memoized_method
    def _page(self):
        marker, direction = self._get_marker()
        page = paging.page_of(self._operation().runs,
                              horizon_utils.get_page_size(self.request), marker, direction)
        self._has_prev_data, self._has_more_data = page.has_prev, page.has_more
        return page.rows

    def get_data(self):
        found = self._operation()
        if found is None:
            self.table.empty_reason = _("The operation's runs could not be loaded.")
            return []
        # Cancel All Running stops the rolling run's next batches too (tables.CancelOperation);
        # a follower goes on, to record how the cancelled runs ended.
        self.table.rolling_run, self.table.operation_runs = found.rolling_run, found.runs
        # The page polls its running runs, those of its other pages too.
        recheck.remember_listed(self.request, found.runs)
        return self._page()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        found = self._operation()
        context['all_url'] = reverse('horizon:project:deployments:index')
        if found is None:
            context['title'] = _("Operation %(id)s") % {'id': self.kwargs['operation_id'][:8]}
            return context
        runs_found, configs = found.runs, found.configs
        operation, execution = found.operation, found.execution
        context['operation'] = operation
        context['archive_failed'] = found.archive_failed
        context['command'] = cli.operation_show(self.kwargs['operation_id'])
        names = server_names.names(self.request)
        context['followed'] = outcomes.summary(operation, execution, names)
        if execution is not None and execution.rolling:
            context['rolling'] = rolling.summary(execution, runs_found, names)
            asked = execution.asked.request
            action, count = asked.action, len(asked.server_ids)
        else:
            action, count = runs_found[0].action, len(runs_found)
        context['title'] = ngettext(
            "%(action)s on %(count)d server", "%(action)s on %(count)d servers",
            count) % {'action': action, 'count': count}
        context['action'] = action
        context['source'] = operations.source_link(self.request, operation,
                                                   runs_found[0] if runs_found else None)
        context['dependents'] = self._dependents(operation, context['source'])
        context['inputs'] = (runs.run_inputs(configs[runs_found[0].config_id]) if runs_found
                             else rolling.asked_inputs(execution))
        context['counts'] = run_tables.status_counts(
            map(run_tables.shown_status, runs_found))
        # The runs of the other pages: counted, and their running ones polled, with the
        # rows of this one (operation_summary.js, deployment_poller.js).
        shown = {run.id for run in self._page()}
        elsewhere = [run for run in runs_found if run.id not in shown]
        context['elsewhere_counts'] = collections.Counter(
            map(run_tables.shown_status, elsewhere))
        context['elsewhere_running'] = [run.id for run in elsewhere
                                        if run.status == 'IN_PROGRESS']
        context['notices'] = notices.subscriptions_context(
            self.request, notices.OPERATION, self.kwargs['operation_id'])
        return context

    def _dependents(self, operation, source):
        """The components that take the operation's component's outputs, to follow up on."""
        if not (source and source['component']):
            return []
        found = stack_maps.quietly(stack_maps.of_config_name, self.request, source['name'])
        return stack_maps.dependents(found, operation.source, server_names.names(self.request))


class OperationRerunView(PolicyRequiredMixin, generic.View):
    """The Run Action form of an operation's component, filled in with its action and
    inputs and with the servers whose run failed or was cancelled ticked."""

    policy_rules = SHOW_RULES + project_tables.RerunFailed.policy_rules

    def get(self, request, operation_id):
        page = run_tables.operation_url(operation_id)
        try:
            found, configs, operation, _archive_failed = operations.runs_of(
                request, operation_id)
        except Exception:
            errors.heat_failed(request, _("retrieve the operation's runs"), redirect=page)
        failed = [run for run in found if run_tables.is_failed(run)]
        source = operations.source_link(request, operation)
        config = failed and configs.get(failed[0].config_id)
        if not config or not (source and source['component']):
            messages.error(request, _("No failed run of this operation can be run again from "
                                      "here: each succeeded, is still running, or did not "
                                      "come from a software component."))
            return shortcuts.redirect(page)
        return run_action_form(operation.source, failed[0].action,
                               [run.server_id for run in failed], config)


def run_action_form(component_id, action, server_ids, config):
    """A redirect to the component's Run Action form filled in with the action, the servers
    ticked and the inputs of the run of ``config`` (secrets left out: runs.rerun_inputs)."""
    query = [('action', action)] + [('server', server_id) for server_id in server_ids]
    query += [(run_form.INPUT_PREFIX + name, text)
              for name, text in runs.rerun_inputs(config).items()] + _live_asked(config)
    return shortcuts.redirect(
        reverse('horizon:project:components:run', args=[component_id]) + '?' +
        parse.urlencode(query))


def _live_asked(config):
    """A run that had live output asks for it again; another takes the form's default."""
    return [('live', 'true')] if live.is_live(runner.derived_input_values(config)) else []


def deploy_form(config_id, run):
    """A redirect to the Configs panel's Deploy form of ``config_id``, filled in with the
    server, action, name and inputs of ``run`` (secrets left out)."""
    query = [('server', run.server_id), ('action', run.action),
             ('name', run.name.removesuffix('-' + run.action))]
    query += [(run_form.INPUT_PREFIX + input_name, text)
              for input_name, text in runs.rerun_inputs(run.config).items()]
    query += _live_asked(run.config)
    return shortcuts.redirect(
        reverse('horizon:project:configs:deploy', args=[config_id]) + '?' +
        parse.urlencode(query))


def _run(request, deployment_id):
    """The run with its derived config (None if it is gone), as a page that changes nothing
    shows it."""
    try:
        run = api.heat.deployment_get(request, deployment_id)
        # Through the cache the list and the poller already filled. Heat refuses to delete a
        # config a deployment uses, so a cached one cannot outlive its deployment.
        config = config_cache.get_many(request, [run.config_id]).get(run.config_id)
        # Read only: the page's poll records a timeout or a waiting result (rows).
        return run_rows.as_it_reads(run.described(config))
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
        return _run(self.request, self.kwargs['deployment_id'])

    @memoized.memoized_method
    def get_late_result(self):
        run = self.get_data()
        if not runner.is_cancelled(run):
            return None
        try:
            return api.deploy.late_result(self.request, run)
        except Exception:
            # The page still shows the cancel; only the late result is missing.
            exceptions.handle(self.request, _("Unable to check whether the server reported "
                                              "after the cancel."), details='')
            return None

    def get_tabs(self, request, **kwargs):
        return self.tab_group_class(request, run=self.get_data(),
                                    late_result=self.get_late_result(), **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = self.get_data()
        context['deployment'] = run
        context['title'] = _("%(name)s on %(server)s") % {
            'name': run.name or run.action,
            'server': server_names.name_of(self.request, run.server_id)}
        context['url'] = reverse('horizon:project:deployments:index')
        context['late_result'] = self.get_late_result()
        table = project_tables.DeploymentActionsTable(self.request)
        context['actions'] = table.render_row_actions(run)
        # One box for the page's tabs: the run, and its whole output.
        context['command'] = '\n'.join((cli.run_show(run.id), cli.run_output(run.id)))
        return context


class OutputDownloadView(PolicyRequiredMixin, generic.View):
    """The whole text of one output, however long, as a file."""

    policy_rules = SHOW_RULES

    def get(self, request, deployment_id, output_name):
        return output_file(_run(request, deployment_id), output_name)


def output_file(run, output_name):
    """The response that downloads one output of the run whole."""
    values = run.output_values
    if output_name not in values:
        raise http.Http404(_("This deployment has no output of that name."))
    response = http.HttpResponse(runs.output_text(values[output_name]),
                                 content_type='text/plain; charset=utf-8')
    # The server chose the output's name: quotes or line breaks in a header would break
    # the response.
    filename = re.sub(r'[^\w.-]+', '_', output_name, flags=re.ASCII)
    response['Content-Disposition'] = f'attachment; filename="{run.id}-{filename}.txt"'
    return response


def _component_of(request, deployment_id):
    """The component whose config this run derives from, or None."""
    for component in directory.components(request):
        if any(run.id == deployment_id for run in component.deployments):
            return component
    return None


class RerunView(PolicyRequiredMixin, generic.View):
    """The Run Action form of the run's component, filled in with the run's action, server
    and inputs, for the user to check and submit."""

    policy_rules = SHOW_RULES + run_tables.RunAgain.policy_rules

    def get(self, request, deployment_id):
        run = _run(request, deployment_id)
        detail = reverse('horizon:project:deployments:detail', args=[deployment_id])
        try:
            component = _component_of(request, deployment_id)
        except Exception:
            errors.heat_failed(request, _("find the component of this run"), redirect=detail)
        if component is not None and run.config is not None:
            return run_action_form(component.id, run.action, [run.server_id], run.config)
        source = operations.source_link(request, run.operation)
        if source is not None and not source['component'] and run.config is not None:
            return deploy_form(source['id'], run)
        messages.error(request, _("This run came neither from a software component nor "
                                  "from a config deployed here, so it cannot be run again "
                                  "from here."))
        return shortcuts.redirect(detail)
