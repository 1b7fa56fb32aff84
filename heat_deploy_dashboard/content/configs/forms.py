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

import textwrap

from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from heatclient import exc as heat_exc
from horizon import forms
from horizon import messages

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import verbatim_forms
from heat_deploy_runner import cli
from heat_deploy_runner.configs import definition
from heat_deploy_runner.configs import derived
from heat_deploy_runner import InputError

# Offered, not imposed: a group names the hook on the server that runs the
# config, and a server may have hooks of its own.
GROUPS = ('script', 'component', 'ansible', 'puppet', 'salt', 'chef',
          'os-apply-config', derived.DEFAULT_GROUP)
# Heat refuses a request body over 1 MiB (its max_json_body_size).
MAX_FILE_BYTES = 1024 * 1024
TEXT, DATA = 'text', 'data'
# The three YAML fields, in the order of a definition file.
IO_FIELDS = (('inputs', definition.check_inputs),
             ('outputs', definition.check_outputs),
             ('options', definition.check_options))

# Examples of the YAML: its keys and names stay as they are, its words are translated.
INPUTS_EXAMPLE = format_lazy(
    '- name: greeting\n  type: String\n  default: {}\n  description: {}',
    # Translators: an input's default value in an example (a greeting a script prints).
    _("hello"), _("What to say"))
OUTPUTS_EXAMPLE = format_lazy('- name: result\n  description: {}', _("What the script wrote"))


def _yaml_area(rows, placeholder=''):
    return forms.Textarea(attrs={'rows': rows, 'placeholder': placeholder,
                                 'class': 'hdd-code', 'spellcheck': 'false'})


def initial_from(config):
    """The create form's fields filled in from an existing config."""
    body = config.get('config')
    return {
        'name': config.get('name') or '',
        'group': config.get('group') or derived.DEFAULT_GROUP,
        'body_format': TEXT if isinstance(body, str) or body is None else DATA,
        'config': body if isinstance(body, str) else definition.dump(body),
        'inputs': definition.dump(config.get('inputs')),
        'outputs': definition.dump(config.get('outputs')),
        'options': definition.dump(config.get('options')),
    }


