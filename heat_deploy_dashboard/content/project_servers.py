"""The servers of the project the user is working in: what a run may be sent to.

Heat deploys to whatever server id it is given, and a deployment to an id no agent reads
stays IN_PROGRESS until its timeout. The servers an agent can read its deployments for are
those of the project's stacks (OS::Heat::DeployedServer and OS::Nova::Server resources,
nested stacks included) and the project's Compute servers.

Heat lists only the project's stacks, even to an admin, and Horizon lists only the
project's Compute servers: another project's server is never among them.

Calls: one Heat stack listing, then per top-level stack one resource listing of its
DeployedServers (with their attributes: the server's name is one), and one Compute server
listing when ``compute`` is in the catalog; without it, one more resource listing per stack
for its OS::Nova::Server resources, named by their ids only. With Compute, Nova's listing
holds those servers already, with their names. Errors are kept, not raised: what could be
read is still worth offering, and a typed server found in it is still known.
"""

import dataclasses
import logging

from django.utils.translation import gettext
from heatclient import exc as heat_exc
from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from openstack_dashboard.api import nova

from heat_deploy_dashboard import api

LOG = logging.getLogger(__name__)

DEPLOYED_SERVER = 'OS::Heat::DeployedServer'
NOVA_SERVER = 'OS::Nova::Server'
# Heat reads nested stacks only down to its max_nested_stack_depth (5 by default), which is
# also the deepest a stack may nest; it takes the smaller of the two.
NESTED_DEPTH = 100


@dataclasses.dataclass(frozen=True)
class Server:
    id: str
    name: str = ''


@dataclasses.dataclass(frozen=True)
class ProjectServers:
    """The project's servers, by name then id; ``complete`` is False when a listing could
    not be read, so that a server not found may still exist."""

    servers: tuple = ()
    complete: bool = True

    def find(self, text):
        """The server ``text`` names: its id, or its name when only one server has that
        name. Raises LookupError with the sentence to show, translated."""
        text = (text or '').strip()
        for server in self.servers:
            if server.id == text:
                return server
        named = [server for server in self.servers if server.name == text]
        if len(named) == 1:
            return named[0]
        if named:
            raise LookupError(gettext(
                'Several servers are named %(name)s; give its ID.') % {'name': text})
        if not self.complete:
            raise LookupError(gettext(
                "Unable to check the server: its listing could not be read from the "
                "orchestration or compute service. Nothing was started. Try again later, "
                "or give the ID of a server of one of your stacks."))
        raise LookupError(gettext('No server of this project has that ID or name.'))


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


def _top_level(stacks):
    # A nested stack is listed too (show_nested), with its parent; listing each root's
    # resources with a nested depth reads the nested ones, one call for the whole tree.
    return [stack for stack in stacks if not getattr(stack, 'parent', None)]


def _resources(request, stack, resource_type, with_detail):
    """The stack's resources of exactly this type (Heat matches a part of the type)."""
    try:
        found = api.heat.resources_list(
            request, f'{stack.stack_name}/{stack.id}', resource_type,
            nested_depth=NESTED_DEPTH, with_detail=with_detail)
    except heat_exc.HTTPNotFound:
        # Deleted since it was listed: its servers are gone with it.
        return []
    return [resource for resource in found
            if getattr(resource, 'resource_type', None) == resource_type
            and getattr(resource, 'physical_resource_id', None)]


def _name_of(resource):
    # A DeployedServer's "name" attribute is its name property, or the name Heat made up.
    attributes = getattr(resource, 'attributes', None) or {}
    name = attributes.get('name') if isinstance(attributes, dict) else None
    return name if isinstance(name, str) else ''


def _heat_servers(request, with_nova_resources):
    servers = []
    for stack in _top_level(stacks(request)):
        servers += [Server(r.physical_resource_id, _name_of(r))
                    for r in _resources(request, stack, DEPLOYED_SERVER, with_detail=True)]
        if with_nova_resources:
            servers += [Server(r.physical_resource_id)
                        for r in _resources(request, stack, NOVA_SERVER, with_detail=False)]
    return servers


def _nova_servers(request):
    found, _more = nova.server_list(request, detailed=False)
    return [Server(server.id, getattr(server, 'name', '') or '') for server in found]


@memoized
def of_project(request):
    """The project's servers (ProjectServers), read once per request."""
    compute = base.is_service_enabled(request, 'compute')
    sources = [lambda: _heat_servers(request, with_nova_resources=not compute)]
    if compute:
        sources.append(lambda: _nova_servers(request))
    by_id, complete = {}, True
    for source in sources:
        try:
            listed = source()
        except Exception:
            LOG.warning("Could not list the project's servers", exc_info=True)
            complete = False
            continue
        for server in listed:
            known = by_id.get(server.id)
            if known is None or (server.name and not known.name):
                by_id[server.id] = server
    servers = sorted(by_id.values(), key=lambda s: (not s.name, s.name, s.id))
    return ProjectServers(tuple(servers), complete)
