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

from django.utils.translation import gettext_lazy as _
from horizon import tabs

from heat_deploy_dashboard.content.configs import forms
from heat_deploy_dashboard.content.configs import tables
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import run_form
from heat_deploy_runner.components import linking
from heat_deploy_runner.configs import derived
from heat_deploy_runner.configs import inputs as heat_inputs
from heat_deploy_runner import masking
from heat_deploy_runner.running import runs

SHOW_RULES = (("orchestration", "software_configs:show"),)


def _shown_input(declared):
    shown = dict(declared, shown_default=run_form.default_text(declared))
    if 'value' in declared:
        # A derived config's values: its signal URL is a credential.
        shown['shown_value'] = heat_inputs.as_text(
            declared.get('type'),
            masking.mask_value(declared['name'], declared['value']))
    return shown


class OverviewTab(tabs.Tab):
    name = _("Overview")
    slug = "overview"
    template_name = "project/configs/_overview.html"
    policy_rules = SHOW_RULES

    def get_context_data(self, request):
        config = self.tab_group.kwargs['config']
        inputs = [_shown_input(declared)
                  for declared in config.get('inputs') or []]
        values = derived.derived_input_values(config)
        return {
            'config': config,
            'inputs': inputs,
            'with_values': any('shown_value' in each for each in inputs),
            'outputs': config.get('outputs') or [],
            'options': runs.output_text(config.get('options') or None),
            'made_for': linking.is_derived(config) and {
                'server': values.get(derived.SERVER_ID),
                'action': values.get(derived.ACTION)},
        }


class BodyTab(tabs.Tab):
    name = _("Config")
    slug = "body"
    template_name = "project/configs/_body.html"
    policy_rules = SHOW_RULES

    def get_context_data(self, request):
        return {'body': runs.output_text(
            self.tab_group.kwargs['config'].get('config'))}


class DeploymentsTab(tabs.TableTab):
    name = _("Deployments")
    slug = "deployments"
    table_classes = (tables.ConfigDeploymentsTable,)
    template_name = "horizon/common/_detail_table.html"
    policy_rules = (("orchestration", "software_deployments:index"),)
    # Heat lists the whole project's deployments to find these: only when
    # the tab is opened.
    preload = False

    def get_config_deployments_data(self):
        try:
            return forms.deployments_of(self.request,
                                        self.tab_group.kwargs['config']['id'])
        except Exception:
            errors.heat_failed(self.request,
                               _("retrieve the deployments of this config"))
            # An empty table must not claim that nothing uses the config.
            self._tables['config_deployments'].empty_reason = _(
                "The deployments could not be loaded.")
            return []


class ConfigTabs(tabs.DetailTabsGroup):
    slug = "config_details"
    tabs = (OverviewTab, BodyTab, DeploymentsTab)
