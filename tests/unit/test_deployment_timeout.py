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

"""Deployments: a run past its timeout is shown, and recorded in Heat, as FAILED."""

import copy
import json

from django.urls import reverse
from heatclient.v1 import software_configs

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import recheck
from tests.unit.deploy import fakes
from tests.unit import helpers
from tests.unit import test_data

RUNNING = test_data.DEPLOYMENTS[2]
RUNNING_ID = RUNNING['id']
# The run was given 30 minutes: its TempURL expired at 11:40 UTC on 2025-03-02.
CREATED = '2025-03-02T11:10:00Z'
PAST = 1740915600
FUTURE = 4102444800  # 2100
REASON = ('Timed out: the server did not report back by 2025-03-02T11:40:00Z (timeout: 30 min). '
          'Its agent either never ran it or could not send the result over TEMP_URL_SIGNAL.')


def _run_config(expires):
    def config_get(request, config_id):
        return software_configs.SoftwareConfig(None, {
            'id': config_id, 'name': test_data.RUN_NAMES[config_id], 'group': 'script',
            'config': '', 'outputs': [], 'options': {}, 'creation_time': CREATED,
            'inputs': [
                {'name': 'deploy_signal_transport', 'type': 'String',
                 'value': 'TEMP_URL_SIGNAL'},
                {'name': 'deploy_signal_id', 'type': 'String',
                 'value': 'http://swift:8080/v1/AUTH_p/c/o'
                          f'?temp_url_sig=f00d&temp_url_expires={expires}'}]},
            loaded=True)
    return config_get


def _heat_holding_the_run():
    heat = fakes.FakeHeat()
    heat.deployments[RUNNING_ID] = copy.deepcopy(RUNNING)
    return heat


class TimeoutTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        self.status_url = reverse('horizon:project:deployments:status')

    def _poll(self):
        return json.loads(self.client.post(self.status_url, {'id': [RUNNING_ID]}).content)

    def _serve(self, expires):
        self.mock_config_get.side_effect = _run_config(expires)
        self.mock_deployment_get.return_value = test_data.deployment(RUNNING)
        # Nothing waiting on a queue: the run is as Heat showed it.
        self.mock_collect_result.side_effect = lambda request, run: run

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get', 'heatclient'),
                           api.deploy: ('collect_result',)})
    def test_a_poll_of_a_run_past_its_deadline_records_and_shows_it_timed_out(self):
        self._serve(PAST)
        heat = _heat_holding_the_run()
        self.mock_heatclient.return_value = heat

        reply = self._poll()

        row = reply['rows'][RUNNING_ID]
        self.assertIn('data-status="FAILED"', row)
        self.assertIn('Timed out', row)
        self.assertIn('2025-03-02T11:40:00Z (timeout: 30 min)', row)
        self.assertEqual([], reply['running'])
        # Recorded in Heat, with the same call a cancel makes.
        self.assertEqual('FAILED', heat.deployments[RUNNING_ID]['status'])
        self.assertEqual(REASON, heat.deployments[RUNNING_ID]['status_reason'])
        [(_method, args, kwargs)] = heat.called('software_deployments.update')
        self.assertEqual((RUNNING_ID,), args)
        self.assertEqual({'status': 'FAILED', 'status_reason': REASON}, kwargs)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get', 'heatclient'),
                           api.deploy: ('collect_result', 'may_have_results')})
    def test_a_run_shown_a_moment_ago_is_shown_again_once_past_its_deadline(self):
        # Its signal holds nothing, which spares a running row a show (recheck.quiet); past
        # its deadline only Heat can record the timeout.
        self._serve(PAST)
        self.mock_heatclient.return_value = _heat_holding_the_run()
        self.mock_may_have_results.return_value = set()
        recheck.remember_shown(self.request, [test_data.deployment(RUNNING)])

        reply = self._poll()

        self.assertIn('data-status="FAILED"', reply['rows'][RUNNING_ID])
        self.mock_may_have_results.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get', 'heatclient'),
                           api.deploy: ('collect_result',)})
    def test_a_result_heat_applied_meanwhile_wins_over_the_timeout(self):
        self._serve(PAST)
        heat = _heat_holding_the_run()
        heat.deployments[RUNNING_ID].update(status='COMPLETE',
                                            status_reason='Outputs received')
        self.mock_heatclient.return_value = heat

        row = self._poll()['rows'][RUNNING_ID]

        self.assertIn('data-status="COMPLETE"', row)
        self.assertNotIn('Timed out', row)
        self.assertEqual([], heat.called('software_deployments.update'))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result', 'expire_deployment')})
    def test_a_run_before_its_deadline_costs_no_extra_call(self):
        self._serve(FUTURE)

        reply = self._poll()

        self.assertIn('data-status="IN_PROGRESS"', reply['rows'][RUNNING_ID])
        self.assertEqual([RUNNING_ID], reply['running'])
        self.mock_expire_deployment.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result', 'expire_deployment')})
    def test_a_run_whose_result_could_not_be_looked_for_is_not_timed_out(self):
        self._serve(PAST)
        self.mock_collect_result.side_effect = Exception('messaging down')

        reply = self._poll()

        self.assertIn('data-status="IN_PROGRESS"', reply['rows'][RUNNING_ID])
        self.mock_expire_deployment.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result', 'expire_deployment')})
    def test_the_row_still_renders_when_heat_refuses_the_update(self):
        self._serve(PAST)
        self.mock_expire_deployment.side_effect = Exception('heat down at 10.0.0.7')

        res = self.client.post(self.status_url, {'id': [RUNNING_ID]})

        self.assertEqual(200, res.status_code)
        reply = json.loads(res.content)
        self.assertIn('data-status="IN_PROGRESS"', reply['rows'][RUNNING_ID])
        self.assertNotIn('10.0.0.7', res.content.decode())

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get', 'heatclient'),
                           api.deploy: ('collect_result',)})
    def test_a_runs_page_past_its_deadline_shows_it_timed_out_and_changes_nothing(self):
        self._serve(PAST)
        heat = _heat_holding_the_run()
        self.mock_heatclient.return_value = heat

        res = self.client.get(reverse('horizon:project:deployments:detail',
                                      args=[RUNNING_ID]))

        self.assertEqual(200, res.status_code)
        self.assertContains(res, REASON)
        # Recorded by the next poll (a POST), not by reading the page.
        self.assertEqual('IN_PROGRESS', heat.deployments[RUNNING_ID]['status'])
