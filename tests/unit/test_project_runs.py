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

"""An admin's deployment listing holds every project's runs: the panels keep their project's,
and Heat's calls by id answer an admin another project's object as not found."""

import unittest
from unittest import mock

from heatclient import exc as heat_exc
from heatclient.v1 import software_configs
from heatclient.v1 import software_deployments
from heatclient.v1 import stacks

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard import spare_cache

MINE, THEIRS = 'my-project', 'their-project'


def _deployment(deployment_id, config_id):
    return software_deployments.SoftwareDeployment(
        None, {'id': deployment_id, 'config_id': config_id, 'server_id': 's1'}, loaded=True)


def _config_row(config_id, project=None):
    row = {'id': config_id, 'name': config_id, 'group': 'script'}
    if project:
        # Heat adds a config's project to the rows it lists for an admin only.
        row['project'] = project
    return software_configs.SoftwareConfig(None, row, loaded=True)


def _request(admin):
    request = mock.Mock()
    request.user.is_superuser = admin
    request.user.project_id = MINE
    return request


DEPLOYMENTS = [_deployment('mine', 'my-config'), _deployment('theirs', 'their-config')]


@mock.patch.object(api.heat, 'configs_list')
@mock.patch.object(api.heat, 'deployments_list', return_value=DEPLOYMENTS)
class ProjectRunsTests(unittest.TestCase):

    def setUp(self):
        spare_cache.clear()
        self.addCleanup(spare_cache.clear)

    def test_an_admin_sees_only_the_runs_of_the_project_at_hand(self, deployments_list,
                                                                configs_list):
        configs_list.return_value = [_config_row('my-config', MINE),
                                     _config_row('their-config', THEIRS)]
        request = _request(admin=True)

        found = project_runs.deployments(request, server_id='s1')

        self.assertEqual(['mine'], [d.id for d in found])
        deployments_list.assert_called_once_with(request, server_id='s1')
        configs_list.assert_called_once_with(request)

    def test_anyone_else_gets_heats_listing_at_no_extra_call(self, deployments_list,
                                                             configs_list):
        found = project_runs.deployments(_request(admin=False))

        self.assertEqual(['mine', 'theirs'], [d.id for d in found])
        configs_list.assert_not_called()

    def test_rows_without_a_project_are_kept(self, deployments_list, configs_list):
        configs_list.return_value = [_config_row('my-config'), _config_row('their-config')]

        found = project_runs.deployments(_request(admin=True))

        self.assertEqual(['mine', 'theirs'], [d.id for d in found])

    def test_a_config_heat_no_longer_lists_counts_as_another_projects(self, deployments_list,
                                                                      configs_list):
        configs_list.return_value = [_config_row('my-config', MINE)]

        found = project_runs.deployments(_request(admin=True))

        self.assertEqual(['mine'], [d.id for d in found])

    def test_whose_a_config_is_is_listed_once_and_remembered(self, deployments_list,
                                                             configs_list):
        configs_list.return_value = [_config_row('my-config', MINE),
                                     _config_row('their-config', THEIRS)]

        project_runs.deployments(_request(admin=True))
        found = project_runs.deployments(_request(admin=True))

        self.assertEqual(['mine'], [d.id for d in found])
        configs_list.assert_called_once()


def _heatclient(deployment=None, config=None, metadata=()):
    client = mock.Mock()
    client.software_deployments.get.return_value = deployment
    client.software_deployments.metadata.return_value = list(metadata)
    client.software_configs.get.return_value = config
    return client


@mock.patch.object(api.heat, 'configs_list', return_value=[
    _config_row('my-config', MINE), _config_row('their-config', THEIRS)])
class ByIdTests(unittest.TestCase):
    """Heat shows an admin any project's object by id; the dashboard does not."""

    def setUp(self):
        spare_cache.clear()
        self.addCleanup(spare_cache.clear)

    def _call(self, function, client, *args, admin=True):
        with mock.patch.object(api.heat, 'heatclient', return_value=client):
            return function(_request(admin=admin), *args)

    def test_an_admin_gets_another_projects_deployment_as_not_found(self, configs_list):
        client = _heatclient(deployment=DEPLOYMENTS[1])

        with self.assertRaises(heat_exc.HTTPNotFound):
            self._call(api.heat.deployment_get, client, 'theirs')

    def test_an_admin_gets_the_projects_own_deployment(self, configs_list):
        client = _heatclient(deployment=DEPLOYMENTS[0])

        self.assertEqual('mine', self._call(api.heat.deployment_get, client, 'mine').id)

    def test_an_admin_gets_another_projects_config_as_not_found(self, configs_list):
        client = _heatclient(config=_config_row('their-config'))

        with self.assertRaises(heat_exc.HTTPNotFound):
            self._call(api.heat.config_get, client, 'their-config')

    def test_a_member_costs_no_listing(self, configs_list):
        client = _heatclient(config=_config_row('their-config'))

        self._call(api.heat.config_get, client, 'their-config', admin=False)

        configs_list.assert_not_called()

    def test_an_admin_lists_only_the_projects_stacks(self, configs_list):
        client = mock.Mock()
        client.stacks.list.return_value = [
            stacks.Stack(None, {'id': 'a', 'stack_name': 'mine', 'project': MINE}, loaded=True),
            stacks.Stack(None, {'id': 'b', 'stack_name': 'theirs', 'project': THEIRS},
                         loaded=True)]

        found = self._call(api.heat.stacks_list, client)

        self.assertEqual(['mine'], [stack.stack_name for stack in found])

    def test_an_admin_reads_only_the_projects_configs_in_a_servers_metadata(self, configs_list):
        client = _heatclient(metadata=[{'id': 'my-config', 'name': 'a'},
                                       {'id': 'their-config', 'name': 'b'}])

        found = self._call(api.heat.server_metadata, client, 's1')

        self.assertEqual(['my-config'], [each['id'] for each in found])
