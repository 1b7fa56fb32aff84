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
from horizon import tables

from heat_deploy_dashboard.content import empty
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import times


def _latest_url(server):
    return reverse('horizon:project:deployments:detail', args=[server.latest.id])


def _latest_run(server):
    return server.latest.name


def _latest_action(server):
    return server.latest.action


def _latest_time(server):
    return server.latest.creation_time


class ServersFilter(tables.FilterAction):
    """Narrows the list to the servers whose name or id holds the text."""

    def filter(self, table, servers, filter_string):
        wanted = filter_string.strip().lower()
        names = server_names.names(table.request)
        found = [server for server in servers
                 if wanted in server.id.lower() or wanted in names.get(server.id, '').lower()]
        if not found:
            table.empty_reason = empty.NO_MATCH
        return found


class ServersTable(empty.ExplainingTable):
    """The servers with deployments, one row each (views.ServerSummary)."""
    next_step = ('horizon:project:components:index',
                 _("Run an action from the Components panel."))

    server = server_names.ServerColumn("id")
    complete = tables.Column("complete", verbose_name=_("Complete"))
    failed = tables.Column("failed", verbose_name=_("Failed"))
    cancelled = tables.Column("cancelled", verbose_name=_("Cancelled"))
    in_progress = tables.Column("in_progress", verbose_name=_("In Progress"))
    latest_run = tables.Column(_latest_run, verbose_name=_("Latest Run"),
                               link=_latest_url, empty_value=_("(config deleted)"))
    # Not translated: custom action names are the template author's.
    latest_action = tables.Column(_latest_action, verbose_name=_("Action"))
    latest_status = run_tables.status_column(lambda server: server.latest)
    latest_time = tables.Column(_latest_time, verbose_name=_("Started"),
                                filters=(times.since,),
                                attrs={'data-type': 'timesince'})

    class Meta:
        name = "servers"
        verbose_name = _("Servers")
        table_actions = (ServersFilter,)
        status_columns = ["latest_status"]
        no_data_message = _(
            "No server has software deployments yet. A server appears here once a stack "
            "applies a software config to it, or an action is run on it.")


class ServerHistoryTable(run_tables.RunsTable):
    """Every deployment on one server.

    The deployments panel's table with the same columns and row actions, without its filter
    (this page holds one server's runs only): the live poller replaces running rows with rows
    that the deployments panel's status view renders.
    """

    class Meta(run_tables.RunsTable.Meta):
        verbose_name = _("Deployments on this Server")
        no_data_message = _(
            "Heat lists no deployments on this server for your project. Heat does not "
            "say whether a server exists, so check the server ID: a server of another "
            "project, or one never deployed to, looks the same.")
