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

"""The demo stack and the agents of its servers.

The stack is created once, on first start, as the demo user. Its DeployedServers become
CREATE_COMPLETE quickly; their software deployments complete only when the servers' agents have
run the configs and signalled, so the agents start as soon as the servers exist.
"""

import hashlib
import pathlib
import time

from heatclient import client as heat_client
from heatclient import exc as heat_exc

from devcloud import process
from devcloud import servers as servers_mod
from devcloud.services import identity

STACK_NAME = 'demo'
TEMPLATE = pathlib.Path(__file__).with_name('demo-stack.yaml')
SERVER_TYPE = 'OS::Heat::DeployedServer'
# The servers whose script hook is heat-deploy-script-hook (notify/), which sends a running
# script's output to a live target when a run names one; the others are stock. One of the two
# mysql servers, so that the same component runs on both, and the Zaqar-polling monitor.
LIVE_HOOK_SERVERS = frozenset({'demo-db-2', 'demo-mon-1'})


def heat(layout, session=None):
    session = session or identity.user_session(layout)
    return heat_client.Client('1', session=session, auth=session.auth)


def _find_stack(client):
    try:
        return client.stacks.get(STACK_NAME)
    except heat_exc.HTTPNotFound:
        return None


def _delete_stack(client, stack, timeout=120):
    client.stacks.delete(stack.id)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _find_stack(client) is None:
            return
        time.sleep(1)
    raise process.ServiceFailed('the unfinished demo stack could not be deleted')


def _template_digest():
    return hashlib.sha256(TEMPLATE.read_bytes()).hexdigest()


def ensure_stack(layout, progress):
    """The demo stack as the template in this checkout describes it."""
    client = heat(layout)
    stack = _find_stack(client)
    made_from = layout.path('demo-template.sha256')
    if stack is not None and stack.stack_status not in ('CREATE_COMPLETE', 'UPDATE_COMPLETE'):
        # Only this program creates the demo stack, and it is starting now: a stack that is
        # not complete was left by an interrupted first start, and its engine is gone.
        progress(f'Demo: replacing the unfinished demo stack ({stack.stack_status})')
        _delete_stack(client, stack)
        stack = None
    if stack is None:
        progress('Demo: creating the demo stack (4 servers; mysql, wordpress and monitoring '
                 'components)')
        client.stacks.create(stack_name=STACK_NAME, template=TEMPLATE.read_text())
        made_from.write_text(_template_digest())
    elif not made_from.exists() or made_from.read_text() != _template_digest():
        # A pulled change to the demo (a new input, say) reaches an existing cloud too.
        progress('Demo: updating the demo stack to this checkout\'s template')
        client.stacks.update(stack.id, template=TEMPLATE.read_text())
        made_from.write_text(_template_digest())
    return client, client.stacks.get(STACK_NAME)


def collector_args(os_collect_config):
    """os-collect-config arguments for a server's metadata source, as Heat publishes it:
    a URL to poll (POLL_TEMP_URL) or a Zaqar queue with the stack user's credentials
    (ZAQAR_MESSAGE)."""
    if 'request' in os_collect_config:
        return ['--request-metadata-url', os_collect_config['request']['metadata_url'],
                'request']
    zaqar = os_collect_config['zaqar']
    return ['--zaqar-auth-url', zaqar['auth_url'], '--zaqar-user-id', zaqar['user_id'],
            '--zaqar-password', zaqar['password'], '--zaqar-project-id', zaqar['project_id'],
            '--zaqar-queue-id', zaqar['queue_id'], '--zaqar-region-name',
            zaqar.get('region_name') or '', 'zaqar']


def wait_for_servers(client, stack, timeout=120):
    """The demo servers once Heat has made them, with where each agent reads its metadata."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        servers = [r for r in client.resources.list(stack.id)
                   if r.resource_type == SERVER_TYPE]
        if servers and all(r.resource_status.endswith('COMPLETE') for r in servers):
            found = {}
            for r in servers:
                attributes = client.resources.get(stack.id, r.resource_name).attributes
                # A server is COMPLETE a moment before its metadata source is published.
                if attributes.get('os_collect_config'):
                    found[attributes['name']] = (
                        r.physical_resource_id,
                        collector_args(attributes['os_collect_config']))
            if len(found) == len(servers):
                return found
        failed = [r for r in servers if r.resource_status.endswith('FAILED')]
        if failed:
            raise process.ServiceFailed(f'demo server {failed[0].resource_name} failed: '
                                        f'{failed[0].resource_status_reason}')
        time.sleep(1)
    raise process.ServiceFailed('the demo stack\'s servers were not created in time')


def start_agents(layout, sup, servers):
    """Each server's agent: the stock heat-agents chain (devcloud.servers), with
    heat-deploy-script-hook on LIVE_HOOK_SERVERS."""
    return [(f'agent-{name}', servers_mod.start(layout, sup, name, collector,
                                                live_hook=name in LIVE_HOOK_SERVERS))
            for name, (_server_id, collector) in sorted(servers.items())]


def wait_for_stack(client, sup, agents, timeout=300):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name, proc in agents:
            sup.check_alive(name, proc)
        stack = client.stacks.get(STACK_NAME)
        if stack.stack_status.endswith('COMPLETE'):
            return stack
        if stack.stack_status.endswith('FAILED'):
            raise process.ServiceFailed(f'the demo stack failed: {stack.stack_status_reason}')
        time.sleep(1)
    raise process.ServiceFailed('the demo stack did not complete in time')


def start(layout, sup, progress):
    client, stack = ensure_stack(layout, progress)
    servers = wait_for_servers(client, stack)
    agents = start_agents(layout, sup, servers)
    if not stack.stack_status.endswith('COMPLETE'):
        progress('Demo: waiting for the servers\' agents to run the components')
    return wait_for_stack(client, sup, agents)
