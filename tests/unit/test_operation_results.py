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

"""Deployments > an operation's results: filtered, searched, grouped, downloaded; and a run's
output compared with another's."""

import csv
import io
import json

from django.urls import reverse

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import operation_data

RUN_IDS = operation_data.RUN_IDS
OUTPUTS = {
    1: ('backup done at 2026-11-23T08:00:01Z\nrows 10\n', 0),
    2: ('ERROR: disk full {$ 7*7 $} <script>alert(1)</script>\n', 3),
    3: ('backup done at 2026-11-23T08:00:07Z\nrows 10\n', 0),
}


def _runs():
    found = operation_data.runs(('COMPLETE', 'COMPLETE', 'FAILED', 'COMPLETE', 'COMPLETE'))
    return [run.changed(output_values={'deploy_stdout': OUTPUTS[n][0], 'deploy_stderr': '',
                                       'deploy_status_code': OUTPUTS[n][1]})
            if n in OUTPUTS else run for n, run in enumerate(found)]


class OperationResultsTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        operation_id = operation_data.OPERATION.id
        self.url = reverse('horizon:project:deployments:operation_results',
                           args=[operation_id])
        self.csv_url = reverse('horizon:project:deployments:operation_results_download',
                               args=[operation_id, 'csv'])
        self.json_url = reverse('horizon:project:deployments:operation_results_download',
                                args=[operation_id, 'json'])

    def _serve(self):
        self.mock_deployments_list.return_value = _runs()
        self.mock_config_get.side_effect = operation_data.config_get

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_the_page_lists_every_run_and_groups_the_servers_by_what_they_said(self):
        self._serve()

        res = self.client.get(self.url)

        self.assertEqual(200, res.status_code)
        self.assertEqual(set(RUN_IDS[1:4]), {row['run'].id for row in res.context['rows']})
        # Times masked: runs 1 and 3 said the same; run 2 differs.
        groups = [len(each['group'].runs) for each in res.context['groups']]
        self.assertEqual([2, 1], groups)
        self.assertContains(res, 'backup done at &lt;time&gt;')
        self.assertContains(res, 'openstack software operation results')

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_search_finds_the_lines_marks_them_and_escapes_the_rest(self):
        self._serve()

        res = self.client.get(self.url, {'q': 'disk FULL'})

        [each] = res.context['matches']
        self.assertEqual((RUN_IDS[2], 'deploy_stdout', 1),
                         (each['match'].run.id, each['match'].output,
                          each['match'].line_number))
        self.assertEqual([RUN_IDS[2]], [row['run'].id for row in res.context['rows']])
        content = res.content.decode()
        self.assertIn('<mark>disk full</mark>', content)
        self.assertNotIn('<script>alert(1)</script>', content)
        self.assertIn('&lt;script&gt;alert(1)&lt;/script&gt;', content)
        # {$ $} only inside elements AngularJS does not compile.
        for line in content.splitlines():
            if '{$ 7*7 $}' in line:
                self.assertIn('ng-non-bindable', line)
        self.assertIn('output=deploy_stdout&line=1', each['url'])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_rows_are_filtered_by_status_exit_code_and_an_outputs_value(self):
        self._serve()

        failed = self.client.get(self.url, {'status': 'FAILED'})
        code = self.client.get(self.url, {'exit_code': '0'})
        valued = self.client.get(self.url, {'output': 'deploy_stdout',
                                            'value': OUTPUTS[1][0]})

        self.assertEqual([RUN_IDS[2]], [row['run'].id for row in failed.context['rows']])
        self.assertEqual({RUN_IDS[1], RUN_IDS[3]},
                         {row['run'].id for row in code.context['rows']})
        self.assertEqual([RUN_IDS[1]], [row['run'].id for row in valued.context['rows']])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_search_too_short_says_so_and_filters_nothing(self):
        self._serve()

        res = self.client.get(self.url, {'q': 'x'})

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'Search for at least 2 characters')
        self.assertEqual(3, len(res.context['rows']))

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_the_downloads_hold_the_filtered_rows_the_page_shows(self):
        self._serve()

        page = self.client.get(self.url, {'exit_code': '0'})
        as_csv = self.client.get(self.csv_url, {'exit_code': '0'})
        as_json = self.client.get(self.json_url, {'exit_code': '0'})

        self.assertEqual('attachment; filename="operation-%s-results.csv"'
                         % operation_data.OPERATION.id, as_csv['Content-Disposition'])
        parsed = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
        self.assertEqual([row['run'].id for row in page.context['rows']],
                         [row['run_id'] for row in parsed])
        self.assertEqual(parsed, [{key: '' if value is None else str(value)
                                   for key, value in row.items()}
                                  for row in json.loads(as_json.content)])

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_another_projects_operation_is_not_found(self):
        self.mock_deployments_list.return_value = []
        self.mock_config_get.side_effect = operation_data.config_get

        self.assertEqual(404, self.client.get(self.url).status_code)
        self.assertEqual(404, self.client.get(self.csv_url).status_code)


