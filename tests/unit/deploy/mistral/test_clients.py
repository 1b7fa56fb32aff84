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

"""What Mistral's actions act through: the user's token of an execution started through the
API, a cron firing's trust as Mistral's service user, the project's own copy of the
workflow; and retention's prune of the firing project's runs."""

import json
from unittest import mock

from keystoneauth1.identity import generic
from keystoneauth1 import loading
from oslo_config import cfg

import heat_deploy_runner as runner
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.running import operations
from heat_deploy_runner import session_clients
from heat_deploy_runner import workflows


def test_an_execution_started_through_the_api_uses_the_users_token_as_it_is():
    security = mock.Mock(trust_id=None, auth_token='the-token', service_catalog={
        'expires_at': '2999-01-01T00:00:00.000000Z', 'methods': ['password'],
        'project': {'id': 'p1', 'name': 'demo', 'domain': {'id': 'default'}},
        'user': {'id': 'u1', 'name': 'demo', 'domain': {'id': 'default'}},
        'catalog': [{'type': 'orchestration', 'name': 'heat', 'endpoints': [
            {'interface': 'public', 'region': 'RegionOne', 'region_id': 'RegionOne',
             'url': 'http://heat.example.com/v1/p1'}]}]})
    with mock.patch('keystoneauth1.session.Session.request') as request:
        session = clients_mod.session_for(security)
        assert session.get_token() == 'the-token'
        assert session.get_endpoint(service_type='orchestration',
                                    interface='public') == 'http://heat.example.com/v1/p1'
        assert session_clients.endpoint(session, 'messaging') is None
    request.assert_not_called()


class _Workflows:
    """python-mistralclient's workflows manager, as an admin sees it: every project's."""

    def __init__(self, *existing):
        self.existing = list(existing)
        self.made = []

    def list(self, name=None):
        return [each for each in self.existing if each.name == name]

    def create(self, definition, scope='private'):
        made = mock.Mock(id=f'made-{len(self.made)}', project_id='mine', scope=scope)
        made.name = workflows.ROLLING_WORKFLOW
        self.made.append(definition)
        return [made]


def _workflow(workflow_id, project_id):
    found = mock.Mock(id=workflow_id, project_id=project_id)
    found.name = workflows.ROLLING_WORKFLOW
    return found


def test_the_projects_own_copy_of_the_workflow_is_used_and_made_only_once():
    client = mock.Mock(workflows=_Workflows(_workflow('theirs', 'other-project')))
    assert workflows.ensure(client, 'mine') == 'made-0'
    assert client.workflows.made == [workflows.definition(workflows.ROLLING_WORKFLOW)]
    client.workflows.existing.append(_workflow('made-0', 'mine'))
    assert workflows.ensure(client, 'mine') == 'made-0'
    assert len(client.workflows.made) == 1


MISTRAL_CONF = '''
[keystone_authtoken]
auth_type = password
auth_url = http://keystone.example.com/v3
username = mistral
password = secret
project_name = service
user_domain_name = Default
project_domain_name = Default
'''


def test_a_cron_firing_works_through_its_trust_as_mistrals_service_user(tmp_path):
    conf_file = tmp_path / 'mistral.conf'
    conf_file.write_text(MISTRAL_CONF)
    conf = cfg.ConfigOpts()
    loading.register_auth_conf_options(conf, 'keystone_authtoken')
    conf(args=[], default_config_files=[str(conf_file)])
    security = mock.Mock(trust_id='trust-1', auth_token='fixed-token-of-the-firing')

    with mock.patch('keystoneauth1.session.Session.request') as request:
        session = clients_mod._trust_session(security.trust_id, conf)
    request.assert_not_called()

    assert isinstance(session.auth, generic.Password)
    scope = session.auth.get_cache_id_elements()
    assert (scope['trust_id'], scope['username']) == ('trust-1', 'mistral')
    # Keystone refuses a trust together with another scope.
    assert not any(scope[key] for key in ('project_id', 'project_name', 'project_domain_id',
                                          'project_domain_name', 'domain_id', 'domain_name'))


def test_prune_archives_and_deletes_the_runs_past_the_bound_of_the_firing_project(
        cloud, context, heat, swift, component):
    context.security.project_id = 'project-1'
    kept = operations.Operation('op-1', 'alice', '2026-01-01T00:00:00Z', source=component)
    old, new = (runner.start(heat, cloud.find_transport, runner.RunRequest(
        config_id=component, action='BACKUP', server_ids=['s1']), kept).created[0]
        for _ in range(2))
    heat.deployments[old.id].update(creation_time='2026-01-01T00:00:00Z', status='COMPLETE')
    heat.deployments[new.id].update(status='COMPLETE')

    result = actions.PruneAction(1, '7', 2000).run(context)

    assert result == {'pruned': [old.id], 'left': [], 'swept': []}
    assert list(heat.deployments) == [new.id]
    assert archive.get(swift, old.id).archived
    # Mistral hands the action to its executor as its attributes, in JSON.
    assert json.loads(json.dumps(vars(actions.PruneAction(1, 7, 2000))))
