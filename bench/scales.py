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

"""Growing the project to a number of deployments, and what each panel page costs at it."""


def deployment_count(heat):
    return len(heat.software_deployments.list())


def grow_to(target, heat, seeder):
    """Seed up to `target` deployments in the project."""
    count = deployment_count(heat)
    if count < target:
        seeder.add(target - count)


def panel_pages(ids):
    """The list page and one detail page of each panel."""
    return {
        'deployments': '/project/deployments/',
        'components': '/project/components/',
        'servers': '/project/servers/',
        'configs': '/project/configs/',
        'deployment': f'/project/deployments/{ids["deployment"]}/',
        'component': f'/project/components/{ids["component"]}/',
        'server': f'/project/servers/{ids["server"]}/',
        'config': f'/project/configs/{ids["config"]}/',
        'operation': f'/project/deployments/operations/{ids["operation"]}/',
        'stack_map': f'/project/components/stacks/{ids["stack"]}/',
        'component_map': f'/project/components/{ids["component"]}/?tab=component_details__map',
        'run_action': f'/project/components/{ids["wired_component"]}/run/',
    }


LIST_PAGES = ('deployments', 'components', 'servers', 'configs')


def warm_up(horizon, ids):
    """The components' pages viewed once before any run is seeded: what any Horizon reads
    the first time it shows them (each component's own config, cached for good), so that
    each scale's first view is the first view after seeding."""
    horizon.view('/project/components/')
    horizon.view(f'/project/components/{ids["component"]}/')


def backend_calls(horizon, ids, skip=()):
    """{page: {"first": calls, "again": calls, ...}}: each page viewed twice, so a cold cache
    shows in the first view and the steady state in the second. Pages in `skip` are left to
    the caller, who has counted them already."""
    found = {}
    for name, path in panel_pages(ids).items():
        if name in skip:
            continue
        first, again = horizon.view(path), horizon.view(path)
        found[name] = {'status': [first['status'], again['status']], 'first': first['calls'],
                       'again': again['calls'], 'seconds_again': round(again['seconds'], 3),
                       'config_reads_first': first['cache']['misses']}
    return found
