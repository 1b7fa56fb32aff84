"""An operation's results as data: its runs filtered (status, exit code, an output's value)
and searched (every line of their outputs that holds a text, each a link to that line of
the run's output), its servers grouped by what one output said (times and ids masked), the
rows downloaded as CSV or JSON (runner.results_export: what `openstack software operation
results` prints), and a run's output against another's (DiffView). Archived runs are read
as the operation's page reads them, more of them."""

import dataclasses
import re
from urllib import parse

from django import http
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views import generic
from heatclient import exc as heat_exc
from horizon.utils import memoized
from horizon import views as horizon_views

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content.deployments import archived_views
from heat_deploy_dashboard.content.deployments import forms as project_forms
from heat_deploy_dashboard.content.deployments import views as deployment_views
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content.runs import operations
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner import archive
from heat_deploy_runner.cancel import shown_status
from heat_deploy_runner import cli
from heat_deploy_runner import output_compare
from heat_deploy_runner import output_search
from heat_deploy_runner import results_export
from heat_deploy_runner import runs

# The groups of servers shown, largest first; the rest are counted.
GROUPS_SHOWN = 20
_DOWNLOADS = {'csv': ('text/csv; charset=utf-8', results_export.csv_text),
              'json': ('application/json', results_export.json_text)}


@dataclasses.dataclass(frozen=True)
class Results:
    runs: list  # the runs the filters kept
    total: int  # of all the runs
    found: object  # output_search.Found, or None without a search
    form: project_forms.ResultsFilterForm


def filtered_results(request, all_runs):
    """The runs as the results filters in the request's query keep them (Results)."""
    names = {name: None for run in all_runs for name in results_export.row(run)['outputs']}
    form = project_forms.ResultsFilterForm(request.GET or None, list(names))
    kept, found = list(all_runs), None
    if form.is_valid():
        kept = _filtered(kept, form.cleaned_data, form.chosen_output)
        if form.cleaned_data['q']:
            found = output_search.search(kept, form.cleaned_data['q'])
            matched = set(found.run_ids)
            kept = [run for run in kept if run.id in matched]
    return Results(kept, len(all_runs), found, form)


def _filtered(found, chosen, output):
    if chosen.get('status'):
        found = [run for run in found if shown_status(run) == chosen['status']]
    if chosen.get('exit_code') is not None:
        found = [run for run in found if runs.exit_code(run) == chosen['exit_code']]
    if chosen.get('value'):
        wanted = chosen['value'].strip()
        found = [run for run in found
                 if dict(output_search.output_texts(run)).get(output, '').strip() == wanted]
    return found


class OperationResults(PolicyRequiredMixin):
    """The results of an operation's runs, archived ones too."""

    policy_rules = deployment_views.SHOW_RULES

    @memoized.memoized_method
    def results(self):
        # A service that failed is said on the Deployments page, where it leads.
        found = operations.find(self.request, self.kwargs['operation_id'], follower=False,
                                redirect=reverse('horizon:project:deployments:index'),
                                archived_at_most=archive.RESULTS_READ)
        return filtered_results(self.request, found.runs)

    def subject(self):
        operation_id = self.kwargs['operation_id']
        return {'title': _("Results of operation %(id)s") % {'id': operation_id[:8]},
                'back_url': run_tables.operation_url(operation_id),
                'back_text': _("Back to the operation"),
                'empty': _("No run of this operation is left."),
                'downloads': _downloads('horizon:project:deployments:operation_results_download',
                                        operation_id),
                'command': cli.operation_results(operation_id, *_searched(self.results()))}


class ServerResults(PolicyRequiredMixin):
    """The results of every run of one server, archived ones too (its history)."""

    policy_rules = (("orchestration", "software_deployments:index"),
                    ("orchestration", "software_configs:show"))

    @memoized.memoized_method
    def results(self):
        server_id = self.kwargs['server_id']
        try:
            found, _configs = operations.described_runs(
                self.request, project_runs.deployments(self.request, server_id=server_id))
        except Exception:
            errors.heat_failed(self.request, _("retrieve this server's runs"),
                               redirect=reverse('horizon:project:servers:index'))
        try:
            found += api.swift.archive_page(self.request, archive.server_prefix(server_id),
                                            archive.RESULTS_READ).runs
        except Exception:
            errors.heat_failed(self.request, _("retrieve this server's archived runs"),
                               service=errors.SWIFT)
        return filtered_results(self.request, found)

    def subject(self):
        server_id = self.kwargs['server_id']
        return {'title': _("Results of server %(name)s") % {
                    'name': server_names.name_of(self.request, server_id)},
                'back_url': reverse('horizon:project:servers:detail', args=[server_id]),
                'back_text': _("Back to the server"),
                'empty': _("Heat lists no deployments on this server, and the project's "
                           "archive holds none of its runs."),
                'downloads': _downloads('horizon:project:servers:results_download', server_id)}


