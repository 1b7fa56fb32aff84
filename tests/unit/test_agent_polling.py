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

"""A running run's page says how long the server has had it, against its agent's polling."""

import datetime

from django.test import override_settings

from heat_deploy_dashboard.content.deployments import agent_polling
from heat_deploy_runner import Run
from tests.unit import helpers


def _run(seconds_ago, status='IN_PROGRESS', transport='TEMP_URL_SIGNAL', live_url=None):
    created = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(
        seconds=seconds_ago)
    config = {'inputs': [{'name': 'deploy_signal_transport', 'value': transport},
                         {'name': 'deploy_live_url', 'value': live_url}]}
    return Run('d1', 's1', 'c1', status=status,
               creation_time=created.strftime('%Y-%m-%dT%H:%M:%SZ')).described(config)


class WaitingNoteTests(helpers.TestCase):

    def test_within_the_polling_interval_the_agent_may_not_have_looked_yet(self):
        note = agent_polling.waiting_note(_run(12))
        self.assertIn('every 30 s, so it may not have started it yet', note)

    def test_past_it_the_run_is_running_or_was_never_run(self):
        note = agent_polling.waiting_note(_run(200))
        self.assertIn('this run for 3m 20s', note)
        self.assertIn('the agent has not run it', note)

    def test_past_it_a_live_run_points_to_its_lines(self):
        note = agent_polling.waiting_note(_run(200, live_url='https://swift/v1/c/live/o'))
        self.assertIn('this run for 3m 20s', note)
        self.assertIn('show on the Outputs tab as the server sends them', note)
        self.assertNotIn('sends nothing until the run ends', note)

    @override_settings(HEAT_DEPLOY_AGENT_POLLING_INTERVAL=1)
    def test_the_interval_is_the_clouds_own(self):
        self.assertIn('every 1 s and sends nothing', agent_polling.waiting_note(_run(5)))

    def test_nothing_is_said_of_a_finished_run_or_one_that_reports_nothing(self):
        self.assertIsNone(agent_polling.waiting_note(_run(5, status='COMPLETE')))
        self.assertIsNone(agent_polling.waiting_note(_run(5, transport='NO_SIGNAL')))
