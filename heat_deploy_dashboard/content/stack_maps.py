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

"""The wiring of a project's stack (wiring.py) as the pages read it: the map, the Run Action
form's prefilled inputs and dependents, and an operation's follow-ups.

Calls, whatever the number of runs: the stack listing and the deployment listing (both shared
with the rest of the page), one resource listing of the root stack with its nested stacks, and
one template per stack that defines a component's deployment. No run's config is read. Errors
come from heatclient unchanged, for the views to turn into a sentence; quietly() is for the
pages that work without the wiring.
"""

import logging
from urllib import parse

from django.urls import reverse
from horizon.utils.memoized import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content import project_servers
from heat_deploy_dashboard import wiring
from heat_deploy_runner.components import linking
from heat_deploy_runner.configs.derived import as_dict

LOG = logging.getLogger(__name__)


def root_of(request, stack_name):
    """The project's top-level stack that holds the stack of this name (itself, when it is
    one), or None when the project has no such stack."""
    stacks = project_servers.stacks(request)
    by_id = {stack.id: stack for stack in stacks}
    found = next((stack for stack in stacks if stack.stack_name == stack_name), None)
    seen = set()
    while found is not None and getattr(found, 'parent', None) and found.id not in seen:
        seen.add(found.id)
        found = by_id.get(found.parent)
    return found


def stack_by_id(request, stack_id):
    """The project's top-level stack with this id, or None."""
    for stack in project_servers.stacks(request):
        if stack.id == stack_id and not getattr(stack, 'parent', None):
            return stack
    return None


@memoized
def of_stack(request, stack_id):
    """The wiring.Wiring of one of the project's top-level stacks, by id."""
    names = {stack.id: stack.stack_name for stack in project_servers.stacks(request)}
    resources = [as_dict(each) for each in api.heat.resources_list(
        request, f'{names[stack_id]}/{stack_id}', nested_depth=project_servers.NESTED_DEPTH)]

    def template_of(each_id):
        return project_servers.template(request, names[each_id]) if each_id in names else None

    deployments = {run.id: run for run in project_runs.deployments(request)}
    return wiring.wire(stack_id, resources, template_of, deployments)


def of_stack_named(request, stack_name):
    """The wiring of the top-level stack that holds the stack of this name (a component's
    stack_name), or None for no stack (a component made by hand) or one deleted since."""
    root = stack_name and root_of(request, stack_name)
    return of_stack(request, root.id) if root else None


def of_config_name(request, config_name):
    """of_stack_named() for a component known by its config's name only."""
    stack_name, _resource = linking.stack_and_resource(
        config_name, [stack.stack_name for stack in project_servers.stacks(request)])
    return of_stack_named(request, stack_name)


def quietly(read, request, *args):
    """What read(request, *args) gives, or None, logged, when Heat fails it: for the pages
    that work without the wiring."""
    try:
        return read(request, *args)
    except Exception:
        LOG.warning('Could not read the wiring of stack %s', args, exc_info=True)
        return None


def dependents(found, component_id, server_names):
    """[{component_id, name, servers (names), pairs [(output, input)], run_url}] of the
    components that take this one's outputs or run after it (wiring.Dependent), by name;
    run_url opens Run Action on the servers where they do."""
    if found is None:
        return []
    return [{'component_id': each.component_id, 'name': each.component_name,
             'servers': [server_names.get(s, s) for s in each.server_ids],
             'pairs': each.pairs,
             'run_url': reverse('horizon:project:components:run', args=[each.component_id])
             + '?' + parse.urlencode([('server', s) for s in each.server_ids])}
            for each in found.dependents(component_id)]
