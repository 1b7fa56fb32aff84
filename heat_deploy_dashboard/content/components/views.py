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

from django import http
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views import generic
from horizon import tables
from horizon import tabs

from heat_deploy_dashboard.content.components import map_picture
from heat_deploy_dashboard.content.components import tables as project_tables
from heat_deploy_dashboard.content.components import tabs as project_tabs
from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.notices import subjects as notices
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content.run_action import views as run_views
from heat_deploy_dashboard.content import stack_maps

INDEX_URL = 'horizon:project:components:index'
DETAIL_URL = 'horizon:project:components:detail'


class IndexView(tables.DataTableView):
    table_class = project_tables.ComponentsTable
    template_name = 'project/components/index.html'
    page_title = _("Software Components")

    def get_data(self):
        try:
            found = directory.components(self.request)
        except Exception:
            return errors.list_failed(self, run_views.RETRIEVE_COMPONENTS,
                                      _("Software components could not be loaded."))
        run_views.say_if_runs_are_unread(self.request)
        return found


class DetailView(PolicyRequiredMixin, run_views.ComponentMixin, tabs.TabView):
    tab_group_class = project_tabs.ComponentTabs
    template_name = 'project/components/detail.html'
    policy_rules = (("orchestration", "software_configs:show"),)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        component = self.get_component()
        run_views.say_if_runs_are_unread(self.request)
        table = project_tables.ComponentsTable(self.request)
        context.update({
            'component': component,
            'page_title': (_("%(component)s (stack %(stack)s)") % {
                'component': component.short_name, 'stack': component.stack_name}
                if component.stack_name else component.short_name),
            'url': reverse(INDEX_URL),
            'actions': table.render_row_actions(component),
            'notices': notices.subscriptions_context(self.request, notices.COMPONENT,
                                                     component.id),
        })
        return context

    def get_tabs(self, request, *args, **kwargs):
        return self.tab_group_class(request, component=self.get_component(),
                                    **kwargs)


class StackMapView(PolicyRequiredMixin, generic.TemplateView):
    """A top-level stack's map: every server, the components on it and what feeds what."""

    template_name = 'project/components/stack.html'
    policy_rules = project_tabs.MAP_RULES

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        try:
            stack = stack_maps.stack_by_id(self.request, self.kwargs['stack_id'])
            found = stack and stack_maps.of_stack(self.request, stack.id)
        except Exception:
            errors.heat_failed(self.request, _("retrieve the stack's map"),
                               redirect=reverse(INDEX_URL))
        if not stack:
            raise http.Http404()
        context.update({
            'page_title': _("Components of Stack %(stack)s") % {'stack': stack.stack_name},
            'map': map_picture.context(self.request, found, directory.components(self.request)),
        })
        return context
