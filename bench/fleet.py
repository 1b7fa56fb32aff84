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

"""The bench's own servers: DeployedServers in a stack of their own, each with a real agent.

Like the demo's servers (devcloud.demo), each runs the stock heat-agents chain
(devcloud.servers): os-collect-config polls its metadata every second, and 55-heat-config runs
the config's hook and heat-config-notify PUTs the result to the run's TempURL. One agent runs
one server's runs one after another, so runs that must overlap need servers of their own.
"""

import time

from devcloud import demo

STACK_NAME = 'bench'
SERVER_COUNT = 12

# A run that takes as long as it is told to: what signal-to-screen waits on.
WAIT_CONFIG = {
    'name': 'bench-wait',
    'group': 'script',
    'config': '#!/bin/sh\nsleep "$seconds"\necho "waited $seconds s"\n',
    'inputs': [{'name': 'seconds', 'type': 'Number', 'default': 5}],
    'outputs': [],
    'options': {},
}


def _template(count):
    servers = {f'server_{i}': {'type': demo.SERVER_TYPE,
                               'properties': {'name': f'bench-{i}',
                                              'software_config_transport': 'POLL_TEMP_URL'}}
               for i in range(1, count + 1)}
    return {'heat_template_version': '2018-08-31', 'resources': servers}


def _created(heat, stack_id, timeout=300):
    """The stack once Heat has made it: it lists resources not made yet as INIT_COMPLETE, one
    by one, so only the stack's own status says that every server exists."""
    deadline = time.monotonic() + timeout
    while True:
        stack = heat.stacks.get(stack_id)
        if stack.stack_status == 'CREATE_COMPLETE':
            return stack
        if stack.stack_status.endswith('FAILED') or time.monotonic() > deadline:
            raise RuntimeError(f'the bench stack was not created: {stack.stack_status} '
                               f'{stack.stack_status_reason}')
        time.sleep(1)


class Fleet:
    """The bench stack's servers: {name: server id}, and their agents once started."""

    def __init__(self, heat, count=SERVER_COUNT):
        stack = _created(heat, heat.stacks.create(stack_name=STACK_NAME,
                                                  template=_template(count))['stack']['id'])
        # {name: (server id, metadata URL)}, as devcloud.demo's agents want them.
        self._servers = demo.wait_for_servers(heat, stack)
        self.server_ids = [server_id for server_id, _url in
                           (self._servers[name] for name in sorted(self._servers))]
        self.wait_config_id = heat.software_configs.create(**WAIT_CONFIG).id

    def start_agents(self, cloud):
        """Agents are started on demand, so runs can be queued before any server reports."""
        demo.start_agents(cloud.layout, cloud.sup, self._servers)
