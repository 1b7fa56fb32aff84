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

"""The servers of the project the user is working in (runner.running.servers: what a run may be
sent to, and how they are found), read on the user's clients once per request. The project's stacks
are listed once per request too: the components and the servers' names both need them."""

from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from openstack_dashboard.api import nova

from heat_deploy_dashboard import api
from heat_deploy_runner.running import servers as runner_servers

# Nested stacks are read this deep (runner.running.servers.NESTED_DEPTH).
NESTED_DEPTH = runner_servers.NESTED_DEPTH


@memoized
def stacks(request):
    """The project's stacks, listed once per request: the components and the servers' names
    both need them."""
    return api.heat.stacks_list(request)


@memoized
def template(request, stack_name):
    """The template of the project's stack of this name, read once per request: the form's
    inputs and the stack's wiring both need it."""
    found = {stack.stack_name: stack.id for stack in stacks(request)}
    # Named with its id, Heat answers at once instead of redirecting to that name.
    reference = f'{stack_name}/{found[stack_name]}' if stack_name in found else stack_name
    return api.heat.stack_template(request, reference)


def _nova_servers(request):
    found, _more = nova.server_list(request, detailed=False)
    return [runner_servers.Server(server.id, getattr(server, 'name', '') or '')
            for server in found]


@memoized
def of_project(request):
    """The project's servers (runner.running.servers.ProjectServers), read once per request."""
    return runner_servers.of_project(
        lambda: stacks(request),
        lambda stack, resource_type, **kwargs: api.heat.resources_list(
            request, stack, resource_type, **kwargs),
        (lambda: _nova_servers(request)) if base.is_service_enabled(request, 'compute')
        else None)
