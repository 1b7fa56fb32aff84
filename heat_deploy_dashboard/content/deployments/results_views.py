"""An operation's results as data: its runs filtered (status, exit code, an output's value)
and searched (every line of their outputs that holds a text, each a link to that line of
the run's output), its servers grouped by what one output said (times and ids masked), the
rows downloaded as CSV or JSON (runner.results_export: what `openstack software operation
results` prints), and a run's output against another's (DiffView). Archived runs are read
as the operation's page reads them, more of them."""

import dataclasses
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
    runs: list  # the operation's runs the filters kept
    total: int  # of all its runs
    found: object  # output_search.Found, or None without a search
    form: project_forms.ResultsFilterForm


class ResultsMixin(PolicyRequiredMixin):
    policy_rules = deployment_views.SHOW_RULES

    @memoized.memoized_method
    def _operation(self):
        found = operations.find(self.request, self.kwargs['operation_id'], follower=False,
                                archived_at_most=archive.OPERATION_READ)
        if found is None:
            raise http.Http404(_("The operation's runs could not be loaded."))
        return found

    @memoized.memoized_method
    def results(self):
        all_runs = self._operation().runs
        names = {name: None for run in all_runs
                 for name in results_export.row(run)['outputs']}
        form = project_forms.ResultsFilterForm(self.request.GET or None, list(names))
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


class ResultsView(ResultsMixin, horizon_views.HorizonTemplateView):
    template_name = 'project/deployments/results.html'

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        operation_id = self.kwargs['operation_id']
        results = self.results()
        names = server_names.names(self.request)
        columns, values = results_export.flat(results_export.rows(results.runs, names))
        output = results.form.chosen_output
        groups = output_compare.alike(results.runs, output)
        largest = groups[0].runs[0] if groups else None
        context.update({
            'page_title': _("Results of operation %(id)s") % {'id': operation_id[:8]},
            'operation_url': run_tables.operation_url(operation_id),
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
            'query': self.request.GET.urlencode(),
            'command': cli.operation_results(
                operation_id, *((results.form.cleaned_data.get('q') or '',
                                 results.form.cleaned_data.get('status') or '')
                                if results.form.is_valid() else ())),
        })
        return context


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


class ResultsDownloadView(ResultsMixin, generic.View):
    """The filtered rows as a file: GET only, it changes nothing."""

    def get(self, request, operation_id, kind):
        content_type, text = _DOWNLOADS[kind]
        results = self.results()
        rows = results_export.rows(results.runs, server_names.names(request))
        response = http.HttpResponse(text(rows), content_type=content_type)
        response['Content-Disposition'] = (
            f'attachment; filename="operation-{operation_id}-results.{kind}"')
        return response


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
