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

"""The status poll's rechecks: a running row shown in Heat a moment ago is looked at more
cheaply where its result arrives (recheck), and shown again a few rows a poll."""

import json
from unittest import mock

from django.urls import reverse

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content.deployments import status
from heat_deploy_dashboard.content import recheck
import heat_deploy_runner as runner
from tests.unit import helpers
from tests.unit import test_data

RUNNING_ID = test_data.DEPLOYMENTS[2]['id']
RUNNING_CONFIG_ID = test_data.DEPLOYMENTS[2]['config_id']


def _looked_at(may_have_results):
    """How many runs the mocked api.deploy.may_have_results was asked about."""
    return sum(len(call.args[1]) for call in may_have_results.call_args_list)


class RecheckTests(helpers.TestCase):
    """A running row shown in Heat a moment ago is looked at more cheaply (see recheck)."""

    def setUp(self):
        super().setUp()
        self.status_url = reverse('horizon:project:deployments:status')

    def _poll(self, *ids):
        return json.loads(self.client.post(self.status_url, {'id': list(ids)}).content)

    def _serve_running(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.side_effect = lambda request, each: test_data.deployment(
            dict(test_data.DEPLOYMENTS[2], id=each))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_a_row_shown_a_moment_ago_with_nothing_sent_is_not_shown_again(self):
        self._serve_running()
        self.mock_may_have_results.return_value = set()

        first = self._poll(RUNNING_ID)
        second = self._poll(RUNNING_ID)

        self.assertEqual([RUNNING_ID], list(first['rows']))
        self.mock_deployment_get.assert_called_once()
        self.mock_may_have_results.assert_called_once_with(
            helpers.IsHttpRequest(),
            {RUNNING_ID: test_data.run_config(None, RUNNING_CONFIG_ID).to_dict()}, mock.ANY)
        # Left on the page as it is: still running.
        self.assertEqual({}, second['rows'])
        self.assertEqual([RUNNING_ID], second['running'])
        self.assertEqual([], second['gone'])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get', 'deployments_list'),
                           api.deploy: ('may_have_results',)})
    def test_where_results_arrive_does_not_answer_heat_is_not_asked_to_wait_on_it(self):
        # Heat's show would wait on the same Object Storage for about half a minute.
        self._serve_running()
        self._poll(RUNNING_ID)
        self.mock_deployment_get.reset_mock()
        self.mock_may_have_results.side_effect = runner.NotAnswering('Object Storage')
        api.swift.answers.return_value = False
        self.mock_deployments_list.return_value = [
            test_data.deployment(test_data.DEPLOYMENTS[2])]

        poll = self.client.post(self.status_url, {'id': [RUNNING_ID]})
        listed = self.client.get(reverse('horizon:project:deployments:index'))

        self.assertEqual((503, 'Object Storage could not be reached.'),
                         (poll.status_code, poll.json()['error']))
        # The list shows the run as listed, and says nothing: the poll line says it.
        self.assertEqual(200, listed.status_code)
        self.assertEqual('IN_PROGRESS', listed.context['table'].data[0].status)
        self.mock_deployment_get.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_a_row_whose_server_may_have_sent_is_shown_in_heat(self):
        self._serve_running()
        self.mock_may_have_results.side_effect = helpers.all_may_have

        self._poll(RUNNING_ID)
        second = self._poll(RUNNING_ID)

        self.assertEqual(2, self.mock_deployment_get.call_count)
        self.assertEqual([RUNNING_ID], list(second['rows']))

    def _shown_a_moment_ago(self, ids, ended):
        """The rows of ``ids`` polled once (shown running in Heat, no look made), and from
        then on shown ended those of ``ended``."""
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_may_have_results.return_value = set()
        self.mock_deployment_get.side_effect = lambda request, each: test_data.deployment(
            dict(test_data.DEPLOYMENTS[2], id=each))
        self._poll(*ids)
        self.mock_deployment_get.reset_mock()
        self.mock_deployment_get.side_effect = lambda request, each: test_data.deployment(
            dict(test_data.DEPLOYMENTS[2], id=each,
                 status='COMPLETE' if each in ended else 'IN_PROGRESS'))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    @mock.patch.object(status, 'BURST', 1)
    def test_while_results_arrive_a_poll_looks_again_and_shows_those_that_arrived_meanwhile(
            self):
        # A burst of 180 results left Heat idle between polls.
        ids = [f'{RUNNING_ID[:-2]}{number:02d}' for number in range(3)]
        self._shown_a_moment_ago(ids, ended=ids[:2])
        # The first look finds one result; a look again, the second; the next, none.
        looks = iter([{ids[0]}, {ids[1]}, set()])
        self.mock_may_have_results.side_effect = lambda request, configs, map_: (
            next(looks) & set(configs))

        reply = self._poll(*ids)

        self.assertEqual([ids[0], ids[1]],
                         [call.args[1] for call in self.mock_deployment_get.call_args_list])
        self.assertEqual({ids[0]: 'COMPLETE', ids[1]: 'COMPLETE'},
                         {each: shown['status'] for each, shown in reply['statuses'].items()})
        self.assertEqual([ids[2]], reply['running'])
        # The looks again were made, not taken from the first (a moment ago).
        self.assertEqual(3, self.mock_may_have_results.call_count)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    @mock.patch.object(status, 'BURST', 2)
    def test_a_poll_looks_again_only_while_its_shows_end_a_burst_and_within_its_window(self):
        ids = [f'{RUNNING_ID[:-2]}{number:02d}' for number in range(3)]
        self._shown_a_moment_ago(ids, ended=[ids[0]])
        self.mock_may_have_results.side_effect = lambda request, configs, map_: set(
            ids[:2]) & set(configs)

        # Its shows ended one run, fewer than a burst: the reply comes at once.
        self._poll(*ids)
        self.assertEqual(1, self.mock_may_have_results.call_count)
        self.mock_deployment_get.side_effect = lambda request, each: test_data.deployment(
            dict(test_data.DEPLOYMENTS[2], id=each, status='COMPLETE'))

        with mock.patch.object(status, 'RESULTS_WINDOW_SECONDS', 0), \
                mock.patch.object(recheck, 'LOOK_SECONDS', 0):
            self._poll(*ids)
        # Past its window: no look again either.
        self.assertEqual(2, self.mock_may_have_results.call_count)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_every_running_row_is_shown_in_heat_again_after_recheck_seconds(self):
        self._serve_running()
        self.mock_may_have_results.return_value = set()

        self._poll(RUNNING_ID)
        with mock.patch.object(recheck, 'RECHECK_SECONDS', 0):
            second = self._poll(RUNNING_ID)

        self.assertEqual(2, self.mock_deployment_get.call_count)
        self.mock_may_have_results.assert_not_called()
        self.assertEqual([RUNNING_ID], list(second['rows']))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_rows_come_due_together_are_shown_again_a_few_a_poll_longest_ago_first(self):
        # At 200 running rows, all came due at once and one poll showed them all (6 s).
        self._serve_running()
        self.mock_may_have_results.return_value = set()
        ids = [f'{RUNNING_ID[:-2]}{number:02d}' for number in range(12)]
        for number, each in enumerate(ids):
            with mock.patch.object(recheck.time, 'time', return_value=1000.0 + number):
                self._poll(each)
        self.mock_deployment_get.reset_mock()
        self.mock_may_have_results.reset_mock()

        with mock.patch.object(recheck.time, 'time', return_value=1030.0):
            self._poll(*ids)
            shown = {call.args[1] for call in self.mock_deployment_get.call_args_list}
            looked = _looked_at(self.mock_may_have_results)
            self.mock_deployment_get.reset_mock()
            self._poll(*ids)

        # The RECHECKS_PER_POLL (8) shown longest ago; the other 4 looked at cheaply, and
        # shown by the next poll.
        self.assertEqual((set(ids[:8]), 4), (shown, looked))
        self.assertEqual(set(ids[8:]), {call.args[1] for call in
                                        self.mock_deployment_get.call_args_list})

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_a_poll_that_finds_results_shows_them_and_leaves_the_rechecks_for_the_next(self):
        # At 200 running rows a result waited behind the eight rechecks' shows.
        other_config = next(each for each in test_data.RUN_NAMES if each != RUNNING_CONFIG_ID)
        ids = [f'{RUNNING_ID[:-2]}{number:02d}' for number in range(12)]
        arrived = ids[-1]
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.side_effect = lambda request, each: test_data.deployment(
            dict(test_data.DEPLOYMENTS[2], id=each,
                 config_id=other_config if each == arrived else RUNNING_CONFIG_ID))
        self.mock_may_have_results.return_value = set()
        for number, each in enumerate(ids):
            with mock.patch.object(recheck.time, 'time', return_value=1000.0 + number):
                self._poll(each)
        self.mock_deployment_get.reset_mock()
        # Its server has sent: the look at its signal says so.
        self.mock_may_have_results.side_effect = lambda request, configs, map_: {
            each for each, config in configs.items() if config['id'] == other_config}

        with mock.patch.object(recheck.time, 'time', return_value=1030.0):
            self._poll(*ids)
            shown = [call.args[1] for call in self.mock_deployment_get.call_args_list]
            self.mock_deployment_get.reset_mock()
            self.mock_may_have_results.side_effect = None
            self._poll(*ids)
            shown_next = {call.args[1] for call in self.mock_deployment_get.call_args_list}

        # The one with a result alone; the eight come due, looked at and quiet, are shown by
        # the next poll, which found none.
        self.assertEqual([arrived], shown)
        self.assertEqual(set(ids[:8]), shown_next)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get', 'deployments_list'),
                           api.deploy: ('may_have_results',)})
    def test_the_first_poll_of_a_listed_page_shows_a_few_and_looks_at_the_others(self):
        # At 200 running rows the first poll showed all 200 in Heat: 13 to 19 s.
        self._serve_running()
        self.mock_may_have_results.return_value = set()
        ids = [f'{RUNNING_ID[:-2]}{number:02d}' for number in range(12)]
        self.mock_deployments_list.return_value = [
            test_data.deployment(dict(test_data.DEPLOYMENTS[2], id=each)) for each in ids]

        self.assertEqual(200, self.client.get(
            reverse('horizon:project:deployments:index')).status_code)
        self.mock_deployment_get.assert_not_called()
        first = self._poll(*ids)

        self.assertEqual(recheck.RECHECKS_PER_POLL, self.mock_deployment_get.call_count)
        self.assertEqual(len(ids) - recheck.RECHECKS_PER_POLL,
                         _looked_at(self.mock_may_have_results))
        self.assertEqual(set(ids), set(first['running']))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_a_finished_row_is_not_remembered(self):
        self.mock_config_get.side_effect = test_data.run_config
        self.mock_deployment_get.return_value = test_data.deployment(
            dict(test_data.DEPLOYMENTS[2], status='COMPLETE'))

        self._poll(RUNNING_ID)
        self._poll(RUNNING_ID)

        self.assertEqual(2, self.mock_deployment_get.call_count)
        self.mock_may_have_results.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get', 'deployments_list'),
                           api.deploy: ('may_have_results', 'cancel_deployment')})
    def test_a_cancel_made_here_is_shown_by_the_next_poll(self):
        self._serve_running()
        self.mock_may_have_results.return_value = set()
        self.mock_deployments_list.return_value = [test_data.deployment(test_data.DEPLOYMENTS[2])]
        self.mock_cancel_deployment.return_value = test_data.deployment(dict(
            test_data.DEPLOYMENTS[2], status='FAILED', status_reason='Cancelled by test_user'))
        self._poll(RUNNING_ID)

        self.client.post(reverse('horizon:project:deployments:index'),
                         {'action': f'deployments__cancel__{RUNNING_ID}'})
        self._poll(RUNNING_ID)

        self.mock_cancel_deployment.assert_called_once()
        self.assertEqual(2, self.mock_deployment_get.call_count)
        self.mock_may_have_results.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_a_look_that_found_nothing_serves_the_projects_other_pages_for_a_moment(self):
        self._serve_running()
        self.mock_may_have_results.return_value = set()
        self._poll(RUNNING_ID)

        # Another page's poll right after: the look is not made again.
        second = self._poll(RUNNING_ID)
        third = self._poll(RUNNING_ID)

        self.mock_may_have_results.assert_called_once()
        self.mock_deployment_get.assert_called_once()
        self.assertEqual(([RUNNING_ID], {}), (third['running'], third['rows']))
        self.assertEqual(second['running'], third['running'])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('may_have_results',)})
    def test_a_look_is_made_again_after_look_seconds(self):
        self._serve_running()
        self.mock_may_have_results.return_value = set()
        self._poll(RUNNING_ID)

        with mock.patch.object(recheck, 'LOOK_SECONDS', 0):
            self._poll(RUNNING_ID)
            self._poll(RUNNING_ID)

        self.assertEqual(2, self.mock_may_have_results.call_count)
