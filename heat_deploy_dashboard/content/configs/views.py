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


from django.conf import settings
from django import http
from django import shortcuts
from django.urls import reverse
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _
from heatclient import exc as heat_exc
from heatclient.v1 import software_configs
from horizon import exceptions
from horizon import forms
from horizon import messages
from horizon import tables
from horizon import tabs as horizon_tabs
from horizon.utils import functions
from horizon.utils import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content.configs import deploy_form
from heat_deploy_dashboard.content.configs import forms as project_forms
from heat_deploy_dashboard.content.configs import tables as project_tables
from heat_deploy_dashboard.content.configs import tabs as project_tabs
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import ids
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import project_servers
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner import cli
from heat_deploy_runner.components import linking
from heat_deploy_runner.configs import derived

INDEX_URL = 'horizon:project:configs:index'
DETAIL_URL = 'horizon:project:configs:detail'


def _matches(filters, project):
    """Whether a listed config is shown: the user's project (an admin's
    listing holds every project's) and the table's filter."""
    name = filters.get('name', '').strip().lower()
    group = filters.get('group', '').strip().lower()

    def keep(row):
        return (getattr(row, 'project', project) == project
                and name in (row.name or '').lower()
                and (not group or (row.group or '').lower() == group))
    return keep


def configs_page(request, marker, filters):
    """One page of configs after ``marker``, newest first, and whether more
    follow.

    Heat pages its listing (limit, marker) but cannot filter it, so a
    filtered page reads on through Heat's pages, API_RESULT_LIMIT rows at a
    time, until it has a page of matches or Heat has no more.
    """
    page_size = functions.get_page_size(request)
    keep = _matches(filters, request.user.project_id)
    chunk = (getattr(settings, 'API_RESULT_LIMIT', 1000) if filters
             else page_size + 1)
    found, seen = [], set()
    while True:
        # Heat starts again from the top when the marker config was deleted
        # meanwhile: rows already read are dropped, so the scan still ends.
        rows = [row for row in api.heat.configs_list(request, limit=chunk,
                                                     marker=marker)
                if row.id not in seen]
        seen.update(row.id for row in rows)
        found += [row for row in rows if keep(row)]
        if len(found) > page_size:
            return found[:page_size], True
        if len(rows) < chunk:
            return found, False
        marker = rows[-1].id


class IndexView(tables.DataTableView):
    table_class = project_tables.ConfigsTable
    template_name = 'project/configs/index.html'
    page_title = _("Software Configs")

    def has_more_data(self, table):
        return self._more

    def get_data(self):
        self._more = False
        marker = self.request.GET.get(
            project_tables.ConfigsTable._meta.pagination_param)
        if marker and not ids.is_heat_id(marker):
            # No config has it: the first page, as for a marker whose config is gone.
            marker = None
        try:
            configs, self._more = configs_page(self.request, marker,
                                               self.get_filters())
        except Exception:
            return errors.list_failed(self, _("retrieve software configs"),
                                      _("Software configs could not be loaded."))
        return configs


class _ConfigMixin:
    """The config named in the URL as a dict, read from Heat (not from the
    config cache: a deleted config must not show); 404 when there is none,
    for a POST too, before its form is looked at."""

    def dispatch(self, request, *args, **kwargs):
        self.get_config()
        return super().dispatch(request, *args, **kwargs)

    @memoized.memoized_method
    def get_config(self):
        try:
            return api.heat.config_get(self.request,
                                       self.kwargs['config_id']).to_dict()
        except heat_exc.HTTPNotFound:
            raise http.Http404(_("This software config does not exist, or it "
                                 "is not in your project."))
        except Exception:
            errors.heat_failed(self.request, _("retrieve the software config"),
                               redirect=reverse(INDEX_URL))


