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

"""What every form that starts a run shares: a typed field per declared input
of the config, the choice of signal transport, the timeout, starting the
run, and the equivalent CLI command. The components' Run Action form and
the configs' Deploy form are both built on RunForm."""

from django.conf import settings
from django.utils.html import escape
from django.utils.html import format_html
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from horizon import forms
from horizon import messages
from openstack_dashboard.api import base

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import followers
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import verbatim_forms
import heat_deploy_runner as runner
from heat_deploy_runner.configs import definition
from heat_deploy_runner.configs import inputs as heat_inputs
from heat_deploy_runner import masking
from heat_deploy_runner.running.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.running.run_request import MAX_TIMEOUT_MINUTES
from heat_deploy_runner.signalling.signals import NoSignal

# Input fields get this prefix so that no input name can collide with the
# form's own fields.
INPUT_PREFIX = 'input__'

# Signal transports offered, in order; the first available is the default.
# The service each needs comes from api.deploy.
# Each says what the server must run for it (README, "Signal transports").
TRANSPORTS = (
    ('TEMP_URL_SIGNAL',
     _("Wait for the result (the server reports back through Object "
       "Storage; any heat-agents can)")),
    ('ZAQAR_SIGNED_URL_SIGNAL',
     _("Wait for the result (the server reports back through a Messaging "
       "queue; it needs heat-deploy-notify, which stock heat-agents "
       "lacks)")),
    ('NO_SIGNAL',
     _("Do not wait for a result (the deployment is marked complete at "
       "once; nothing comes back)")),
)
SERVICE_NAMES = {
    'object-store': _("Object Storage"),
    'messaging': _("Messaging"),
}


def live_by_default(request):
    """Whether the form asks for live output unless unticked: HEAT_DEPLOY_LIVE_OUTPUT says the
    images of every project (True), or of the projects whose ids it lists, have
    heat-deploy-script-hook."""
    setting = getattr(settings, 'HEAT_DEPLOY_LIVE_OUTPUT', False)
    if isinstance(setting, bool):
        return setting
    # A list of ids; a text alone would match any part of an id.
    return isinstance(setting, (list, tuple, set, frozenset)) and (
        request.user.project_id in setting)


def default_text(declared):
    """An input's default as a person types it, or None without one."""
    return heat_inputs.as_text(declared.get('type'), declared.get('default'))


class _PostedCheckbox(forms.CheckboxInput):
    """A checkbox that hands on the text it was sent, so that Heat's own
    boolean words decide (runner.coerce_input_values) rather than Django's
    "anything but 'false' is true"."""

    def __init__(self, attrs=None):
        super().__init__(attrs, check_test=self.checked)

    @staticmethod
    def checked(value):
        try:
            return heat_inputs.coerce_value('', heat_inputs.BOOLEAN, value)
        except runner.InputError:
            return False

    def format_value(self, value):
        # No value attribute: a ticked box then sends "on".
        return None

    def value_from_datadict(self, data, files, name):
        # An unticked box sends nothing at all.
        return data.get(name, 'false')


class _TransportSelect(forms.RadioSelect):
    """Radio buttons whose unavailable choices show, disabled."""

    def __init__(self, disabled=(), **kwargs):
        super().__init__(**kwargs)
        self.disabled = set(disabled)

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if value in self.disabled:
            option['attrs']['disabled'] = True
        return option


class SuggestingInput(forms.TextInput):
    """A text input that offers choices (an HTML datalist) and takes any
    text. ``suggestions`` is called when the field is drawn, so a form that
    is only submitted never fetches them; each is a text, or a (text,
    label) pair whose label the browser shows beside it."""

    def __init__(self, suggestions, attrs=None):
        super().__init__(attrs)
        self.suggestions = suggestions

    def render(self, name, value, attrs=None, renderer=None):
        list_id = '%s__suggestions' % (attrs or {}).get('id', name)
        field = super().render(name, value, dict(attrs or {}, list=list_id),
                               renderer)
        pairs = (each if isinstance(each, tuple) else (each, '')
                 for each in self.suggestions())
        options = format_html_join('', '<option value="{}">{}</option>', pairs)
        return field + format_html('<datalist id="{}">{}</datalist>',
                                   list_id, options)


