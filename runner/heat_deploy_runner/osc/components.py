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

"""`openstack software component list | show`: the components the Components panel lists, with
their custom and lifecycle actions, declared inputs and servers."""

from osc_lib.cli import format_columns
from osc_lib.command import command

from heat_deploy_runner.components import listing
from heat_deploy_runner.osc import failures
from heat_deploy_runner.running.cancel import shown_status

COMPONENT_HELP = ('The component: its name as the dashboard shows it (the resource in its '
                  'stack, e.g. mysql), Heat\'s name of its config, or its ID.')


def _components(app):
    clients = app.client_manager.software_runs
    with failures.calling(failures.HEAT, 'retrieve the software components'):
        return listing.components(clients.heat, clients.project_id)


class ListComponent(command.Lister):
    """List the project's software components, with their actions and how many servers each
    is deployed on."""

    def take_action(self, parsed_args):
        columns = ('Name', 'ID', 'Stack', 'Custom Actions', 'Lifecycle Actions', 'Servers')
        return columns, [
            (each.short_name, each.id, each.stack_name or '',
             format_columns.ListColumn(each.custom_actions),
             format_columns.ListColumn(each.lifecycle_actions), len(each.server_ids))
            for each in _components(self.app)]


class ShowComponent(command.ShowOne):
    """Show a software component: its actions, the inputs it declares (type, default), its
    outputs, and each server it is deployed on with its latest run there."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('component', metavar='<component>', help=COMPONENT_HELP)
        return parser

    def take_action(self, parsed_args):
        with failures.calling(failures.HEAT, 'retrieve the software components'):
            component = listing.find(_components(self.app), parsed_args.component)
        inputs = [{key: each[key] for key in ('name', 'type', 'default', 'description')
                   if key in each} for each in component.inputs]
        servers = [{'server': run.server_id, 'latest_action': run.action,
                    'status': shown_status(run), 'run': run.id}
                   for run in component.latest_deployments()]
        shown = {
            'name': component.short_name, 'id': component.id,
            'config_name': component.name, 'stack': component.stack_name or '',
            'custom_actions': format_columns.ListColumn(component.custom_actions),
            'lifecycle_actions': format_columns.ListColumn(component.lifecycle_actions),
            'inputs': format_columns.ListDictColumn(inputs),
            'outputs': format_columns.ListColumn(
                [each.get('name') for each in component.outputs]),
            'servers': format_columns.ListDictColumn(servers),
        }
        return tuple(shown), tuple(shown.values())
