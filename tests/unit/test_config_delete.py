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

"""Software Configs: deleting a config, refused while a deployment uses it."""

from heatclient import exc as heat_exc

from tests.unit import components_data as demo
from tests.unit import configs_case as case
from tests.unit import helpers

MYSQL_BACKUP = demo.DERIVED[3]


class DeleteConfigTests(case.ConfigsTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_form_names_the_config_and_shows_the_command(self):
        self.serve()

        res = self.get_ajax(case.url('delete'))

        self.assertEqual(200, res.status_code)
        self.assertContains(res, '<strong>hello</strong>')
        self.assertContains(res, '<code>openstack software config delete '
                                 f'{case.HELLO_ID}</code>')
        self.assertNotContains(res, 'alert-warning')
        self.assertContains(res, 'class="btn btn-danger" type="submit"')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_deletes_an_unused_config_after_looking_for_its_deployments(self):
        self.serve()

        res = self.client.post(case.url('delete'))

        self.assertRedirectsNoFollow(res, case.INDEX_URL)
        self.mock_deployments_list.assert_called_once_with(helpers.IsHttpRequest())
        self.mock_config_delete.assert_called_once_with(helpers.IsHttpRequest(),
                                                        case.HELLO_ID)
        self.assertMessageCount(success=1)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_derived_config_in_use_points_to_the_run_to_delete_instead(self):
        self.serve()
        run = demo.DEPLOYMENTS[3]

        opened = self.get_ajax(case.url('delete', MYSQL_BACKUP['id']))
        posted = self.client.post(case.url('delete', MYSQL_BACKUP['id']),
                                  HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        for res in (opened, posted):
            # By the run's name and its server's, as the pages show it (no names served here).
            self.assertContains(res, f'This config was made for the run mysql-BACKUP on '
                                     f'{run["server_id"]}')
        self.assertContains(opened, 'BACKUP on ' + run['server_id'])
        self.assertContains(opened, f'/project/deployments/{run["id"]}/')
        self.assertNotContains(opened, 'type="submit"')
        self.assertFormErrors(posted, 1)
        self.mock_config_delete.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_source_config_in_use_lists_its_deployments(self):
        used = case.hello()
        deployments = [dict(demo.DEPLOYMENTS[0], id=f'{n:08x}-0000-4000-8000-00000000000d',
                            config_id=case.HELLO_ID)
                       for n in range(2)]
        self.serve([used], deployments)

        opened = self.get_ajax(case.url('delete'))
        posted = self.client.post(case.url('delete'), HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        self.assertContains(opened, '2 deployments use this config')
        self.assertContains(opened, '/project/deployments/00000001-0000-4000-8000-00000000000d/')
        self.assertContains(posted, '2 deployments use this config')
        self.mock_config_delete.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_heat_failing_is_a_sentence_without_its_raw_text(self):
        self.serve()
        self.mock_config_delete.side_effect = heat_exc.HTTPInternalServerError(
            message='Traceback: InvalidRestrictedAction')

        res = self.client.post(case.url('delete'))

        self.assertContains(res, 'Unable to delete the software config')
        self.assertNotContains(res, 'Traceback')
