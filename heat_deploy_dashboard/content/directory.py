"""The project's software components as the panels show them.

Three Heat listings per request, whatever the number of components and
servers, plus the full configs the cache does not hold yet (see linking.py
for how they are put together). Errors come from heatclient unchanged, for
the views to turn into a sentence.
"""

import dataclasses
import logging

from django import http
from horizon.utils.memoized import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard import linking
from heat_deploy_dashboard.deploy.derived import as_dict

LOG = logging.getLogger(__name__)


@memoized
def components(request):
    """Every component of the project, linked (linking.Component)."""
    project = request.user.project_id
    # An admin's listing holds every project's configs, each with its
    # project; the panels show the project the user is working in.
    summaries = [row for row in map(as_dict, api.heat.configs_list(request))
                 if row.get('project', project) == project]
    deployments = [as_dict(d) for d in api.heat.deployments_list(request)]
    stack_names = [stack.stack_name
                   for stack in api.heat.stacks_list(request)]
    configs = config_cache.get_many(
        request, [row['id'] for row in summaries
                  if row.get('group') == linking.COMPONENT_GROUP])
    return linking.link(summaries, configs, deployments, stack_names)


def with_template_inputs(request, component):
    """The component with its inputs as its stack's template declares them (see
    linking.with_declared_defaults); as Heat lists them when no stack tells more."""
    if not component.stack_name:
        return component
    try:
        template = api.heat.stack_template(request, component.stack_name)
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
