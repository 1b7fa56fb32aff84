"""Deploy any config to one server: `openstack software deployment create`,
through the same trigger as the components' Run Action form."""

from django.utils.translation import gettext_lazy as _
from horizon import forms
from horizon import messages

from heat_deploy_dashboard import linking
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.deploy.trigger import derived_name

DEFAULT_ACTION = 'CREATE'
# Heat's columns: a deployment's server_id holds 36 characters, a config's
# name 255.
MAX_SERVER_ID = 36
MAX_NAME = 255


def action_suggestions(config):
    """Heat's lifecycle actions, and a component's own actions first."""
    own = []
    if config.get('group') == linking.COMPONENT_GROUP:
        for script in linking.scripts_of(config):
            own += [a for a in script.actions if a not in own]
    return own + [a for a in linking.LIFECYCLE_ACTIONS if a not in own]


class DeployConfigForm(run_form.RunForm):
    server = forms.CharField(
        label=_("Server ID"), max_length=MAX_SERVER_ID,
        widget=run_form.SuggestingInput(tuple),
        help_text=_("Heat sends the deployment only to a server of one of "
                    "your stacks (OS::Nova::Server or OS::Heat::"
                    "DeployedServer). The servers that already have "
                    "deployments are offered."))
    action = forms.CharField(
        label=_("Action"), max_length=MAX_NAME, initial=DEFAULT_ACTION,
        widget=run_form.SuggestingInput(tuple),
        help_text=_("Any action: the server's hook gets it as deploy_action. "
                    "A component runs the scripts listed for it."))
    name = forms.CharField(
        label=_("Name"), max_length=MAX_NAME,
        help_text=_("The run's derived config is named after it: "
                    "NAME-ACTION. Heat orders a server's deployments by "
                    "these names."))

    field_order = ['server', 'action', 'name', 'transport', 'timeout']

    def __init__(self, request, *args, config, known_servers, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.config = config
        self.fields['server'].widget.suggestions = known_servers
        actions = action_suggestions(config)
        self.fields['action'].widget.suggestions = lambda: actions
        self.fields['name'].initial = config.get('name') or config['id']
        self.add_input_fields(config.get('inputs') or [])

    def clean(self):
        cleaned = super().clean()
        name, action = cleaned.get('name'), cleaned.get('action')
        if name and action and len(derived_name(name, action)) > MAX_NAME:
            self.add_error('name', _(
                "The name and the action together are longer than the %d "
                "characters Heat keeps.") % MAX_NAME)
        return cleaned

    def shown_commands(self):
        """The CLI command of the run as the form shows it."""
        return self.commands(self.config['id'], self['action'].value() or '',
                             [self['server'].value() or 'SERVER'],
                             self['name'].value() or '')

    def handle(self, request, data):
        result = self.start(request, self.config['id'], data['action'],
                            [data['server']], data['name'])
        if result is None:
            return False
        messages.success(request, _(
            "Started %(action)s on server %(server)s.") % {
            'action': data['action'], 'server': data['server']})
        return result.created[0]
