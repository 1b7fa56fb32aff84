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

"""The deployments table asks each of its actions' policy rules once per page view, not once
per row, and still offers each row the actions its state and the user's rules allow."""

import collections
from unittest import mock

from django.test.utils import override_settings
from django.urls import reverse
from heatclient.v1 import software_configs
from openstack_auth import policy

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import operation_data
from tests.unit import test_data

ROWS = 20
RUNNING = 3
# The rules of the table's row actions: Cancel Run, Run Again, Delete Run.
ROW_ACTION_RULES = ('software_deployments:update', 'software_deployments:create',
                    'software_configs:create', 'software_deployments:delete')


def _runs():
    """A page of runs, the first RUNNING of them running, the others complete."""
    template = test_data.DEPLOYMENTS[0]
    return [test_data.deployment(dict(
        template, id=f'00000000-0000-4000-8000-{n:012d}', config_id=f'config-{n:03d}',
        status='IN_PROGRESS' if n < RUNNING else 'COMPLETE',
        creation_time=f'2025-03-01T09:{59 - n:02d}:00Z')) for n in range(ROWS)]


def _action_id(run, action):
    return f'deployments__row_{run.id}__action_{action}'


@override_settings(POLICY_CHECK_FUNCTION='openstack_auth.policy.check')
class PolicyOnceTestCase(helpers.TestCase):
    """Horizon's test settings switch policy checks off; this switches the real checks on,
    and counts the rules they ask."""

    def setUp(self):
        super().setUp()
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        self.addCleanup(policy.reset)
        self.runs = _runs()
        self.asked = collections.Counter()
        check = policy.check

        def counted(actions, request, target=None):
            self.asked.update(rule for _scope, rule in actions)
            return check(actions, request, target)

        patcher = mock.patch.object(policy, 'check', side_effect=counted)
        patcher.start()
        self.addCleanup(patcher.stop)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def view(self):
        self.mock_deployments_list.return_value = self.runs
        self.mock_config_get.side_effect = test_data.named_config
        res = self.client.get(reverse('horizon:project:deployments:index'))
        self.assertEqual(200, res.status_code)
        self.assertEqual(ROWS, len(res.context['table'].data))
        return res

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get')})
    def view_operation(self):
        """An operation's page (operation_data's): a run running, one failed."""
        self.mock_deployments_list.return_value = operation_data.runs()
        self.mock_config_get.side_effect = operation_data.config_get
        res = self.client.get(reverse('horizon:project:deployments:operation',
                                      args=[operation_data.OPERATION.id]))
        self.assertEqual(200, res.status_code)
        return res


class MemberTests(PolicyOnceTestCase):

    def test_each_rule_is_asked_once_for_a_page_of_rows(self):
        self.view()

        self.assertEqual({rule: 1 for rule in ROW_ACTION_RULES},
                         {rule: self.asked[rule] for rule in ROW_ACTION_RULES})

    def test_and_again_on_the_next_view(self):
        self.view()
        self.view()

        self.assertEqual({2}, {self.asked[rule] for rule in ROW_ACTION_RULES})

    def test_each_row_still_gets_the_actions_of_its_state(self):
        res = self.view()

        for n, run in enumerate(self.runs):
            with self.subTest(run=n):
                running = n < RUNNING
                # Cancel only while it runs; Run Again and Delete on each.
                self.assertEqual(running, _action_id(run, 'cancel') in res.content.decode())
                self.assertContains(res, _action_id(run, 'rerun'))
                self.assertContains(res, _action_id(run, 'delete'))
        self.assertContains(res, 'deployments__action_cancel')
        self.assertContains(res, 'deployments__action_delete')

    def test_an_operation_asks_them_once_and_offers_its_own_actions(self):
        res = self.view_operation()

        self.assertContains(res, 'id="operation__action_cancel_all"')
        self.assertContains(res, 'id="operation__action_rerun_failed"')
        running = operation_data.RUN_IDS[1]
        self.assertContains(res, f'operation__row_{running}__action_cancel')
        # Run Again on Failed and each row's Run Again ask the same rules.
        self.assertEqual({1}, {self.asked[rule] for rule in ROW_ACTION_RULES[:3]})

    @helpers.create_mocks({api.heat: ('configs_list',)})
    def test_the_configs_list_asks_its_row_actions_rules_once(self):
        self.mock_configs_list.return_value = [software_configs.SoftwareConfig(None, {
            'id': f'c0ffee00-0000-4000-8000-{n:012d}', 'name': f'config-{n}',
            'group': 'script', 'creation_time': '2026-11-22T03:20:17Z'}, loaded=True)
            for n in range(ROWS)]

        res = self.client.get(reverse('horizon:project:configs:index'))

        self.assertEqual(ROWS, len(res.context['table'].data))
        # Deploy, Copy and Delete on each row, their rules asked once.
        self.assertEqual(ROWS, res.content.decode().count('/deploy/'))
        self.assertEqual({1}, {self.asked[rule] for rule in (
            'software_deployments:create', 'software_configs:delete')})


class ReaderTests(PolicyOnceTestCase):
    user_roles = ['reader']

    def test_a_reader_is_offered_no_action_on_any_row(self):
        res = self.view()

        for run in self.runs:
            for action in ('cancel', 'rerun', 'delete'):
                self.assertNotContains(res, _action_id(run, action))
        self.assertNotContains(res, 'deployments__action_cancel')
        self.assertNotContains(res, 'deployments__action_delete')
        self.assertEqual({1}, {self.asked[rule] for rule in ROW_ACTION_RULES
                               if self.asked[rule]})

    def test_nor_on_an_operation(self):
        res = self.view_operation()

        for action in ('cancel_all', 'rerun_failed'):
            self.assertNotContains(res, 'operation__action_' + action)
        for run_id in operation_data.RUN_IDS:
            for action in ('cancel', 'rerun'):
                self.assertNotContains(res, f'operation__row_{run_id}__action_{action}')
