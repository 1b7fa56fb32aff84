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

"""The project's software components as the panels show them.

Three Heat listings per request, whatever the number of components, servers
and runs, plus the components' configs the cache does not hold yet (see
linking.py for how they are put together). Errors come from heatclient unchanged, for
the views to turn into a sentence.
"""

import dataclasses
import logging

from django import http
from horizon.utils.memoized import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content import project_servers
from heat_deploy_dashboard.content import run_rows
from heat_deploy_dashboard import spare_cache
from heat_deploy_runner.components import linking
from heat_deploy_runner.configs.derived import as_dict

LOG = logging.getLogger(__name__)

# Run Action's submit is checked against the component as its form showed it: building it
# again would list every config, deployment and stack of the project (seconds, at 10,000
# runs) for each run started. Per project, like the config cache; an hour, about as long as
# a form stays open.
_SHOWN_KEY = 'heat_deploy_dashboard:shown-component:%(project)s:%(component)s'
SHOWN_SECONDS = 3600


# How long one page may spend reading configs no page has read before (runs started outside
# the dashboard): well inside the web server's timeout (gunicorn's default is 120 s).
READ_SECONDS = 20


def components(request):
    """Every component of the project, linked (linking.Component)."""
    return _directory(request)[0]


def unread_runs(request):
    """How many configs components() had no time to read (see READ_SECONDS): until a later
    page reads them, their runs are not counted."""
    return _directory(request)[1]


@memoized
def _directory(request):
    project = request.user.project_id
    # An admin's listing holds every project's configs, each with its
    # project; the panels show the project the user is working in.
    summaries = [row for row in map(as_dict, api.heat.configs_list(request))
                 if row.get('project', project) == project]
    stack_names = [stack.stack_name
                   for stack in project_servers.stacks(request)]
    deployments = run_rows.as_they_are(request, project_runs.deployments(request))
    unread = []

    def read(config_ids):
        configs = config_cache.get_many(request, config_ids, seconds=READ_SECONDS)
        unread.extend(configs.unread)
        return configs

    found = linking.link(summaries, deployments, stack_names, read)
    return found, len(unread)


def with_template_inputs(request, component):
    """The component with its inputs as its stack's template declares them (see
    linking.with_declared_defaults); as Heat lists them when no stack tells more."""
    if not component.stack_name:
        return component
    try:
        template = project_servers.template(request, component.stack_name)
    except Exception:
        # The form still works, only an input without a default is not required.
        LOG.warning('Could not read the template of stack %s', component.stack_name,
                    exc_info=True)
        return component
    resource = (template.get('resources') or {}).get(component.resource_name) or {}
    declared = (resource.get('properties') or {}).get('inputs')
    return dataclasses.replace(
        component, inputs=linking.with_declared_defaults(component.inputs, declared))


def component(request, component_id):
    """One component of the project; Http404 when there is no such one."""
    for each in components(request):
        if each.id == component_id:
            return each
    raise http.Http404()


def component_with_inputs(request, component_id):
    """One component, with its inputs as its stack's template declares them."""
    return with_template_inputs(request, component(request, component_id))


def _shown_key(request, component_id):
    return _SHOWN_KEY % {'project': request.user.project_id, 'component': component_id}


def component_for_form(request, component_id):
    """component_with_inputs(), kept for the form's submit (component_as_shown)."""
    found = component_with_inputs(request, component_id)
    # Its servers, not its every run: thousands of runs would not fit in a memcached item.
    shown = dataclasses.replace(found, deployments=found.latest_deployments())
    spare_cache.set_many({_shown_key(request, component_id): shown}, SHOWN_SECONDS)
    return found


def component_as_shown(request, component_id):
    """The component as the form last showed it in this project, or else as it is now."""
    return (spare_cache.get(_shown_key(request, component_id))
            or component_for_form(request, component_id))
