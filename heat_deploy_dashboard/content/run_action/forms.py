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
from django.utils.html import escape
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from horizon import forms
from horizon import messages

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import followers
from heat_deploy_dashboard.content import policy
from heat_deploy_dashboard.content.run_action import server_list
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import scheduling
from heat_deploy_dashboard.content import server_names
import heat_deploy_runner as runner
from heat_deploy_runner import cli
from heat_deploy_runner.components import choosing
from heat_deploy_runner.components import linking
from heat_deploy_runner.running.run_request import MAX_RETRIES
from heat_deploy_runner.running.run_request import MAX_RETRY_DELAY
from heat_deploy_runner.running.run_request import MAX_SERVERS
from heat_deploy_runner.scheduling import cron
from heat_deploy_runner.workflows import rolling
from heat_deploy_runner.workflows import secret_store


class RunActionForm(run_form.RunForm):
    action = forms.ChoiceField(label=_("Action"))
    confirm_lifecycle = forms.BooleanField(
        label=_("Yes, run a lifecycle action"), required=False,
        # Shown for a lifecycle action only (lifecycle_confirm.js).
        widget=forms.CheckboxInput(attrs={
            'data-hdd-for-actions': ' '.join(linking.LIFECYCLE_ACTIONS)}),
        help_text=_("Heat itself runs CREATE, UPDATE, DELETE, SUSPEND and "
                    "RESUME when the stack changes. Running one by hand "
                    "may redo or undo that work on the servers."))
    servers = forms.MultipleChoiceField(
        label=_("Servers"), widget=server_list.ServerCheckboxes,
        error_messages={'required': _("Choose at least one server.")})
    leave_out_busy = forms.BooleanField(
        label=_("Leave out servers still running"), required=False,
        help_text=_("A server whose earlier run has not ended (as Heat shows it once a "
                    "result waiting for it is applied) is left out, as a schedule's firings "
                    "leave it out. Unticked, it gets a second run beside the first."))

    field_order = ['action', 'confirm_lifecycle', 'servers', 'leave_out_busy', 'transport',
                   'live', 'timeout', 'batch_size', 'max_failures', 'retries', 'retry_delay',
                   'repeat', 'once_at']

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
        servers.widget.stacks = server_names.stacks(request)
        servers.widget.last = choosing.last_statuses(component)
        if self.initial.get('servers'):
            # A re-run targets the servers of the run it repeats.
            self.initial['servers'] = [s for s in self.initial['servers']
                                       if s in component.server_ids]
        if api.mistral.is_available(request):
            self._add_batch_fields()
            # Offered only to whom Mistral's policy lets make one.
            if policy.check_once(scheduling.CREATE_RULES, request):
                self._add_schedule_fields()
        self.add_input_fields(component.inputs)
        for each in wired:
            self._prefill(each)

    def _add_batch_fields(self):
        """Rolling runs, like AWX's serial batches or SSM's MaxConcurrency and MaxErrors: only
        with the workflow service (Mistral) in the catalog, which runs them."""
        self.fields['batch_size'] = forms.IntegerField(
            label=_("Servers at a time"), required=False, min_value=1, max_value=MAX_SERVERS,
            help_text=_("Run on this many servers at a time, the next ones once each of them "
                        "has finished. The workflow service (Mistral) runs the batches: they "
                        "go on with this page closed. Empty: every server at once."))
        self.fields['max_failures'] = forms.IntegerField(
            label=_("Failures allowed"), required=False, min_value=0, max_value=MAX_SERVERS,
            initial=0,
            help_text=_("With batches: once more servers than this have failed, no further "
                        "batch starts, and the servers left are marked not started."))
        self.fields['retries'] = forms.IntegerField(
            label=_("Tries again"), required=False, min_value=0, max_value=MAX_RETRIES,
            initial=0,
            help_text=_("A server whose run failed is run again this many times; it counts "
                        "as failed only after its last try. The workflow service runs the "
                        "tries, also of a schedule's runs."))
        self.fields['retry_delay'] = forms.IntegerField(
            label=_("Seconds between tries"), required=False, min_value=0,
            max_value=MAX_RETRY_DELAY, initial=0)

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
        scheduled = 'repeat' in self.fields and self._clean_schedule(cleaned)
        # As rolling.hands_over: the workflow service starts runs in batches or with tries.
        if cleaned.get('batch_size') or cleaned.get('retries') or scheduled:
            self._refuse_secrets_without_object_storage(cleaned)
        return cleaned

    def _add_schedule_fields(self):
        """Schedules, like AWX's or Rundeck's: Mistral runs them (a cron trigger)."""
        self.fields['repeat'] = forms.CharField(
            label=_("Repeat (cron, UTC)"), required=False, max_length=100,
            widget=forms.TextInput(attrs={
                'placeholder': '0 2 * * *',
                'data-hdd-preview-url': reverse('horizon:project:schedules:preview')}),
            help_text=_("Instead of running now, run at each time this cron pattern gives "
                        "(minute, hour, day of the month, month, day of the week; in UTC). "
                        "The next five times show below it, in your time zone."))
        self.fields['once_at'] = forms.CharField(
            label=_("Or once at (UTC)"), required=False, max_length=16,
            widget=forms.TextInput(attrs={'placeholder': 'YYYY-MM-DD HH:MM'}),
            help_text=_("Instead of running now, run once at this time (UTC), at least two "
                        "minutes from now."))

    def _clean_schedule(self, cleaned):
        pattern = ' '.join((cleaned.get('repeat') or '').split())
        once_at = (cleaned.get('once_at') or '').strip()
        cleaned['repeat'], cleaned['once_at'] = pattern, once_at
        if pattern and once_at:
            self.add_error('once_at', _("Give a pattern to repeat, or a time to run once: "
                                        "not both."))
        elif pattern and not cron.valid_pattern(pattern):
            self.add_error('repeat', scheduling.BAD_PATTERN)
        elif once_at:
            try:
                moment = cron.once_at(once_at)
            except ValueError:
                self.add_error('once_at', _("Write the time as YYYY-MM-DD HH:MM, in UTC."))
            else:
                if not cron.soon_enough(moment):
                    self.add_error('once_at', _("The time must be at least two minutes from "
                                                "now."))
        return bool(pattern or once_at)

    def _refuse_secrets_without_object_storage(self, cleaned):
        # Mistral would keep them in the clear: they are kept in Object Storage (secret_store).
        if api.swift.is_available(self.request):
            return
        _plain, secret = secret_store.split(cleaned.get('input_values'))
        # The command line's sentence (secret_store.needs_object_storage), on each field.
        refused = secret_store.needs_object_storage(secret).render(gettext) if secret else None
        for name in secret:
            self.add_error(run_form.INPUT_PREFIX + name, refused)

    def shown_commands(self, schedule=''):
        """The command that does what the form shows: `openstack software component run`, or
        `schedule create` with a time, `schedule change` for ``schedule``."""
        request = self.shown_request()
        # By the name the page shows ("mysql") where the command line finds it alone by it.
        component = self.component
        named = component.short_name if component.named_alone else component.id

        def shown(name):
            return str(self[name].value() or '').strip() if name in self.fields else ''
        return cli.run_action(
            request, component=named, input_texts=self.shown_input_texts(),
            lifecycle=request.action in linking.LIFECYCLE_ACTIONS, repeat=shown('repeat'),
            once_at=shown('once_at'), schedule=schedule,
            server_names=server_names.names(self.request),
            # In the component's order too: batches take the servers in order.
            every_server=tuple(request.server_ids) == tuple(component.server_ids))

    def handle(self, request, data):
        """Where to go next: the page of the operation started, or the schedules; or False."""
        if data.get('repeat') or data.get('once_at'):
            return self._schedule(request, data)
        if rolling.hands_over(data['request'], api.mistral.is_available(request),
                              api.swift.is_available(request)):
            # Tries, and many servers, without batches: one batch of all.
            return self._start_in_batches(request, data)
        action = data['action']
        result = self.start(request, config_cache.get_many(
            request, [self.component.id]).get(self.component.id))
        if result is None:
            return False
        count = len(result.created)
        messages.success(request, ngettext(
            "Started %(action)s on %(count)d server.",
            "Started %(action)s on %(count)d servers.",
            count) % {'action': action, 'count': count})
        if result.busy:
            messages.info(request, result.busy_left_out(server_names.names(request)).render(
                gettext))
        for _server, message in result.failures:
            messages.error(request, message.render(gettext))
        return run_tables.operation_url(result.operation.id)

    def _start_in_batches(self, request, data):
        action, servers = data['action'], data['servers']
        doing = _("start %(action)s in batches") % {'action': action}
        try:
            execution = api.mistral.rolling_start(request, data['request'],
                                                  **followers.notice_context(request, servers))
        except secret_store.NotKept:
            errors.heat_failed(request, doing, _("Nothing was started."),
                               service=errors.SWIFT)
            return False
        except Exception:
            errors.heat_failed(request, doing, _("Nothing was started."),
                               service=errors.MISTRAL)
            return False
        if data.get('batch_size'):
            messages.success(request, ngettext(
                "Started %(action)s on %(count)d server, %(size)d at a time.",
                "Started %(action)s on %(count)d servers, %(size)d at a time.",
                len(servers)) % {'action': action, 'count': len(servers),
                                 'size': data['batch_size']})
        else:
            messages.success(request, ngettext(
                "Started %(action)s on %(count)d server: the workflow service (Mistral) "
                "makes its run.",
                "Started %(action)s on %(count)d servers: the workflow service (Mistral) "
                "makes their runs.",
                len(servers)) % {'action': action, 'count': len(servers)})
        return run_tables.operation_url(execution.id)

    def run_request(self, cleaned):
        return runner.RunRequest(
            config_id=self.component.id, action=cleaned['action'],
            server_ids=tuple(cleaned['servers']), input_values=cleaned['input_values'],
            transport=cleaned['transport'], timeout_minutes=cleaned['timeout'],
            name=self.component.run_name, batch_size=cleaned.get('batch_size') or 0,
            max_failures=cleaned.get('max_failures') or 0,
            retries=cleaned.get('retries') or 0, retry_delay=cleaned.get('retry_delay') or 0,
            leave_out_busy=bool(cleaned.get('leave_out_busy')), live=self.asks_live(cleaned))

    def schedule_record(self, data):
        """What a schedule of the form's run keeps: its request's record
        (runner.RunRequest.record), with when it runs."""
        return dict(data['request'].record(), component_name=self.component.name,
                    pattern=data['repeat'] or None, once_at=data['once_at'] or None,
                    **followers.notice_context(self.request, data['servers']))

    def _schedule(self, request, data):
        action, servers = data['action'], data['servers']
        try:
            scheduling.create(request, self.schedule_record(data))
        except Exception as error:
            errors.heat_failed(request, _("schedule %(action)s") % {'action': action},
                               _("Nothing was scheduled."), service=errors.service_of(error))
            return False
        messages.success(request, ngettext(
            "Scheduled %(action)s on %(count)d server.",
            "Scheduled %(action)s on %(count)d servers.",
            len(servers)) % {'action': action, 'count': len(servers)})
        return reverse('horizon:project:schedules:index')
