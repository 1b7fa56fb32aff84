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

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from horizon import tabs

from heat_deploy_dashboard.content.components import map_picture
from heat_deploy_dashboard.content.components import tables
from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content import stack_maps
from heat_deploy_runner.following import recent_operations

# The rules of every page that draws a map: it shows components and their runs.
MAP_RULES = (("orchestration", "software_configs:show"),
             ("orchestration", "software_deployments:index"))


class OverviewTab(tabs.Tab):
    name = _("Overview")
    slug = "overview"
    template_name = "project/components/_overview.html"
    policy_rules = (("orchestration", "software_configs:show"),)

    def get_context_data(self, request):
        component = self.tab_group.kwargs['component']
        inputs = [dict(declared, shown_default=run_form.default_text(declared))
                  for declared in component.inputs]
        return {'component': component, 'inputs': inputs}


class ActionsTab(tabs.Tab):
    name = _("Actions")
    slug = "actions"
    template_name = "project/components/_actions.html"
    policy_rules = (("orchestration", "software_configs:show"),)

    def get_context_data(self, request):
        return {'component': self.tab_group.kwargs['component']}


class ServersTab(tabs.TableTab):
    name = _("Servers")
    slug = "servers"
    table_classes = (tables.ServersTable,)
    template_name = "horizon/common/_detail_table.html"
    policy_rules = (("orchestration", "software_deployments:index"),)

    def get_servers_data(self):
        return self.tab_group.kwargs['component'].latest_deployments()


class OperationsTab(tabs.TableTab):
    name = _("Operations")
    slug = "operations"
    table_classes = (tables.OperationsTable,)
    template_name = "horizon/common/_detail_table.html"
    policy_rules = (("orchestration", "software_deployments:index"),)

    def get_operations_data(self):
        return recent_operations.recent(self.tab_group.kwargs['component'].deployments)


class MapTab(tabs.Tab):
    """The component in its stack: what feeds it and what it feeds."""

    name = _("Map")
    slug = "map"
    template_name = "project/components/_map_tab.html"
    policy_rules = MAP_RULES

    def get_context_data(self, request):
        component = self.tab_group.kwargs['component']
        try:
            found = stack_maps.of_stack_named(request, component.stack_name)
        except Exception:
            errors.heat_failed(request, _("retrieve the stack's map"))
            return {'failed': True}
        if not found:
            return {'component': component}
        return {'component': component, 'map': map_picture.context(
            request, found.around(component.id), directory.components(request),
            centre=component.id,
            stack_url=reverse('horizon:project:components:stack', args=[found.stack_id]))}


class ComponentTabs(tabs.TabGroup):
    slug = "component_details"
    tabs = (OverviewTab, ActionsTab, ServersTab, OperationsTab, MapTab)
    sticky = True
