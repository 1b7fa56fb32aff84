from django.utils.html import escape
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from horizon import forms
from horizon import messages

from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard import linking


class TriggerForm(run_form.RunForm):
    action = forms.ChoiceField(label=_("Action"))
    confirm_lifecycle = forms.BooleanField(
        label=_("Yes, run a lifecycle action"), required=False,
        help_text=_("Heat itself runs CREATE, UPDATE, DELETE, SUSPEND and "
                    "RESUME when the stack changes. Running one by hand "
                    "may redo or undo that work on the servers."))
    servers = forms.MultipleChoiceField(
        label=_("Servers"), widget=forms.ThemableCheckboxSelectMultiple,
        error_messages={'required': _("Choose at least one server.")})

    field_order = ['action', 'confirm_lifecycle', 'servers', 'transport',
                   'timeout']

    def __init__(self, request, *args, component, wired=(), **kwargs):
        super().__init__(request, *args, **kwargs)
        self.component = component
        self.fields['action'].choices = self._action_choices()
        if self.initial.get('action') not in component.actions:
            # Custom actions are what people come here for.
            actions = component.custom_actions + component.lifecycle_actions
            self.initial['action'] = actions[0] if actions else None
        # Like a job's inventory in AWX or a node filter in Rundeck: every
        # server the component is on is a target until unticked.
        servers = self.fields['servers']
        named = server_names.names(request)
        servers.choices = [(s, f'{named[s]} ({s[:server_names.SHORT_ID]})' if s in named else s)
                           for s in component.server_ids]
        servers.initial = component.server_ids
        if self.initial.get('servers'):
            # A re-run targets the servers of the run it repeats.
            self.initial['servers'] = [s for s in self.initial['servers']
                                       if s in component.server_ids]
        self.add_input_fields(component.inputs)
        for each in wired:
            self._prefill(each)

    def _prefill(self, wired):
        """An input the stack fed from another component's output starts at the value the
        stack gave it, so that an action that needs it again does not need it looked up."""
        name = run_form.INPUT_PREFIX + wired.name
        field = self.fields.get(name)
        if field is None:
            return
        field.help_text = ' '.join(filter(None, [str(field.help_text), escape(
            gettext("From %(source)s on %(server)s, as the stack gave it.")
            % {'source': wired.source, 'server': wired.source_server})]))
        if wired.value is not None and name not in self.initial:
            self.initial[name] = wired.value
            # Marked as changed (input-defaults.js) once it differs from what the stack gave.
            field.widget.attrs['data-hdd-default'] = wired.value

    def _action_choices(self):
        groups = [(_("Custom actions"), self.component.custom_actions),
                  (_("Lifecycle actions"), self.component.lifecycle_actions)]
        return [(label, [(a, a) for a in actions])
                for label, actions in groups if actions]

    def clean(self):
        cleaned = super().clean()
        if (cleaned.get('action') in linking.LIFECYCLE_ACTIONS
                and not cleaned.get('confirm_lifecycle')):
            self.add_error('confirm_lifecycle', _(
                "%(action)s is a lifecycle action: tick the box to confirm "
                "that you want to run it.") % {'action': cleaned['action']})
        return cleaned

    def shown_commands(self):
        """The CLI commands of the run as the form shows it."""
        return self.commands(self.component.id, self['action'].value() or '',
                             self['servers'].value() or [],
                             self.component.run_name)

    def handle(self, request, data):
        action = data['action']
        result = self.start(request, self.component.id, action,
                            data['servers'], self.component.run_name)
        if result is None:
            return False
        count = len(result.created)
        messages.success(request, ngettext(
            "Started %(action)s on %(count)d server.",
            "Started %(action)s on %(count)d servers.",
            count) % {'action': action, 'count': count})
        for _server, message in result.failures:
            messages.error(request, message.render(gettext))
        # The view goes on to the operation's runs.
        return result