class DetailView(PolicyRequiredMixin, _ConfigMixin,
                 horizon_tabs.TabbedTableView):
    tab_group_class = project_tabs.ConfigTabs
    template_name = 'project/configs/detail.html'
    # The name is Heat's data: it goes in through the context, escaped.
    page_title = "{{ title }}"
    policy_rules = (("orchestration", "software_configs:show"),)

    def get_tabs(self, request, **kwargs):
        return self.tab_group_class(request, config=self.get_config(),
                                    **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        config = self.get_config()
        table = project_tables.ConfigsTable(self.request)
        context.update({
            'config': config,
            'title': config.get('name') or config['id'],
            'url': reverse(INDEX_URL),
            # A row of the list, as the list's rows are: heatclient's config.
            'actions': table.render_row_actions(
                software_configs.SoftwareConfig(None, config, loaded=True)),
            'command': cli.config_show(config['id']),
        })
        return context


class CreateView(PolicyRequiredMixin, forms.ModalFormView):
    form_class = project_forms.CreateConfigForm
    template_name = 'project/configs/create.html'
    modal_id = 'create_config_modal'
    page_title = _("Create a Software Config")
    submit_label = _("Create")
    submit_url = reverse_lazy('horizon:project:configs:create')
    cancel_url = reverse_lazy(INDEX_URL)
    policy_rules = project_tables.CREATE_RULES

    def get_success_url_from_handled(self, config):
        return reverse(DETAIL_URL, args=[config.id])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = context['form']
        context['command'] = form.shown_command()
        context['body_is_data'] = form['body_format'].value() == project_forms.DATA
        return context


class CopyView(_ConfigMixin, CreateView):
    page_title = _("Copy a Software Config")
    policy_rules = project_tables.CopyConfig.policy_rules

    def get_initial(self):
        return project_forms.initial_from(self.get_config())

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context['source'] = self.get_config()
        context['submit_url'] = reverse('horizon:project:configs:copy',
                                        args=[self.kwargs['config_id']])
        context['cancel_url'] = reverse(DETAIL_URL,
                                        args=[self.kwargs['config_id']])
        return context


class DeleteView(PolicyRequiredMixin, _ConfigMixin, forms.ModalFormView):
    form_class = project_forms.DeleteConfigForm
    template_name = 'project/configs/delete.html'
    modal_id = 'delete_config_modal'
    page_title = _("Delete a Software Config")
    submit_label = _("Delete")
    success_url = reverse_lazy(INDEX_URL)
    policy_rules = project_tables.DELETE_RULES

    def get_form_kwargs(self):
        return dict(super().get_form_kwargs(), config=self.get_config())

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        config = self.get_config()
        context.update({
            'config': config,
            'submit_url': reverse('horizon:project:configs:delete',
                                  args=[config['id']]),
            'cancel_url': reverse(DETAIL_URL, args=[config['id']]),
            'command': context['form'].shown_command(),
        })
        if self.request.method == 'GET':
            # Said before the click; the form looks again when submitted.
            try:
                users = project_forms.deployments_of(self.request, config['id'])
            except Exception:
                exceptions.handle(self.request, _(
                    "Unable to check whether a deployment uses this config."),
                    details='')
                users = []
            context['users'] = [{'id': each.id, 'action': each.action,
                                 'server': server_names.name_of(self.request, each.server_id)}
                                for each in users]
            context['in_use'] = users and project_forms.in_use_message(self.request, config,
                                                                       users)
        return context


class DeployView(PolicyRequiredMixin, _ConfigMixin, forms.ModalFormView):
    form_class = deploy_form.DeployConfigForm
    template_name = 'project/configs/deploy.html'
    modal_id = 'deploy_config_modal'
    page_title = _("Deploy a Software Config")
    submit_label = _("Deploy")
    success_url = reverse_lazy('horizon:project:deployments:index')
    policy_rules = project_tables.DEPLOY_RULES

    def get(self, request, *args, **kwargs):
        return self._refuse_derived() or super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        return self._refuse_derived() or super().post(request, *args, **kwargs)

    def _refuse_derived(self):
        config = self.get_config()
        if not linking.is_derived(config):
            return None
        server = derived.derived_input_values(config).get(derived.SERVER_ID)
        messages.error(self.request, _(
            "This config was derived from another one for a single run on "
            "server %(server)s. Deploy the config it was derived from "
            "instead.") % {'server': server})
        return shortcuts.redirect(reverse(DETAIL_URL, args=[config['id']]))

    def project_servers(self):
        """The servers a run may go to: offered when the form is drawn,
        and what a posted server must be one of."""
        return project_servers.of_project(self.request)

    def get_form_kwargs(self):
        return dict(super().get_form_kwargs(), config=self.get_config(),
                    project_servers=self.project_servers)

    def get_initial(self):
        # Run Again of a run deployed here fills in its server, action, name and inputs.
        query = self.request.GET
        return {name: query[name] for name in query
                if name in ('server', 'action', 'name', 'transport', 'timeout')
                or name.startswith(run_form.INPUT_PREFIX)}

    def get_success_url_from_handled(self, deployment):
        return reverse('horizon:project:deployments:detail',
                       args=[deployment.id])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        config = self.get_config()
        context.update({
            'config': config,
            'submit_url': reverse('horizon:project:configs:deploy',
                                  args=[config['id']]),
            'cancel_url': reverse(DETAIL_URL, args=[config['id']]),
            'commands': context['form'].shown_commands(),
        })
        return context