class CreateConfigForm(verbatim_forms.VerbatimFieldsMixin, forms.SelfHandlingForm):
    name = forms.CharField(label=_("Name"), max_length=255,
                           validators=[run_form.no_control_characters])
    group = forms.CharField(
        label=_("Group"), max_length=255, initial='script',
        widget=run_form.SuggestingInput(lambda: GROUPS),
        help_text=_("The hook on the server that runs the config: script, "
                    "ansible, puppet, or any hook your servers have. "
                    "Heat::Ungrouped has none."))
    definition_file = forms.FileField(
        label=_("Definition File"), required=False,
        help_text=_("YAML or JSON with the keys inputs, outputs, options and "
                    "config, each optional: the file of openstack software "
                    "config create --definition-file, plus the config. Leave "
                    "the fields it fills empty."))
    body_format = forms.ChoiceField(
        label=_("The Config Is"), initial=TEXT,
        widget=forms.RadioSelect,
        choices=[(TEXT, _("Text, stored as written: a script, a playbook, "
                          "a manifest")),
                 (DATA, _("YAML or JSON, stored as data: the configs of a "
                          "component, a structured config"))])
    config = forms.CharField(label=_("Config"), required=False, strip=False,
                             widget=_yaml_area(10))
    config_file = forms.FileField(label=_("Or Upload the Config"),
                                  required=False)
    inputs = forms.CharField(
        label=_("Inputs"), required=False, widget=_yaml_area(6, INPUTS_EXAMPLE),
        help_text=_("A YAML list, as in a template: name, type (String, "
                    "Number, Boolean, Json, CommaDelimitedList), default, "
                    "description."))
    outputs = forms.CharField(
        label=_("Outputs"), required=False,
        widget=_yaml_area(4, OUTPUTS_EXAMPLE),
        help_text=_("A YAML list: name, description, and error_output: true "
                    "for an output whose value means the run failed."))
    options = forms.CharField(label=_("Options"), required=False,
                              widget=_yaml_area(2, '{}'),
                              help_text=_("A YAML mapping, read by the hook."))

    def clean(self):
        cleaned = super().clean()
        given = self._load('definition_file', self._file_text('definition_file'),
                           definition.check_definition) or {}
        fields = {'name': cleaned.get('name'), 'group': cleaned.get('group')}
        for key, check in IO_FIELDS:
            typed = self._load(key, cleaned.get(key), check)
            if typed is not None and key in given:
                self.add_error(key, _("The definition file gives these too: "
                                      "give them once."))
            fields[key] = typed if typed is not None else given.get(key, check(None))
        fields['config'] = self._body(cleaned, given)
        if not self.errors:
            cleaned['config_fields'] = fields
        return cleaned

    def _file_text(self, field):
        upload = self.cleaned_data.get(field)
        if not upload:
            return None
        if upload.size > MAX_FILE_BYTES:
            self.add_error(field, _("The file is larger than 1 MiB, more than "
                                    "Heat accepts."))
            return None
        try:
            return upload.read().decode('utf-8')
        except UnicodeDecodeError:
            self.add_error(field, _("The file is not UTF-8 text."))
            return None

    def _load(self, field, text, check):
        """The field's YAML, checked; None when blank or wrong (with an
        error on the field)."""
        try:
            value = definition.load(text)
            return None if value is None else check(value)
        except InputError as error:
            self.add_error(field, error.message.render(gettext))
            return None

    def _body(self, cleaned, given):
        # Browsers send a textarea's lines ending in CRLF, which a script's
        # interpreter line would then end in too.
        typed = (cleaned.get('config') or '').replace('\r\n', '\n') or None
        uploaded = self._file_text('config_file')
        sources = [s for s in (typed, uploaded) if s is not None]
        if 'config' in given:
            sources.append(given['config'])
        if len(sources) > 1:
            self.add_error('config', _("Give the config once: typed, uploaded "
                                       "or in the definition file."))
            return None
        field = 'definition_file' if 'config' in given else 'config'
        body = sources[0] if sources else ''
        if cleaned.get('body_format') == DATA and 'config' not in given:
            body = self._load(field, body, definition.check_data)
            if field in self.errors:
                return None
        try:
            return definition.check_body(body, cleaned.get('group'))
        except InputError as error:
            self.add_error(field, error.message.render(gettext))
            return None

    def shown_command(self):
        """The CLI commands for the config as the form shows it."""
        def value(name):
            return self[name].value() or ''
        parts = [f'{key}:\n' + textwrap.indent(value(key).strip(), '  ')
                 for key, _check in IO_FIELDS if value(key).strip()]
        return cli.config_create(
            name=value('name') or 'NAME', group=value('group'),
            definition='\n'.join(parts),
            # The CLI stores a config file as text: it cannot give data.
            body=value('config') if value('body_format') != DATA else '')

    def handle(self, request, data):
        fields = data['config_fields']
        try:
            config = api.heat.config_create(request, **fields)
        except Exception:
            errors.heat_failed(request, _("create the software config"),
                               _("Nothing was created."))
            return False
        messages.success(request, _('Created software config "%s".')
                         % fields['name'])
        return config


class DeleteConfigForm(forms.SelfHandlingForm):
    def __init__(self, request, *args, config, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.config = config

    def handle(self, request, data):
        config_id = self.config['id']
        try:
            # Heat answers a delete of a config in use with an error 500, so
            # its deployments are looked for first.
            users = deployments_of(request, config_id)
            if users:
                self.api_error(in_use_message(request, self.config, users))
                return False
            api.heat.config_delete(request, config_id)
        except heat_exc.HTTPNotFound:
            pass
        except Exception:
            errors.heat_failed(request, _("delete the software config"))
            return False
        messages.success(request, _('Deleted software config "%s".')
                         % (self.config.get('name') or config_id))
        return True

    def shown_command(self):
        return cli.config_delete(self.config['id'])


def deployments_of(request, config_id):
    """The project's deployments that use the config."""
    return [d for d in api.heat.deployments_list(request)
            if d.config_id == config_id]


def in_use_message(request, config, users):
    if derived.is_derived_for(config, users[0].server_id):
        return gettext("This config was made for the run %(run)s on %(server)s. Delete "
                       "that deployment: its derived config goes with it.") % {
            'run': config.get('name') or config['id'],
            'server': server_names.name_of(request, users[0].server_id)}
    return ngettext(
        "%(count)d deployment uses this config, and Heat keeps a config while "
        "any does. Delete it first.",
        "%(count)d deployments use this config, and Heat keeps a config while "
        "any does. Delete them first.", len(users)) % {'count': len(users)}