def _searched(results):
    if not results.form.is_valid():
        return ()
    return (results.form.cleaned_data.get('q') or '',
            results.form.cleaned_data.get('status') or '')


class ResultsPage(horizon_views.HorizonTemplateView):
    template_name = 'project/deployments/results.html'

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        results = self.results()
        subject = self.subject()
        names = server_names.names(self.request)
        columns, values = results_export.flat(results_export.rows(results.runs, names))
        output = results.form.chosen_output
        groups = output_compare.alike(results.runs, output)
        largest = groups[0].runs[0] if groups else None
        query = self.request.GET.urlencode()
        context.update({
            'page_title': subject['title'], 'back_url': subject['back_url'],
            'back_text': subject['back_text'], 'command': subject.get('command'),
            'empty': subject['empty'],
            'csv_url': subject['downloads']['csv'] + (f'?{query}' if query else ''),
            'json_url': subject['downloads']['json'] + (f'?{query}' if query else ''),
            'form': results.form, 'results': results,
            'columns': columns,
            'rows': [{'run': run, 'values': each, 'url': _run_url(run)}
                     for run, each in zip(results.runs, values)],
            'matches': [{'match': match, 'server': names.get(match.run.server_id)
                         or match.run.server_id, 'url': _line_url(match)}
                        for match in (results.found.matches if results.found else ())],
            'output': output,
            'groups': [{'group': group, 'servers': [names.get(run.server_id) or run.server_id
                                                    for run in group.runs],
                        'diff_url': number and _diff_url(group.runs[0], largest, output)}
                       for number, group in enumerate(groups[:GROUPS_SHOWN])],
            'groups_left_out': max(0, len(groups) - GROUPS_SHOWN),
            'mask_rule': output_compare.MASK_RULE,
        })
        return context


def _downloads(name, subject_id):
    return {kind: reverse(name, args=[subject_id, kind]) for kind in _DOWNLOADS}


class OperationResultsView(OperationResults, ResultsPage):
    pass


class ServerResultsView(ServerResults, ResultsPage):
    pass


def _run_url(run):
    if run.archived:
        return reverse('horizon:project:deployments:archived', args=[run.id])
    return reverse('horizon:project:deployments:detail', args=[run.id])


def _line_url(match):
    """The run's outputs at the line (output_lines.js marks it)."""
    if match.run.archived:
        return (reverse('horizon:project:deployments:archived', args=[match.run.id])
                + f'#output-{match.output}-L{match.line_number}')
    return (reverse('horizon:project:deployments:detail', args=[match.run.id])
            + f'?tab={run_tables.OUTPUTS_TAB}#output-{match.output}-L{match.line_number}')


def _diff_url(run, other, output):
    return (reverse('horizon:project:deployments:diff', args=[run.id]) + '?'
            + parse.urlencode({'other': other.id, 'output': output}))


class ResultsDownload(generic.View):
    """The filtered rows as a file: GET only, it changes nothing."""

    def get(self, request, kind, **kwargs):
        content_type, text = _DOWNLOADS[kind]
        results = self.results()
        if not results.total:
            raise http.Http404(self.subject()['empty'])
        rows = results_export.rows(results.runs, server_names.names(request))
        response = http.HttpResponse(text(rows), content_type=content_type)
        # A server's id is what Heat was given: nothing of it may break the header.
        name = re.sub(r'[^\w.-]+', '_', '-'.join(
            f'{key.removesuffix("_id")}-{value}' for key, value in kwargs.items()),
            flags=re.ASCII)
        response['Content-Disposition'] = f'attachment; filename="{name}-results.{kind}"'
        return response


class OperationResultsDownloadView(OperationResults, ResultsDownload):
    pass


class ServerResultsDownloadView(ServerResults, ResultsDownload):
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
                                   redirect=_run_url(run))
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
            'run_url': _run_url(run), 'other_url': other and _run_url(other),
            'run_server': server.get(run.server_id) or run.server_id,
            'other_server': other and (server.get(other.server_id) or other.server_id),
            'lines': (output_compare.differences(*(each.get(output, '') for each in texts))
                      if other else []),
            'command': cli.run_diff(run.id, other_id or '', output),
        })
        return context