def input_field(declared):
    """A form field for one declared input of a config, after
    heat-dashboard's CreateStackForm._build_parameter_fields."""
    input_type = declared.get('type') or heat_inputs.STRING
    initial = default_text(declared)
    # Read by input-defaults.js to mark values changed from the default.
    attrs = {} if initial is None else {'data-hdd-default': initial}
    kwargs = {
        'label': declared['name'],
        'initial': initial,
        'required': initial is None,
        # Horizon puts help text in a tooltip unescaped.
        'help_text': escape(declared.get('description') or ''),
    }
    if input_type == heat_inputs.BOOLEAN:
        # Unticked means false, never "missing".
        kwargs['required'] = False
        return forms.Field(widget=_PostedCheckbox(attrs), **kwargs)
    if input_type == heat_inputs.NUMBER:
        # Text, not a FloatField: Heat keeps 3 an integer, and so must we.
        attrs['step'] = 'any'
        return forms.CharField(widget=forms.NumberInput(attrs), **kwargs)
    if input_type == heat_inputs.JSON:
        return forms.CharField(widget=forms.Textarea(dict(attrs, rows=4)),
                               **kwargs)
    if input_type == heat_inputs.COMMA_DELIMITED_LIST:
        kwargs['help_text'] = ' '.join(filter(None, [
            kwargs['help_text'], escape(_("Separate values with commas."))]))
    # Spaces may matter to a script. A secret (by its name) is not shown on the screen; its
    # value stays in the field, so that a form opened with one (Change Schedule) keeps it.
    widget = (forms.PasswordInput(attrs, render_value=True)
              if masking.is_secret_name(declared['name']) else forms.TextInput(attrs))
    return forms.CharField(strip=False, widget=widget, **kwargs)


# A whole number as long as any field takes (the bad-input corpus types 100,000 digits).
_SHOWN_DIGITS = 18


def _as_shown(value):
    if value is None:
        return ''
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= _SHOWN_DIGITS:
        return int(value)
    return value


def no_control_characters(value):
    """A name or action with a control character (an escape, a line break) would reach the
    server's hook and every page that shows it; Django's own check stops only NUL."""
    character = definition.control_character(value or '')
    if character:
        raise forms.ValidationError(
            _("This holds a control character (%(character)s); write it without one.")
            % {'character': character})


