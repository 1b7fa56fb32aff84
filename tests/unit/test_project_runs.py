"""An admin's deployment listing holds every project's runs: the panels keep their project's."""

import unittest
from unittest import mock

from heatclient.v1 import software_configs
from heatclient.v1 import software_deployments

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import project_runs

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
        rows = [_config_row('my-config'), _config_row('their-config')]

        found = project_runs.of_this_project(_request(admin=True), DEPLOYMENTS, rows)

        self.assertEqual(['mine', 'theirs'], [d.id for d in found])
