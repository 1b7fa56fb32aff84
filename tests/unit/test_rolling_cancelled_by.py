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

"""Cancelling a run in batches says who cancelled it, and when, in its Mistral execution's
description (runner.running.cancel.cancelled_description), where the operation's page reads it."""

from unittest import mock

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit.test_rolling_runs import EXECUTION_ID


class RollingCancelledByTests(helpers.TestCase):

    def test_execution_cancel_says_who_cancelled_it_and_when(self):
        client = mock.Mock()
        client.executions.update.return_value = mock.Mock(id=EXECUTION_ID, state='CANCELLED')
        request = mock.Mock(**{'user.username': 'demo', 'user.project_id': '1'})

        with mock.patch.object(api.mistral, 'mistralclient', return_value=client):
            cancelled = api.mistral.execution_cancel(request, EXECUTION_ID)

        # Mistral takes a state and a description only in separate updates: the stop first.
        stop, describe = client.executions.update.call_args_list
        self.assertEqual(mock.call(EXECUTION_ID, 'CANCELLED'), stop)
        (execution_id, state), kwargs = describe
        self.assertEqual((EXECUTION_ID, None), (execution_id, state))
        self.assertRegex(kwargs['description'],
                         r'^Cancelled by demo at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$')
        self.assertEqual('CANCELLED', cancelled.state)
