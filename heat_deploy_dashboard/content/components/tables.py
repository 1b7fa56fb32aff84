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
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from horizon import tables

from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content import policy
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import stack_maps
from heat_deploy_dashboard.content import times

# Shown where Heat does not know a value, e.g. the stack of a config made
# outside any stack.
UNKNOWN = '\u2014'


class RunActionLink(policy.RulesOncePerRequest, tables.LinkAction):
    name = "run"
    verbose_name = _("Run Action")
    url = "horizon:project:components:run"
    classes = ("ajax-modal",)
    icon = "play"
    policy_rules = run_tables.RUN_ACTION_RULES

    def allowed(self, request, component=None):
        # Actions run on the servers a component is deployed on; with none
        # there is nothing to choose from.
        return super().allowed(request, component) and (
            component is None or bool(component.server_ids))


def _joined(names):
    # Action names are the template author's, not translated.
    return ', '.join(names) or None


def _custom_actions(component):
    return _joined(component.custom_actions)


def _lifecycle_actions(component):
    return _joined(component.lifecycle_actions)


def _server_count(component):
    return len(component.server_ids)


def _stack_map_url(component, request):
    # The map of the whole stack tree: a nested stack's wiring reaches into its parent's.
    root = component.stack_name and stack_maps.root_of(request, component.stack_name)
    return reverse('horizon:project:components:stack', args=[root.id]) if root else None


class ComponentsFilter(tables.FilterAction):
    """Narrows the list to the components whose name, stack, resource or an action holds the
    text (as typed, by Horizon's script; on submit, here)."""

    def filter(self, table, components, filter_string):
        wanted = filter_string.strip().lower()
        found = [c for c in components
                 if any(wanted in (text or '').lower() for text in (
                     c.name, c.stack_name, c.resource_name, *c.custom_actions,
                     *c.lifecycle_actions))]
        if not found:
            table.empty_reason = empty.NO_MATCH
        return found


class ComponentsTable(empty.ExplainingTable):
    # heat-dashboard's Stacks panel, where there is one.
    next_step = ('horizon:project:stacks:index', _("Create a stack on the Stacks panel."))
    name = tables.Column("name", verbose_name=_("Name"),
                         link="horizon:project:components:detail")
    stack = tables.Column("stack_name", verbose_name=_("Stack"),
                          link=_stack_map_url, empty_value=UNKNOWN)
    resource = tables.Column("resource_name", verbose_name=_("Resource"),
                             empty_value=UNKNOWN)
    custom_actions = tables.Column(_custom_actions,
                                   verbose_name=_("Custom Actions"),
                                   empty_value=UNKNOWN)
    lifecycle_actions = tables.Column(_lifecycle_actions,
                                      verbose_name=_("Lifecycle Actions"),
                                      empty_value=UNKNOWN)
    servers = tables.Column(_server_count, verbose_name=_("Servers"))

    class Meta:
        name = "components"
        verbose_name = _("Software Components")
        table_actions = (ComponentsFilter,)
        row_actions = (RunActionLink,)
        no_data_message = _(
            "No software components yet. A component appears here once a "
            "stack with an OS::Heat::SoftwareComponent resource is created.")

    def get_object_display(self, component):
        return component.name


def _last_change(run):
    return run.updated_time or run.creation_time


class ServersTable(empty.ExplainingTable):
    """The servers a component is deployed on, with the latest deployment
    of it on each (runs from linking.Component.latest_deployments)."""

    server = server_names.ServerColumn()
    # Not translated: custom action names are the template author's.
    action = tables.Column("action", verbose_name=_("Latest Action"))
    status = run_tables.status_column()
    status_reason = run_tables.status_reason_column()
    time = tables.Column(_last_change, verbose_name=_("Time"),
                         filters=(times.since,),
                         attrs={'data-type': 'timesince'})

    class Meta:
        name = "servers"
        verbose_name = _("Servers")
        status_columns = ["status"]
        no_data_message = _("This component is not deployed on any server.")

    def get_object_id(self, run):
        return run.server_id


def _outcome(recent):
    return ', '.join(f'{each["count"]} {each["label"]}'
                     for each in run_tables.status_counts(recent.statuses) if each['count'])


class OperationsTable(empty.ExplainingTable):
    """Operations (runner.following.recent_operations.Recent), newest first."""

    operation = tables.Column(lambda recent: format_html(
        '<code title="{}">{}</code>', recent.id, recent.id[:8]),
        verbose_name=_("Operation"), link=lambda recent: run_tables.operation_url(recent.id))
    action = tables.Column("action", verbose_name=_("Action"))
    started_by = tables.Column(lambda recent: recent.operation.started_by,
                               verbose_name=_("Started By"))
    started = tables.Column(lambda recent: recent.operation.started_at,
                            verbose_name=_("Started"), filters=(times.since,))
    servers = tables.Column(lambda recent: len(recent.statuses), verbose_name=_("Servers"))
    outcome = tables.Column(_outcome, verbose_name=_("Outcome"))

    class Meta:
        name = "operations"
        verbose_name = _("Recent Operations")
        no_data_message = _("No operation yet: the runs started with Run Action are listed "
                            "here, one row per submit.")
