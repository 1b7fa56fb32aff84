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

"""Run Action: the form that runs a component's action (now, in batches, or on a schedule),
as the Components panel opens it, and as the Schedules panel opens it to change a schedule."""

from django import http
from django.urls import reverse
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from horizon import forms
from horizon import messages
from horizon.utils import memoized

from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content.run_action import forms as run_forms
from heat_deploy_dashboard.content.run_action import wired_inputs
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import stack_maps

INDEX_URL = 'horizon:project:components:index'
DETAIL_URL = 'horizon:project:components:detail'

# What the pages could not do when Heat fails them (errors.heat_failed).
RETRIEVE_COMPONENTS = _("retrieve software components")


def say_if_runs_are_unread(request):
    unread = directory.unread_runs(request)
    if unread:
        messages.warning(request, ngettext(
            "%(count)d run is not counted here yet: reading its configuration from the "
            "orchestration service takes longer than one page may. Reload the page to "
            "read on.",
            "%(count)d runs are not counted here yet: reading their configurations from the "
            "orchestration service takes longer than one page may. Reload the page to "
            "read on.", unread) % {'count': unread})


class ComponentMixin:
    """The component named in the URL, or a message and the list."""

    # Its inputs as its stack's template declares them, so that the page and the form both
    # know which inputs must be given.
    find_component = staticmethod(directory.component_with_inputs)

    @memoized.memoized_method
    def get_component(self):
        try:
            found = self.find_component(self.request, self.kwargs['component_id'])
        except http.Http404:
            raise
        except Exception:
            errors.heat_failed(self.request, RETRIEVE_COMPONENTS, redirect=reverse(INDEX_URL))
        return found


class RunActionView(PolicyRequiredMixin, ComponentMixin, forms.ModalFormView):
    form_class = run_forms.RunActionForm
    template_name = 'run_action/run_action.html'
    modal_id = 'run_action_modal'
    page_title = _("Run an Action")
    submit_label = _("Run")
    success_url = reverse_lazy('horizon:project:deployments:index')
    policy_rules = run_tables.RUN_ACTION_RULES

    def get_success_url_from_handled(self, url):
        # The runs just started, followed together as they finish; or the schedules.
        return url

    def find_component(self, request, component_id):
        if request.method == 'POST':
            return directory.component_as_shown(request, component_id)
        found = directory.component_for_form(request, component_id)
        say_if_runs_are_unread(request)
        return found

    def get_cancel_url(self):
        return reverse(DETAIL_URL, args=[self.kwargs['component_id']])

    @memoized.memoized_method
    def get_wiring(self):
        """What the form shows of the stack's wiring: ([WiredInput], dependents); nothing on
        a submit, which needs none of it, or when the stack cannot be read (the form works
        without)."""
        if self.request.method != 'GET':
            return [], []
        component = self.get_component()
        found = stack_maps.quietly(stack_maps.of_stack_named, self.request,
                                   component.stack_name)
        named = server_names.names(self.request)
        return (wired_inputs.wired_inputs(found, component, directory.components(self.request),
                                          named),
                stack_maps.dependents(found, component.id, named))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        component = self.get_component()
        context['component'] = component
        context['wired'], context['dependents'] = self.get_wiring()
        context['submit_url'] = reverse(
            'horizon:project:components:run', args=[component.id])
        context['commands'] = context['form'].shown_commands()
        return context

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs['component'] = self.get_component()
        kwargs['wired'] = self.get_wiring()[0]
        return kwargs

    def get_initial(self):
        # A link may preselect the action (?action=BACKUP) and, to re-run a
        # past run, its servers, input values and how it runs
        # (?server=...&input__name=...&batch_size=...).
        query = self.request.GET
        initial = {'action': query.get('action')}
        if query.getlist('server'):
            initial['servers'] = query.getlist('server')
        for name in query:
            if name.startswith(run_form.INPUT_PREFIX) or name in run_form.RunForm.HOW_IT_RUNS:
                initial[name] = query[name]
        return initial
