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

"""The command line's clients (osc.plugin): the project's Compute servers, page by page as
Compute says, whatever its own largest page."""

from heat_deploy_runner.osc import plugin


class _Answer:
    def __init__(self, body):
        self.body = body

    def json(self):
        return self.body


class _Session:
    """keystoneauth's session, answering GET /servers from pages of two (Compute's
    max_limit below the plugin's page)."""

    def __init__(self, ids):
        self.ids = ids
        self.asked = []

    def get(self, url, params, endpoint_filter):
        self.asked.append(dict(params))
        start = self.ids.index(params['marker']) + 1 if 'marker' in params else 0
        page = self.ids[start:start + 2]
        more = start + 2 < len(self.ids)
        return _Answer({'servers': [{'id': each, 'name': f'name-{each}'} for each in page],
                        'servers_links': [{'rel': 'next', 'href': '...'}] if more else []})


def test_every_page_compute_announces_is_read():
    session = _Session(['a', 'b', 'c', 'd', 'e'])

    found = plugin.Clients(session, None, 'public')._compute_servers()

    assert [(each.id, each.name) for each in found] == [
        (each, f'name-{each}') for each in 'abcde']
    assert [each.get('marker') for each in session.asked] == [None, 'b', 'd']


class _Stack:
    def __init__(self, name, project):
        self.id, self.stack_name, self.project = f'id-{name}', name, project
        self.parent = None


class _Resource:
    resource_type = 'OS::Heat::DeployedServer'

    def __init__(self, server_id, name):
        self.physical_resource_id = server_id
        self.attributes = {'name': name}
        self.stack_name = None


class _AdminHeat:
    """Heat as an admin sees it: every project's stacks, each with its project."""

    def __init__(self):
        self.stacks = self
        self.resources = self

    def list(self, stack=None, show_nested=False, filters=None, **kwargs):
        if stack is None:
            return [_Stack('ours', 'admin-project'), _Stack('theirs', 'demo-project')]
        if filters['type'] != 'OS::Heat::DeployedServer':
            return []
        return [_Resource(f'server-of-{stack.split("/")[0]}', f'db-{stack.split("/")[0]}')]


class _ScopedSession:
    def get_project_id(self):
        return 'admin-project'

    def get_endpoint(self, **kwargs):
        return None


def test_an_admins_servers_are_its_projects_not_every_stacks():
    clients = plugin.Clients(_ScopedSession(), None, 'public')
    clients.__dict__['_runner'] = type('Runner', (), {'heat': _AdminHeat()})()

    found = clients.servers

    assert [server.id for server in found.servers] == ['server-of-ours']
