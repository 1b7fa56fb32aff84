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

"""Heat (orchestration) API calls made by the dashboard.

One function per client call: views catch the client's exceptions, and unit
tests mock these functions.

A deployment is answered as a run (heat_deploy_runner.running.run.Run), the one shape every page
reads. The one addition is the working project's scope. Heat shows an admin every
project's software configs and deployments by id (its database layer drops
the project filter for an admin's context), and neither says whose it is;
only an admin's config listing does. So for an admin the calls that take an
id answer another project's object the way Heat answers anyone else:
HTTPNotFound. Anyone else costs no extra call.
"""

from heatclient import client as heat_client
from heatclient import exc as heat_exc
from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler

from heat_deploy_dashboard.api import pool
from heat_deploy_dashboard import spare_cache
from heat_deploy_runner import Run


@memoized
def heatclient(request):
    endpoint = base.url_for(request, 'orchestration')
    session = pool.token_session(request, endpoint)
    return heat_client.Client('1', session=session, endpoint_override=endpoint)


@profiler.trace
def deployments_list(request, server_id=None):
    # heatclient puts every keyword into the query string, None included.
    filters = {'server_id': server_id} if server_id else {}
    return [Run.from_heat(each)
            for each in heatclient(request).software_deployments.list(**filters)]


# {config id: its project}, for admins: a config never moves to another project.
_OWNER_KEY = 'heat_deploy_dashboard:config-project:%s'


def foreign_config_ids(request, config_ids):
    """Those of the config ids that are not the working project's: always none for a user
    who is not an admin, as Heat has already left other projects' configs out. An id Heat
    does not list (deleted meanwhile) counts as foreign; a row listed without a project
    (Heat did not treat the user as an admin) as the project's."""
    if not request.user.is_superuser or not config_ids:
        return set()
    # Only ids Heat gave are looked up here: memcached refuses keys with spaces, control
    # characters or over 250 bytes, and a Heat id has none of them.
    keys = {_OWNER_KEY % each: each for each in config_ids}
    owners = {keys[key]: project for key, project in spare_cache.get_many(list(keys)).items()}
    project = request.user.project_id
    if len(owners) < len(keys):
        rows = configs_list(request)
        # Only what Heat said is kept: a row without a project holds nothing for others.
        stated = {row.id: row.project for row in rows if getattr(row, 'project', None)}
        spare_cache.set_many({_OWNER_KEY % each: owner for each, owner in stated.items()}, None)
        listed = {row.id: getattr(row, 'project', None) or project for row in rows}
        owners.update((each, listed.get(each)) for each in config_ids if each not in owners)
    return {each for each, owner in owners.items() if owner != project}


def _not_found_if_foreign(request, config_id, what):
    if foreign_config_ids(request, [config_id]):
        raise heat_exc.HTTPNotFound(f'{what} not found')


@profiler.trace
def deployment_get(request, deployment_id):
    run = Run.from_heat(heatclient(request).software_deployments.get(deployment_id))
    _not_found_if_foreign(request, run.config_id, 'Software deployment')
    return run


@profiler.trace
def config_get(request, config_id):
    config = heatclient(request).software_configs.get(config_id)
    _not_found_if_foreign(request, config.id, 'Software config')
    return config


@profiler.trace
def configs_list(request, limit=None, marker=None):
    # Summary rows (id, name, group, creation_time), newest first. heatclient
    # leaves out a limit or marker of None; without a limit Heat lists all.
    return heatclient(request).software_configs.list(limit=limit, marker=marker)


@profiler.trace
def config_create(request, **config):
    return heatclient(request).software_configs.create(**config)


@profiler.trace
def config_delete(request, config_id):
    return heatclient(request).software_configs.delete(config_id)


@profiler.trace
def stack_template(request, stack_name):
    return heatclient(request).stacks.template(stack_name)


@profiler.trace
def stacks_list(request):
    # Nested stacks too: a component in one is named after the nested stack.
    # heatclient returns a generator; the list makes the call happen here,
    # where the caller's error handling is.
    # An admin's listing holds every project's stacks, each with its project: the dashboard
    # sees the working project's only (see the module's docstring).
    project = request.user.project_id
    return [stack for stack in heatclient(request).stacks.list(show_nested=True)
            if getattr(stack, 'project', project) == project]


@profiler.trace
def server_metadata(request, server_id):
    """What the server's agent reads: the derived configs deployed to it, each with its id.
    An admin gets the working project's only, as anyone else does."""
    metadata = heatclient(request).software_deployments.metadata(server_id=server_id)
    foreign = foreign_config_ids(request, {each['id'] for each in metadata or []})
    return [each for each in metadata or [] if each.get('id') not in foreign]


@profiler.trace
def resources_list(request, stack, resource_type=None, nested_depth=0, with_detail=False):
    """The resources of a stack ("name/id"), and of its nested stacks down to nested_depth;
    of one type only when given: Heat takes one type per call and keeps the resources whose
    type contains it (OS::Nova::Server finds OS::Nova::ServerGroup too). with_detail adds
    each one's attributes and metadata."""
    # heatclient leaves out a nested_depth of 0 and a with_detail of False.
    return heatclient(request).resources.list(
        stack, nested_depth=nested_depth, with_detail=with_detail,
        filters={'type': resource_type} if resource_type else {})
