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

"""Pages without the status poll (Servers, a server's history, Components) show a running
run as it is now, not as Heat's listing had it: a TempURL result is read by Heat only when the
run is shown, and nothing but the dashboard times a run out (run_rows.as_they_are)."""

import copy
from unittest import mock

from heatclient import exc as heat_exc

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import recheck
from tests.unit import components_case
from tests.unit import components_data
from tests.unit import helpers
from tests.unit import servers_case as case
from tests.unit import servers_data as data

LOOK_MOCKS = {api.heat: ('deployments_list', 'config_get', 'deployment_get'),
              api.deploy: ('may_have_results', 'collect_result', 'expire_deployment')}
PAST = 'temp_url_expires=1700000000'


def _db_1(res):
    return next(s for s in res.context['table'].data if s.id == data.DB_1)


def _counts(server):
    return server.complete, server.failed, server.in_progress


class ServersPagesTests(case.ServersTestCase):

    def _heat_shows(self, **changes):
        """The running run as a show in Heat finds it now; no other result waits for it."""
        self.mock_deployment_get.return_value = data.deployments([dict(data.RUNNING,
                                                                       **changes)])[0]
        self.mock_collect_result.side_effect = lambda request, run: run

    @helpers.create_mocks(LOOK_MOCKS)
    def test_a_result_that_arrived_while_nobody_watched_is_shown(self):
        self.serve()
        self.mock_may_have_results.side_effect = helpers.all_may_have
        self._heat_shows(status='COMPLETE', updated_time='2026-11-22T11:00:40Z')

        index = self.client.get(case.INDEX_URL)
        history = self.client.get(case.server_url())

        self.assertEqual((3, 1, 0), _counts(_db_1(index)))
        self.assertEqual('COMPLETE', _db_1(index).latest.status)
        self.assertNotContains(history, 'data-status="IN_PROGRESS"')
        self.assertContains(history, '40s')
        self.mock_deployment_get.assert_called_with(helpers.IsHttpRequest(), data.RUNNING['id'])
        self.assertEqual(2, self.mock_deployment_get.call_count)

    @helpers.create_mocks(LOOK_MOCKS)
    def test_a_run_that_has_sent_nothing_costs_one_look_and_no_show(self):
        self.serve()

        res = self.client.get(case.INDEX_URL)

        self.assertEqual((2, 1, 1), _counts(_db_1(res)))
        self.mock_may_have_results.assert_called_once()
        self.mock_deployment_get.assert_not_called()

    # "A moment" made long enough that a busy machine rendering the first page slowly cannot
    # make the second one look again: what is tested is the sharing, not the clock.
    @mock.patch.object(recheck, 'LOOK_SECONDS', 60)
    @mock.patch.object(recheck, '_LOOK_KEPT_SECONDS', 60)
    @helpers.create_mocks(LOOK_MOCKS)
    def test_a_look_made_a_moment_ago_by_any_page_of_the_project_is_not_made_again(self):
        self.serve()

        self.client.get(case.INDEX_URL)
        again = self.client.get(case.server_url())

        # One HEAD for both pages (recheck.LOOK_SECONDS), as between the status polls.
        self.mock_may_have_results.assert_called_once()
        self.assertContains(again, 'data-status="IN_PROGRESS"')

    @helpers.create_mocks(LOOK_MOCKS)
    def test_a_run_past_its_timeout_is_shown_timed_out(self):
        configs = copy.deepcopy(data.CONFIGS)
        for each in configs['c-backup-2']['inputs']:
            if each['name'] == 'deploy_signal_id':
                each['value'] = each['value'].replace('temp_url_expires=2147483646', PAST)
        self.serve(configs=configs)
        self._heat_shows()

        res = self.client.get(case.server_url())

        # Past its deadline, the run is shown (even though its signal holds nothing yet) as
        # timed out; reading the page records nothing in Heat.
        self.mock_expire_deployment.assert_not_called()
        self.assertNotContains(res, 'data-status="IN_PROGRESS"')
        self.assertContains(res, 'Timed out: the server did not report back by '
                                 '2023-11-14T22:13:20Z')

    @helpers.create_mocks(LOOK_MOCKS)
    def test_a_run_deleted_since_the_listing_is_left_out(self):
        self.serve()
        self.mock_may_have_results.side_effect = helpers.all_may_have
        self.mock_deployment_get.side_effect = heat_exc.HTTPNotFound()

        res = self.client.get(case.INDEX_URL)

        self.assertEqual((2, 1, 0), _counts(_db_1(res)))
        self.assertNotContains(res, case.detail_url(data.RUNNING))

    @helpers.create_mocks(LOOK_MOCKS)
    def test_a_look_that_fails_leaves_the_run_as_listed_and_the_page_whole(self):
        self.serve()
        self.mock_may_have_results.side_effect = helpers.all_may_have
        self.mock_deployment_get.side_effect = heat_exc.CommunicationError(
            message='Error communicating with http://10.9.9.9:8004 Connection refused')

        res = self.client.get(case.INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertEqual((2, 1, 1), _counts(_db_1(res)))
        self.assertNoMessages()


class ComponentsPagesTests(components_case.ComponentsTestCase):

    @helpers.create_mocks({**components_case.HEAT_MOCKS,
                           api.heat: components_case.HEAT_MOCKS[api.heat] + ('deployment_get',),
                           api.deploy: ('may_have_results', 'collect_result')})
    def test_a_components_servers_show_a_result_that_arrived_while_nobody_watched(self):
        self.serve()
        self.mock_may_have_results.side_effect = helpers.all_may_have
        running = next(d for d in components_data.DEPLOYMENTS if d['status'] == 'IN_PROGRESS')
        self.mock_deployment_get.return_value = components_data.deployments(
            [dict(running, status='COMPLETE', updated_time='2026-11-22T04:01:00Z')])[0]
        self.mock_collect_result.side_effect = lambda request, run: run

        res = self.get_ajax(components_case.detail_url(components_data.MYSQL_ID))

        statuses = {(run.server_id, run.action): run.status
                    for run in res.context['servers_table'].data}
        self.assertEqual('COMPLETE', statuses[(components_data.DB_1, 'BACKUP')])
        self.assertNotContains(res, 'In Progress')