class ServerResultsTests(helpers.TestCase):

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def test_a_servers_runs_are_searched_and_downloaded_the_same_way(self):
        found = _runs()
        self.mock_deployments_list.return_value = [found[2]]
        self.mock_config_get.side_effect = operation_data.config_get
        url = reverse('horizon:project:servers:results', args=['server-2'])

        res = self.client.get(url, {'q': 'disk full'})
        as_csv = self.client.get(reverse('horizon:project:servers:results_download',
                                         args=['server-2', 'csv']), {'q': 'disk full'})

        self.mock_deployments_list.assert_called_with(helpers.IsHttpRequest(),
                                                      server_id='server-2')
        self.assertEqual([RUN_IDS[2]], [row['run'].id for row in res.context['rows']])
        self.assertContains(res, '<mark>disk full</mark>')
        self.assertContains(res, reverse('horizon:project:servers:detail', args=['server-2']))
        self.assertEqual('attachment; filename="server-server-2-results.csv"',
                         as_csv['Content-Disposition'])
        self.assertEqual([RUN_IDS[2]], [row['run_id'] for row in csv.DictReader(
            io.StringIO(as_csv.content.decode()))])


class DiffTests(helpers.TestCase):

    @helpers.create_mocks({api.heat: ('deployment_get', 'deployments_list', 'config_get')})
    def test_a_run_is_compared_with_another_line_by_line(self):
        found = {run.id: run for run in _runs()}
        self.mock_deployment_get.side_effect = lambda request, run_id: found[run_id]
        self.mock_config_get.side_effect = operation_data.config_get

        res = self.client.get(reverse('horizon:project:deployments:diff', args=[RUN_IDS[2]]),
                              {'other': RUN_IDS[1]})

        rows = [row for row in res.context['rows'] if row]
        self.assertEqual(['backup done at 2026-11-23T08:00:01Z', 'rows 10'],
                         [row.left.text for row in rows if row.kind in '~-'])
        self.assertEqual(['ERROR: disk full {$ 7*7 $} <script>alert(1)</script>'],
                         [row.right.text for row in rows if row.kind in '~+'])
        # Side by side: the first removed line beside the line that replaced it.
        self.assertContains(res, 'class="hdd-diff-changed"', count=1)
        self.assertContains(res, 'class="hdd-diff-removed"', count=1)
        self.assertNotContains(res, '<script>alert(1)')
        self.assertContains(res, 'openstack software run diff')

    @helpers.create_mocks({api.heat: ('deployment_get', 'deployments_list', 'config_get')})
    def test_a_run_without_an_earlier_one_says_so(self):
        found = {run.id: run for run in _runs()}
        self.mock_deployment_get.side_effect = lambda request, run_id: found[run_id]
        self.mock_deployments_list.return_value = [found[RUN_IDS[2]]]
        self.mock_config_get.side_effect = operation_data.config_get

        res = self.client.get(reverse('horizon:project:deployments:diff', args=[RUN_IDS[2]]))

        self.assertContains(res, 'no earlier run of the same action')