class RunForm(verbatim_forms.VerbatimFieldsMixin, forms.SelfHandlingForm):
    """A form that runs an action of a config: subclasses add what to run
    where, and call add_input_fields() once their own fields are set."""

    transport = forms.ChoiceField(
        label=_("How the result comes back"),
        help_text=_("How the server sends its result back. A server whose "
                    "agent cannot send it over the way chosen runs the "
                    "action, and the run waits until its timeout."))
    live = forms.BooleanField(
        label=_("Send output live (the server's image needs heat-deploy-script-hook)"),
        required=False,
        # Not offered while the run waits for no result (transport_fields.js); nor taken.
        widget=forms.CheckboxInput(attrs={'data-hdd-for-transports': ' '.join(
            name for name, _label in TRANSPORTS if name != NoSignal.name)}),
        help_text=_("The server sends the lines the script writes while it runs, and the "
                    "run's page shows them as they come. A server whose image lacks "
                    "heat-deploy-script-hook runs the action as ever: its output comes when "
                    "the run ends."))
    timeout = forms.IntegerField(
        label=_("Timeout (minutes)"), initial=DEFAULT_TIMEOUT_MINUTES,
        min_value=1, max_value=MAX_TIMEOUT_MINUTES,
        help_text=_("How long the server may take to report its result."))

    # How the run goes rather than what it does: shown folded under the action, the servers
    # and the inputs, which are what a person opens the form to choose (as AWX and Rundeck
    # put a job's own options first).
    HOW_IT_RUNS = ('transport', 'live', 'timeout', 'batch_size', 'max_failures', 'retries',
                   'retry_delay', 'repeat', 'once_at')

    def __init__(self, request, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self._inputs = []
        self._set_transports(request)
        self.fields['live'].initial = live_by_default(request)
        if isinstance(self.initial.get('live'), str):
            # From a link (Run Again): Heat's boolean words, as a boolean input's.
            self.initial['live'] = _PostedCheckbox.checked(self.initial['live'])

    def leading_fields(self):
        return [field for field in self.visible_fields() if field.name not in self.HOW_IT_RUNS]

    def how_it_runs_fields(self):
        return [field for field in self.visible_fields() if field.name in self.HOW_IT_RUNS]

    def how_it_runs_summary(self):
        if 'repeat' in self.fields:
            return _("How it runs: how the result comes back, live output, the timeout, "
                     "servers at a time, tries, and a schedule")
        return _("How it runs: how the result comes back, live output, and the timeout")

    def how_it_runs_changed(self):
        """Whether the folded fields are shown open: one of them is not at its default, or
        is wrong."""
        def text(value):
            return '' if value is None else str(value)
        return any(field.errors or text(field.value()) != text(self.fields[field.name].initial)
                   for field in self.how_it_runs_fields())

    def add_input_fields(self, declared_inputs):
        self._inputs = [d for d in declared_inputs if d.get('name')]
        for declared in self._inputs:
            self.fields[INPUT_PREFIX + declared['name']] = input_field(declared)

    def _set_transports(self, request):
        choices, unavailable = [], []
        for name, label in TRANSPORTS:
            service = api.deploy.required_service(name)
            if service and not base.is_service_enabled(request, service):
                unavailable.append(name)
                label = _("%(transport)s: not available, it needs "
                          "%(service)s, which is not in your service "
                          "catalog") % {
                    'transport': label,
                    'service': SERVICE_NAMES.get(service, service)}
            choices.append((name, label))
        field = self.fields['transport']
        field.choices = choices
        field.widget = _TransportSelect(disabled=unavailable,
                                        choices=choices)
        self._unavailable = unavailable
        available = [name for name, _label in choices
                     if name not in unavailable]
        field.initial = available[0] if available else None

    def clean(self):
        cleaned = super().clean()
        if cleaned.get('transport') in self._unavailable:
            self.add_error('transport', _("This way of reporting the "
                                          "result is not available."))
        cleaned['input_values'] = self._input_values(cleaned)
        if not self.errors:
            # What every way of running it reads: now, in batches, on a schedule.
            cleaned['request'] = self.run_request(cleaned)
        return cleaned

    def run_request(self, cleaned):
        """The form's runner.RunRequest, from its valid cleaned data."""
        raise NotImplementedError

    @staticmethod
    def asks_live(cleaned):
        """Whether the request asks for live output: ticked, and a result is waited for."""
        return bool(cleaned.get('live')) and cleaned.get('transport') != NoSignal.name

    def shown_request(self):
        """The runner.RunRequest the form submits as it shows now, which the command shown
        beside it is built from (cli): the submitted one once the form is valid; else one of
        the fields as they show, whole numbers read as numbers and the rest as typed (its
        inputs are shown_input_texts)."""
        if self.is_bound and not self.errors:
            return self.cleaned_data['request']
        return self.run_request(dict(
            {name: _as_shown(self[name].value()) for name in self.fields}, input_values={}))

    def _input_values(self, cleaned):
        # Every input on its own, so that each wrong one gets its own error.
        values = {}
        for declared in self._inputs:
            field = INPUT_PREFIX + declared['name']
            if field not in cleaned:
                continue
            try:
                values.update(heat_inputs.from_texts(
                    [declared], {declared['name']: cleaned[field]}))
            except runner.InputError as error:
                self.add_error(field, error.message.render(gettext))
        return values

    def start(self, request, source=None):
        """Start the form's run request; the runner.Started when at least one run started,
        else None with the reasons shown on the form. ``source``: the request's config, when
        the form has it."""
        run_request = self.cleaned_data['request']
        action = run_request.action
        try:
            result = api.deploy.start_runs(request, run_request, source,
                                           server_names.names(request),
                                           followers.operation_link(request))
        except runner.InputError as error:
            self.api_error(error.message.render(gettext))
            return None
        except Exception:
            errors.heat_failed(request, _("start %(action)s") % {'action': action},
                               _("Nothing was started."))
            return None
        if not result.created:
            # Nothing exists to look at: stay on the form, with what the
            # user chose, so that they can change it and try again.
            for _server, message in result.failures:
                self.api_error(message.render(gettext))
            return None
        # The deployments page will name these runs from their configs.
        config_cache.put_many(request, [run.config for run in result.created])
        if result.not_followed:
            messages.warning(request, followers.NOT_FOLLOWED)
        return result

    def shown_input_texts(self):
        """{name: text} of the inputs whose value, as the form shows it,
        differs from the default: the CLI applies defaults itself."""
        texts = {}
        for declared in self._inputs:
            field = self[INPUT_PREFIX + declared['name']]
            text = field.value()
            if isinstance(field.field.widget, _PostedCheckbox):
                text = 'true' if _PostedCheckbox.checked(text) else 'false'
            if text is None or text == default_text(declared):
                continue
            if text == '' and declared.get('type') not in (
                    None, heat_inputs.STRING):
                continue
            texts[declared['name']] = text
        return texts
