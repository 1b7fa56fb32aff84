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

"""What a command reads of OpenStackClient, on the in-memory clouds: its client manager's
clients (osc.plugin.Clients) and its stderr."""

import argparse
import functools
import io

from heatclient.v1 import stacks

from heat_deploy_runner.running import servers as runner_servers
from heat_deploy_runner import transport_for

PROJECT = 'project-1'
USER = 'alice'
# (id, name) of the project's servers.
SERVERS = (('s1', 'demo-db-1'), ('s2', 'demo-db-2'), ('s3', 'demo-web-1'))


class _Stacks:
    def __init__(self, *names):
        self.names = names

    def list(self, show_nested=False):
        return [stacks.Stack(None, {'id': f'id-{name}', 'stack_name': name}, loaded=True)
                for name in self.names]


class App:
    def __init__(self, heat, servers=(), swift=None, mistral=None):
        heat.stacks = _Stacks('demo')
        self.stdout = io.StringIO()
        self.stderr = io.StringIO()
        self.client_manager = argparse.Namespace(software_runs=argparse.Namespace(
            heat=heat, project_id=PROJECT, username=USER, swift=swift, mistral=mistral,
            find_transport=functools.partial(transport_for, swift=swift),
            servers=runner_servers.ProjectServers(tuple(
                runner_servers.Server(*each) for each in servers))))


def command(command_class, app, *argv):
    """(the command, its parsed arguments)."""
    made = command_class(app, None)
    return made, made.get_parser('openstack').parse_args(list(argv))


def shown(command_class, app, *argv):
    """What a ShowOne command shows, as a dict."""
    made, parsed = command(command_class, app, *argv)
    columns, values = made.take_action(parsed)
    return dict(zip(columns, values))


def new_runs(heat):
    """The runs of BACKUP (what the tests start) in the in-memory Heat."""
    return [each for each in heat.deployments.values() if each['action'] == 'BACKUP']
