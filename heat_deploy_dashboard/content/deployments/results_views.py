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

"""An operation's results (runs.results) and a run's output compared with another's."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from heatclient import exc as heat_exc
from horizon.utils import memoized
from horizon import views as horizon_views

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content.deployments import archived_views
from heat_deploy_dashboard.content.deployments import views as deployment_views
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content.runs import operations
from heat_deploy_dashboard.content.runs import results
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner import cli
from heat_deploy_runner.outputs import output_compare
from heat_deploy_runner.outputs import output_search
from heat_deploy_runner.pruning import archive


class OperationResults(PolicyRequiredMixin):
    """The results of an operation's runs, archived ones too."""

    policy_rules = deployment_views.SHOW_RULES

    @memoized.memoized_method
    def results(self):
        # A service that failed is said on the Deployments page, where it leads.
        found = operations.find(self.request, self.kwargs['operation_id'], follower=False,
                                redirect=reverse('horizon:project:deployments:index'),
                                archived_at_most=archive.RESULTS_READ)
        return results.filtered_results(self.request, found.runs)

    def subject(self):
        operation_id = self.kwargs['operation_id']
        return {'title': _("Results of operation %(id)s") % {'id': operation_id[:8]},
                'back_url': run_tables.operation_url(operation_id),
                'back_text': _("Back to the operation"),
                'empty': _("No run of this operation is left."),
                'downloads': results.downloads(
                    'horizon:project:deployments:operation_results_download', operation_id),
                'command': cli.operation_results(operation_id,
                                                 *results.searched(self.results()))}


class OperationResultsView(OperationResults, results.ResultsPage):
    pass


class OperationResultsDownloadView(OperationResults, results.ResultsDownload):
    pass


def _either(request, run_id):
    """The run in Heat, else in the project's archive; Http404 when neither has it."""
    try:
        run = api.heat.deployment_get(request, run_id)
        config = config_cache.get_many(request, [run.config_id]).get(run.config_id)
        return run.described(config)
    except heat_exc.HTTPNotFound:
        pass
    except Exception:
        errors.heat_failed(request, _("retrieve the software deployment"),
                           redirect=reverse('horizon:project:deployments:index'))
    return archived_views.archived(request, run_id)


class DiffView(PolicyRequiredMixin, horizon_views.HorizonTemplateView):
    """A run's output against another run's (``other``; by default the same server's
    previous run of the same action from the same component), line by line."""

    template_name = 'project/deployments/diff.html'
    policy_rules = deployment_views.SHOW_RULES

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = _either(self.request, self.kwargs['deployment_id'])
        other_id = self.request.GET.get('other')
        if other_id:
            other = _either(self.request, other_id)
        else:
            try:
                others = project_runs.deployments(self.request, server_id=run.server_id)
            except Exception:
                errors.heat_failed(self.request, _("retrieve the runs of the server"),
                                   redirect=results.run_url(run))
            other = output_compare.previous_run(run, others)
        texts = [dict(output_search.output_texts(each)) if each else {}
                 for each in (other, run)]
        names = list(dict.fromkeys(name for each in texts for name in each))
        output = self.request.GET.get('output') or 'deploy_stdout'
        if output not in names:
            output = 'deploy_stdout'
        server = server_names.names(self.request)
        context.update({
            'page_title': _("Output compared"),
            'run': run, 'other': other, 'output': output, 'outputs': names,
            'run_url': results.run_url(run), 'other_url': other and results.run_url(other),
            'run_server': server.get(run.server_id) or run.server_id,
            'other_server': other and (server.get(other.server_id) or other.server_id),
            'rows': (output_compare.side_by_side(output_compare.differences(
                *(each.get(output, '') for each in texts))) if other else []),
            'command': cli.run_diff(run.id, other_id or '', output),
        })
        return context
