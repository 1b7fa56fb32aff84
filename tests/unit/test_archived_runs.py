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

"""Archived runs: the project's archive listed, one archived run's page, its outputs, Run
Again and Delete from it, and a server's Archived tab (the archive itself:
deploy/test_archive.py)."""

import copy
from urllib import parse

from django.contrib.messages import get_messages
from django.urls import reverse

from heat_deploy_dashboard import api
import heat_deploy_runner as runner
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner import masking
from heat_deploy_runner.pruning import archive
from tests.unit import components_case as case
from tests.unit import components_data as data
from tests.unit import helpers

RUN_ID = '5a5a5a5a-0000-4000-8000-000000000007'
OPERATION = runner.Operation('6b6b6b6b-0000-4000-8000-000000000008', 'demo',
                             '2026-10-01T02:00:00Z', source=data.MYSQL_ID)
CONFIG = dict(data.derived(data.MYSQL, 'cc000000-0000-4000-8000-000000000009', data.DB_1,
                           'BACKUP', name='mysql-BACKUP'),
              options={OPERATION_OPTION: OPERATION.as_option()})
CONFIG['inputs'].append({'name': 'db_password', 'type': 'String', 'value': 'hunter22'})
ARCHIVED = archive.run_of(archive.record(runner.Run(
    id=RUN_ID, server_id=data.DB_1, config_id=CONFIG['id'], action='BACKUP', status='FAILED',
    status_reason='deploy_status_code : Deployment exited with non-zero status code: 3',
    creation_time='2026-10-01T02:00:00Z', updated_time='2026-10-01T02:03:00Z',
    input_values={OPERATION_OPTION: OPERATION.as_option()},
    output_values={'deploy_stdout': 'dumping <b>{$ 7*7 $}</b>\n',
                   'deploy_stderr': 'disk full\n', 'deploy_status_code': 3},
    config=copy.deepcopy(CONFIG))))
INDEX_URL = reverse('horizon:project:deployments:archived_index')
DETAIL_URL = reverse('horizon:project:deployments:archived', args=[RUN_ID])
SWIFT_MOCKS = {api.swift: ('archive_page', 'archived_run', 'archive_delete')}


