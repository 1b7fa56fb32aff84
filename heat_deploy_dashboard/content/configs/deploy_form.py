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

"""Deploy any config to one server (`openstack software run create`), through the same
runner as the components' Run Action form."""

import dataclasses

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from horizon import forms
from horizon import messages

from heat_deploy_dashboard.content import run_form
import heat_deploy_runner as runner
from heat_deploy_runner import cli
from heat_deploy_runner.components import linking
from heat_deploy_runner.running import run_request
from heat_deploy_runner.running import servers as runner_servers
from heat_deploy_runner.running.starting import derived_name

DEFAULT_ACTION = 'CREATE'
# A server's id is 36 characters, and the field takes a server's name too: a name's bound.
MAX_NAME = run_request.MAX_NAME


def action_suggestions(config):
    """Heat's lifecycle actions, and a component's own actions first."""
    own = []
    if config.get('group') == linking.COMPONENT_GROUP:
        for script in linking.scripts_of(config):
            own += [a for a in script.actions if a not in own]
    return own + [a for a in linking.LIFECYCLE_ACTIONS if a not in own]


class DeployConfigForm(run_form.RunForm):
    server = forms.CharField(
        label=_("Server"), max_length=MAX_NAME,
        widget=run_form.SuggestingInput(tuple),
        help_text=_("The ID or the name of a server of this project: a "
                    "server of one of its stacks (OS::Nova::Server or "
                    "OS::Heat::DeployedServer) or one of its Compute "
                    "servers. Only these read their deployments from Heat; "
                    "they are offered."))
    action = forms.CharField(
        label=_("Action"), max_length=MAX_NAME, initial=DEFAULT_ACTION,
        validators=[run_form.no_control_characters],
        widget=run_form.SuggestingInput(tuple),
        help_text=_("Any action: the server's hook gets it as deploy_action. "
                    "A component runs the scripts listed for it."))
    name = forms.CharField(
        label=_("Name"), max_length=MAX_NAME,
        validators=[run_form.no_control_characters],
        help_text=_("The run's derived config is named after it: "
                    "NAME-ACTION. Heat orders a server's deployments by "
                    "these names."))

    field_order = ['server', 'action', 'name', 'transport', 'live', 'timeout']

    def __init__(self, request, *args, config, project_servers, **kwargs):
        """project_servers: called, gives the project's servers
        (runner.running.servers.ProjectServers)."""
        super().__init__(request, *args, **kwargs)
        self.config = config
        self.project_servers = project_servers
        # Each server's id, which the browser shows with its name.
        self.fields['server'].widget.suggestions = lambda: [
            (server.id, server.name) for server in project_servers().servers]
        actions = action_suggestions(config)
        self.fields['action'].widget.suggestions = lambda: actions
        self.fields['name'].initial = config.get('name') or config['id']
        self.add_input_fields(config.get('inputs') or [])

    def clean_server(self):
        # Heat deploys to any id, and a deployment no agent reads stays in
        # progress until its timeout: only the project's servers are taken.
        try:
            self.server = self.project_servers().find(self.cleaned_data['server'])
        except runner_servers.ServerNotFound as error:
            raise forms.ValidationError(error.message.render(gettext)) from None
        return self.server.id

    def clean(self):
        cleaned = super().clean()
        name, action = cleaned.get('name'), cleaned.get('action')
        if name and action and len(derived_name(name, action)) > MAX_NAME:
            self.add_error('name', _(
                "The name and the action together are longer than the %d "
                "characters Heat keeps.") % MAX_NAME)
        return cleaned

    def shown_commands(self):
        """The command that deploys what the form shows (`openstack software run create`)."""
        request = self.shown_request()
        if not request.server_ids[0]:
            request = dataclasses.replace(request, server_ids=('SERVER',))
        return cli.run_create(request, input_texts=self.shown_input_texts())

    def run_request(self, cleaned):
        return runner.RunRequest(
            config_id=self.config['id'], action=cleaned['action'],
            server_ids=(cleaned['server'],), input_values=cleaned['input_values'],
            transport=cleaned['transport'], timeout_minutes=cleaned['timeout'],
            name=cleaned['name'], live=self.asks_live(cleaned))

    def handle(self, request, data):
        result = self.start(request, self.config)
        if result is None:
            return False
        messages.success(request, _(
            "Started %(action)s on server %(server)s.") % {
            'action': data['action'], 'server': self.server.name or self.server.id})
        return result.created[0]
