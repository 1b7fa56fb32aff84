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
from horizon import tables

from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content import policy
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import times
from heat_deploy_runner.components import linking

CREATE_RULES = (("orchestration", "software_configs:create"),)
DEPLOY_RULES = (
    # The config is read for its inputs; the run creates a derived config
    # and a deployment.
    ("orchestration", "software_configs:show"),
    ("orchestration", "software_configs:create"),
    ("orchestration", "software_deployments:create"),
)
# Deleting is refused while a deployment uses the config, which takes the
# deployment listing to know.
DELETE_RULES = (("orchestration", "software_configs:delete"),
                ("orchestration", "software_deployments:index"))


class CreateConfig(tables.LinkAction):
    name = "create"
    verbose_name = _("Create Config")
    url = "horizon:project:configs:create"
    classes = ("ajax-modal",)
    icon = "plus"
    policy_rules = CREATE_RULES


class DeployConfig(policy.RulesOncePerRequest, tables.LinkAction):
    name = "deploy"
    verbose_name = _("Deploy")
    url = "horizon:project:configs:deploy"
    classes = ("ajax-modal",)
    icon = "play"
    policy_rules = DEPLOY_RULES

    def allowed(self, request, config=None):
        # A derived config belongs to one run. The list's summary rows have
        # no inputs to tell, so there the form itself explains.
        inputs = getattr(config, 'inputs', None)
        return super().allowed(request, config) and not (
            inputs and linking.is_derived({'inputs': inputs}))


class CopyConfig(policy.RulesOncePerRequest, tables.LinkAction):
    name = "copy"
    verbose_name = _("Copy")
    url = "horizon:project:configs:copy"
    classes = ("ajax-modal",)
    icon = "copy"
    # Configs cannot be changed: a changed copy is how one is edited.
    policy_rules = CREATE_RULES + (("orchestration", "software_configs:show"),)


class DeleteConfig(policy.RulesOncePerRequest, tables.LinkAction):
    # A form rather than Horizon's confirmation dialog: it says which
    # deployments still use the config, and shows the CLI command.
    name = "delete"
    verbose_name = _("Delete Config")
    url = "horizon:project:configs:delete"
    classes = ("ajax-modal", "btn-danger")
    icon = "trash"
    policy_rules = DELETE_RULES


class ConfigsFilter(tables.FilterAction):
    filter_type = "server"
    filter_choices = (
        ("name", _("Name contains"), True),
        ("group", _("Group ="), True),
    )


class ConfigsTable(empty.ExplainingTable):
    name = tables.Column("name", verbose_name=_("Name"),
                         link="horizon:project:configs:detail",
                         empty_value=_("(no name)"))
    # Not translated: a group names the hook that runs the config.
    group = tables.Column("group", verbose_name=_("Group"))
    created = tables.Column("creation_time", verbose_name=_("Created"),
                            filters=(times.since,),
                            attrs={'data-type': 'timesince'})
    config_id = tables.Column("id", verbose_name=_("ID"))

    class Meta:
        name = "configs"
        verbose_name = _("Software Configs")
        table_actions = (ConfigsFilter, CreateConfig)
        row_actions = (DeployConfig, CopyConfig, DeleteConfig)
        no_data_message = _(
            "No software configs. Stacks make them for their software "
            "deployments and components, every run makes one, and you can "
            "create one here.")

    def get_object_display(self, config):
        return config.name or config.id


class ConfigDeploymentsTable(empty.ExplainingTable):
    """The deployments that use one config: while there are any, Heat
    refuses to delete it."""

    deployment_id = tables.Column("id", verbose_name=_("Deployment"),
                                  link="horizon:project:deployments:detail")
    server = server_names.ServerColumn()
    action = tables.Column("action", verbose_name=_("Action"))
    status = run_tables.status_column()
    created = tables.Column("creation_time", verbose_name=_("Created"),
                            filters=(times.since,))

    class Meta:
        name = "config_deployments"
        verbose_name = _("Deployments")
        no_data_message = _("No deployment uses this config.")
