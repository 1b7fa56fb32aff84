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

"""The "workflow" scope the Schedules panel checks: the files the settings snippet registers
hold Mistral's own defaults for its rules, and a member passes them for their own project only
(test_policy_registration holds the snippet's and the "orchestration" scope's tests)."""

import pathlib

from openstack_auth import policy
from openstack_dashboard.management.commands import dump_default_policies
import yaml

from tests.unit.test_policy_registration import make_user
from tests.unit.test_policy_registration import mistral_rules
from tests.unit.test_policy_registration import OTHER_PROJECT
from tests.unit.test_policy_registration import OUR_MISTRAL_DEFAULTS
from tests.unit.test_policy_registration import OUR_MISTRAL_POLICY
from tests.unit.test_policy_registration import panel_rules
from tests.unit.test_policy_registration import PolicyCheckCase
from tests.unit.test_policy_registration import referenced_rules
from tests.unit.test_policy_registration import run_snippet


class ShippedMistralPolicyTests(PolicyCheckCase):
    """The "workflow" scope: the Schedules panel's rules, Mistral's defaults."""

    def setUp(self):
        super().setUp()
        self.use_files(run_snippet())
        with open(OUR_MISTRAL_DEFAULTS, encoding='utf-8') as f:
            self.defaults = yaml.safe_load(f)
        self.names = {each['name'] for each in self.defaults}

    def test_every_rule_the_schedules_panel_checks_is_shipped(self):
        used = panel_rules('workflow')

        self.assertLessEqual({'cron_triggers:list', 'cron_triggers:create',
                              'cron_triggers:delete'}, used)
        self.assertLessEqual(used, self.names)

    def test_the_defaults_are_mistrals_own(self):
        expected = [dump_default_policies._format_default_policy(r) for r in mistral_rules()]

        self.assertEqual(expected, self.defaults)

    def test_the_overrides_file_overrides_nothing_and_shows_every_default(self):
        text = pathlib.Path(OUR_MISTRAL_POLICY).read_text(encoding='utf-8')

        self.assertIsNone(yaml.safe_load(text))
        for each in self.defaults:
            with self.subTest(rule=each['name']):
                self.assertIn(f'#"{each["name"]}": "{each["check_str"]}"', text)
                self.assertLessEqual(referenced_rules(each['check_str']), self.names)

    def test_a_member_passes_for_its_own_project_only(self):
        member = make_user('member', 'reader')

        self.assertLessEqual(self.names, set(policy._get_enforcer()['workflow'].rules))
        for rule in sorted(panel_rules('workflow')):
            with self.subTest(rule=rule):
                self.assertTrue(self.allowed(rule, member, scope='workflow'))
                self.assertFalse(self.allowed(rule, member, {'project_id': OTHER_PROJECT},
                                              scope='workflow'))