class ArchivedRunsTests(case.ComponentsTestCase):

    def _archive(self, runs=(ARCHIVED,), has_more=False):
        self.mock_archive_page.return_value = archive.Page(list(runs), False, has_more)
        self.mock_archived_run.side_effect = lambda request, run_id: next(
            (run for run in runs if run.id == run_id), None) or (_ for _ in ()).throw(
                LookupError(run_id))

    @helpers.create_mocks(SWIFT_MOCKS)
    def test_the_list_reads_a_page_of_the_projects_archive_newest_first(self):
        self._archive(has_more=True)

        res = self.client.get(INDEX_URL + '?archive_marker=9999-x')

        self.mock_archive_page.assert_called_once_with(
            helpers.IsHttpRequest(), archive.PROJECT, 20, '9999-x', backwards=False)
        self.assertContains(res, DETAIL_URL)
        self.assertContains(res, 'mysql-BACKUP')
        # The next page starts after this page's last run, by its place in the archive.
        self.assertContains(res, 'archive_marker=' + archive.listed_as(ARCHIVED))

    @helpers.create_mocks(SWIFT_MOCKS)
    def test_object_storage_failing_says_so_and_claims_no_empty_archive(self):
        self.mock_archive_page.side_effect = RuntimeError('swift down')

        res = self.client.get(INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'Archived runs could not be loaded.')
        self.assertContains(res, 'Object Storage could not be reached')

    @helpers.create_mocks({**SWIFT_MOCKS, **case.HEAT_MOCKS})
    def test_an_archived_runs_page_shows_it_as_archived_with_secrets_masked(self):
        self.serve()
        self._archive()

        res = self.client.get(DETAIL_URL)
        outputs = self.client.get(DETAIL_URL + '?tab=deployment_details__outputs')

        self.assertContains(res, 'This run is archived')
        self.assertContains(res, 'disk full')
        self.assertContains(res, masking.MASK)
        self.assertNotContains(res, 'hunter22')
        # The server's text is escaped, and its AngularJS braces neutralised.
        self.assertNotContains(res, '<b>{$')
        self.assertContains(outputs, reverse('horizon:project:deployments:archived_output',
                                             args=[RUN_ID, 'deploy_stdout']))
        self.assertContains(res, f'openstack software run show {RUN_ID}')

    @helpers.create_mocks(SWIFT_MOCKS)
    def test_an_output_downloads_whole(self):
        self._archive()

        res = self.client.get(reverse('horizon:project:deployments:archived_output',
                                      args=[RUN_ID, 'deploy_stderr']))

        self.assertEqual(b'disk full\n', res.content)
        self.assertIn(f'{RUN_ID}-deploy_stderr.txt', res['Content-Disposition'])

    @helpers.create_mocks(SWIFT_MOCKS)
    def test_a_run_not_in_the_projects_archive_is_not_found(self):
        self._archive(runs=())

        for url in (DETAIL_URL, reverse('horizon:project:deployments:archived_rerun',
                                        args=[RUN_ID]),
                    reverse('horizon:project:deployments:archived_output',
                            args=[RUN_ID, 'deploy_stdout'])):
            self.assertEqual(404, self.client.get(url).status_code, url)

    @helpers.create_mocks({**SWIFT_MOCKS, **case.HEAT_MOCKS})
    def test_run_again_opens_the_components_form_with_the_runs_action_server_and_inputs(self):
        self.serve()
        self._archive()

        res = self.client.get(reverse('horizon:project:deployments:archived_rerun',
                                      args=[RUN_ID]))

        target = parse.urlsplit(res['Location'])
        self.assertEqual(case.trigger_url(data.MYSQL_ID), target.path)
        query = parse.parse_qs(target.query)
        self.assertEqual((['BACKUP'], [data.DB_1]), (query['action'], query['server']))
        self.assertNotIn('input__db_password', query)

    @helpers.create_mocks(SWIFT_MOCKS)
    def test_delete_removes_the_run_from_the_archive(self):
        self._archive()

        res = self.client.post(INDEX_URL, {'action': f'archived__delete__{RUN_ID}'})

        self.assertRedirectsNoFollow(res, INDEX_URL)
        self.mock_archive_delete.assert_called_once_with(helpers.IsHttpRequest(), RUN_ID)

    @helpers.create_mocks({**SWIFT_MOCKS, **case.HEAT_MOCKS})
    def test_a_servers_archived_tab_lists_the_servers_archived_runs(self):
        self.serve()
        self._archive()
        url = reverse('horizon:project:servers:detail', args=[data.DB_1])

        res = self.client.get(url + '?tab=server_details__archived')

        self.mock_archive_page.assert_called_once_with(
            helpers.IsHttpRequest(), archive.server_prefix(data.DB_1), 20, None,
            backwards=False)
        self.assertContains(res, DETAIL_URL)


class OperationWithArchivedRunsTests(case.ComponentsTestCase):

    @helpers.create_mocks({**SWIFT_MOCKS, **case.HEAT_MOCKS})
    def test_an_operation_whose_runs_were_all_archived_still_shows_them(self):
        self.serve()
        self.mock_archive_page.return_value = archive.Page([ARCHIVED], False, False)
        url = reverse('horizon:project:deployments:operation', args=[OPERATION.id])

        res = self.client.get(url)

        self.assertEqual(200, res.status_code)
        self.mock_archive_page.assert_called_once_with(
            helpers.IsHttpRequest(), archive.operation_prefix(OPERATION.id), 100)
        self.assertContains(res, 'BACKUP on 1 server')
        self.assertContains(res, DETAIL_URL + '?tab=deployment_details__outputs')
        self.assertRegex(res.content.decode(), r'<td[^>]*>\s*Archive\s*</td>')
        # Run Again on it opens the archived run's form, not Heat's.
        self.assertContains(res, reverse('horizon:project:deployments:archived_rerun',
                                         args=[RUN_ID]))

    @helpers.create_mocks({**SWIFT_MOCKS, **case.HEAT_MOCKS})
    def test_object_storage_failing_leaves_the_heat_runs_and_says_so(self):
        self.serve()
        self.mock_archive_page.side_effect = RuntimeError('swift down')
        operation = data.DEPLOYMENTS[3]
        heat_operation = runner.Operation('7c7c7c7c-0000-4000-8000-00000000000a', 'demo',
                                          '2026-11-22T04:00:00Z', source=data.MYSQL_ID)
        running = dict(operation, input_values={OPERATION_OPTION: heat_operation.as_option()})
        self.serve(deployments=data.DEPLOYMENTS[:3] + [running])

        res = self.client.get(reverse('horizon:project:deployments:operation',
                                      args=[heat_operation.id]))

        self.assertEqual(200, res.status_code)
        self.assertContains(res, operation['id'])
        # Said on the page, beside the runs it shows, not as an alarm.
        self.assertContains(res, 'Object Storage could not be reached')
        self.assertEqual([], list(get_messages(res.wsgi_request)))
