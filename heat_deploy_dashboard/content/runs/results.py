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

"""The results of many runs as data (an operation's, a server's): the runs filtered by
status, exit code and an output's value, searched (every line of their outputs holding a
text, each a link to that line of the run's output), grouped by what one output said (times
and ids masked), and downloaded as CSV or JSON (runner.outputs.results_export: what `openstack
software operation results` prints). A panel's view gives the runs (``results``) and what
the page is of (``subject``)."""

import dataclasses
import re
from urllib import parse

from django import http
from django.urls import reverse
from django.views import generic
from horizon import views as horizon_views

from heat_deploy_dashboard.content.runs import results_forms
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner.outputs import output_compare
from heat_deploy_runner.outputs import output_search
from heat_deploy_runner.outputs import results_export
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running import runs

# The groups of servers shown, largest first; the rest are counted.
GROUPS_SHOWN = 20
_DOWNLOADS = {'csv': ('text/csv; charset=utf-8', results_export.csv_text),
              'json': ('application/json', results_export.json_text)}


@dataclasses.dataclass(frozen=True)
class Results:
    runs: list  # the runs the filters kept
    total: int  # of all the runs
    found: object  # output_search.Found, or None without a search
    form: results_forms.ResultsFilterForm


def filtered_results(request, all_runs):
    """The runs as the results filters in the request's query keep them (Results)."""
    # The outputs' names only: a whole row a run here would be made again for the table.
    names = {name: None for run in all_runs for name, _text in output_search.output_texts(run)
             if name not in results_forms.STREAMS}
    form = results_forms.ResultsFilterForm(request.GET or None, list(names))
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


def searched(results):
    """(the text searched, the status chosen) of valid filters: a command's options."""
    if not results.form.is_valid():
        return ()
    return (results.form.cleaned_data.get('q') or '',
            results.form.cleaned_data.get('status') or '')


class ResultsPage(horizon_views.HorizonTemplateView):
    template_name = 'heat_deploy_dashboard/results.html'

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        results = self.results()
        subject = self.subject()
        names = server_names.names(self.request)
        table = results_export.rows(results.runs, names)
        columns, values = results_export.flat(table)
        by_id = {run.id: run for run in results.runs}
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
            'rows': [{'run': run, 'values': each, 'url': run_url(run)}
                     for run, each in zip((by_id[shown['run_id']] for shown in table),
                                          values)],
            'matches': [{'match': match, 'server': names.get(match.run.server_id)
                         or match.run.server_id, 'url': line_url(match)}
                        for match in (results.found.matches if results.found else ())],
            'output': output,
            'groups': [{'group': group, 'servers': [names.get(run.server_id) or run.server_id
                                                    for run in group.runs],
                        'diff_url': number and diff_url(group.runs[0], largest, output)}
                       for number, group in enumerate(groups[:GROUPS_SHOWN])],
            'groups_left_out': max(0, len(groups) - GROUPS_SHOWN),
            'mask_rule': output_compare.MASK_RULE,
        })
        return context


def downloads(name, subject_id):
    return {kind: reverse(name, args=[subject_id, kind]) for kind in _DOWNLOADS}


def run_url(run):
    if run.archived:
        return reverse('horizon:project:deployments:archived', args=[run.id])
    return reverse('horizon:project:deployments:detail', args=[run.id])


def line_url(match):
    """The run's outputs at the line (output_line.js marks it). In the query, not a #
    fragment: Horizon's AngularJS rewrites a fragment to its own #! route."""
    return run_url(match.run) + '?' + parse.urlencode({
        'tab': run_tables.OUTPUTS_TAB, 'output': match.output, 'line': match.line_number})


def diff_url(run, other, output):
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
