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

"""Run Action's secret inputs where the workflow service (Mistral) would hold them (in batches,
with tries, on a schedule), on a cloud without Object Storage: refused by the form, in the
command line's words, before anything is started, scheduled or kept."""

from tests.unit.components_case import ComponentsTestCase
from tests.unit.components_case import mysql_form
from tests.unit.components_case import TRIGGER_MOCKS
from tests.unit.components_case import trigger_url
from tests.unit import components_data as data
from tests.unit import helpers
from tests.unit import test_data
from tests.unit.workflow_service import WorkflowService

# What `openstack software component run ... --retries 2` says to the same (osc tests:
# test_run_commands).
REFUSED = ('A secret input of a run in batches, with tries or on a schedule is kept in Object '
           'Storage, which is not in your service catalog (the workflow service would keep it '
           'in the clear). Run it now without batches or tries, or leave db_password empty.')


class SecretsWithoutObjectStorageTests(ComponentsTestCase):

    def setUp(self):
        super().setUp()
        self.workflow = WorkflowService(self)

    def _post_without_object_storage(self, **handed_over):
        test_data.with_workflows(self)
        self.serve_a_secret_input()
        self.service_catalog[:] = [each for each in self.service_catalog
                                   if each['type'] != 'object-store']
        # Without Object Storage, a run can only not wait for its result.
        return self.client.post(trigger_url(data.MYSQL_ID), mysql_form(
            input__db_password='hunter2', transport='NO_SIGNAL', **handed_over))

    def test_without_object_storage_a_secret_is_refused_in_batches_or_with_tries(self):
        # Mistral starts both: it would keep the secret in the clear.
        for handed_over in ({'batch_size': '1'}, {'retries': '2'}):
            with self.subTest(**handed_over):
                self._refused_without_object_storage(handed_over)

    @helpers.create_mocks(TRIGGER_MOCKS)
    def _refused_without_object_storage(self, handed_over):
        res = self._post_without_object_storage(**handed_over)

        self.assertFormErrors(res, 1)
        self.assertContains(res, 'which is not in your service catalog')
        # Nothing kept, nothing started.
        self.assertEqual([], self.workflow.written())

    @helpers.create_mocks(TRIGGER_MOCKS)
    def test_tries_without_batches_are_refused_in_the_command_lines_words(self):
        # Tries alone hand the run to the workflow service too (rolling.hands_over).
        res = self._post_without_object_storage(retries='2')

        self.assertEqual([REFUSED], res.context['form'].errors['input__db_password'])
        self.mock_start_runs.assert_not_called()
        self.assertEqual([], self.workflow.written())
