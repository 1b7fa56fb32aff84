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

"""The servers of a project: what a run may be sent to, found by id or by name.

Heat deploys to whatever server id it is given, and a deployment to an id no agent reads
stays IN_PROGRESS until its timeout. The servers an agent can read its deployments for are
those of the project's stacks (OS::Heat::DeployedServer and OS::Nova::Server resources,
nested stacks included) and the project's Compute servers.

Heat lists only the project's stacks, even to an admin, and so does Compute's listing of
servers: another project's server is never among them.

Calls: per top-level stack one resource listing of its DeployedServers (with their
attributes: the server's name is one) and one of its OS::Nova::Server resources (ids only:
which stack holds a server is how a fleet is chosen), and one Compute server listing when
Compute is in the catalog, which names those servers and lists those of no stack. Errors
are kept, not raised: what could be read is still worth offering, and a typed server found
in it is still known.

The caller makes the calls on its own clients (the dashboard's API seam, the command line's
session), so that the same servers are found, by the same rules, wherever a run starts.
"""

from collections.abc import Callable, Iterable, Mapping
import dataclasses
import logging

from heatclient import exc as heat_exc

from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import Message

LOG = logging.getLogger(__name__)

DEPLOYED_SERVER = 'OS::Heat::DeployedServer'
NOVA_SERVER = 'OS::Nova::Server'
# Heat reads nested stacks only down to its max_nested_stack_depth (5 by default), which is
# also the deepest a stack may nest; it takes the smaller of the two.
NESTED_DEPTH = 100

SEVERAL_NAMED = gettext_noop('Several servers are named %(name)s; give its ID.')
UNCHECKED = gettext_noop(
    'Unable to check the server: its listing could not be read from the orchestration or '
    'compute service. Nothing was started. Try again later, or give the ID of a server of '
    'one of your stacks.')
NOT_FOUND = gettext_noop('No server of this project has that ID or name.')


class ServerNotFound(LookupError):
    """No one server of the project is the one named; ``message`` says why."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message


# The first characters of an id, shown beside a name: enough to tell two servers apart.
SHORT_ID = 8


def called(server_id: str, names: Mapping[str, str] | None = None) -> str:
    """A server as a sentence names it: its name and short id, or its id where nothing
    names it."""
    name = (names or {}).get(server_id)
    return f'{name} ({server_id[:SHORT_ID]})' if name else server_id


@dataclasses.dataclass(frozen=True)
class Server:
    id: str
    name: str = ''
    # The names of the stacks that hold it: its top-level stack's and, for a server of a
    # nested stack (a resource group's), that stack's; none for a Compute server of no stack.
    stacks: tuple = ()


@dataclasses.dataclass(frozen=True)
class ProjectServers:
    """The project's servers, by name then id; ``complete`` is False when a listing could
    not be read, so that a server not found may still exist."""

    servers: tuple = ()
    complete: bool = True

    def find(self, text: str) -> Server:
        """The server ``text`` names: its id, or its name when only one server has that
        name. Raises ServerNotFound."""
        text = (text or '').strip()
        for server in self.servers:
            # Ids are written in lower case by Nova and Heat, but not always by people.
            if server.id.lower() == text.lower():
                return server
        named = [server for server in self.servers if server.name == text]
        if len(named) == 1:
            return named[0]
        if named:
            raise ServerNotFound(Message(SEVERAL_NAMED, {'name': text}))
        raise ServerNotFound(Message(NOT_FOUND if self.complete else UNCHECKED))

    def names(self) -> dict:
        """{id: name} of the servers that have a name."""
        return {server.id: server.name for server in self.servers if server.name}

    def stacks(self) -> dict:
        """{id: the names of the stacks that hold it} of the servers of stacks."""
        return {server.id: server.stacks for server in self.servers if server.stacks}


# list_resources(stack reference "name/id", resource type, nested_depth=, with_detail=):
# Heat's resource listing, on the caller's client.
ListResources = Callable[..., Iterable]


def _top_level(stacks):
    # A nested stack is listed too (show_nested), with its parent; listing each root's
    # resources with a nested depth reads the nested ones, one call for the whole tree.
    return [stack for stack in stacks if not getattr(stack, 'parent', None)]


def _resources(list_resources: ListResources, stack, resource_type, with_detail):
    """The stack's resources of exactly this type (Heat matches a part of the type)."""
    try:
        found = list_resources(f'{stack.stack_name}/{stack.id}', resource_type,
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


def _stacks_of(resource, top_level):
    # Heat names the stack of each resource of a nested listing.
    name = getattr(resource, 'stack_name', None)
    nested = (name,) if isinstance(name, str) and name not in ('', top_level.stack_name) else ()
    return (top_level.stack_name,) + nested


def _heat_servers(stacks, list_resources: ListResources):
    servers = []
    for stack in _top_level(stacks):
        servers += [Server(r.physical_resource_id, _name_of(r), _stacks_of(r, stack))
                    for r in _resources(list_resources, stack, DEPLOYED_SERVER,
                                        with_detail=True)]
        servers += [Server(r.physical_resource_id, stacks=_stacks_of(r, stack))
                    for r in _resources(list_resources, stack, NOVA_SERVER,
                                        with_detail=False)]
    return servers


def of_project(stacks: Callable[[], Iterable], list_resources: ListResources,
               compute_servers: Callable[[], Iterable[Server]] | None = None
               ) -> ProjectServers:
    """The project's servers. ``stacks`` lists the project's stacks (nested ones too);
    ``compute_servers`` lists its Compute servers, None when Compute is not in the
    catalog."""
    sources = [lambda: _heat_servers(stacks(), list_resources)]
    if compute_servers is not None:
        sources.append(compute_servers)
    by_id, complete = {}, True
    for source in sources:
        try:
            listed = list(source())
        except Exception:
            LOG.warning("Could not list the project's servers", exc_info=True)
            complete = False
            continue
        for server in listed:
            known = by_id.get(server.id)
            if known is None:
                by_id[server.id] = server
            elif server.name and not known.name:
                # Compute's name for a server of a stack: the stack is kept.
                by_id[server.id] = dataclasses.replace(known, name=server.name)
    servers = sorted(by_id.values(), key=lambda s: (not s.name, s.name, s.id))
    return ProjectServers(tuple(servers), complete)
