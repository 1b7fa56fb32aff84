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

import datetime

from django import http
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views import generic
from horizon import exceptions
from horizon import messages
from horizon import tables
from horizon.utils import functions as horizon_utils
from horizon.utils import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import paging
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content.run_action import views as run_views
from heat_deploy_dashboard.content import run_form
from heat_deploy_dashboard.content.schedules import forms as project_forms
from heat_deploy_dashboard.content.schedules import schedules
from heat_deploy_dashboard.content.schedules import tables as project_tables
from heat_deploy_dashboard.content import scheduling
from heat_deploy_runner.configs import inputs as heat_inputs
from heat_deploy_runner.scheduling import cron
from heat_deploy_runner.scheduling import schedule_kinds
from heat_deploy_runner.scheduling import schedules as runner_schedules

INDEX_URL = 'horizon:project:schedules:index'


class IndexView(tables.PagedTableMixin, tables.DataTableView):
    """The project's schedules, a page at a time (Horizon's page size): a thousand rows would
    take seconds to draw."""

    table_class = project_tables.SchedulesTable
    template_name = 'project/schedules/index.html'
    page_title = _("Schedules")

    def get_data(self):
        try:
            found = schedules.listed(self.request)
        except Exception:
            return errors.list_failed(self, _("retrieve schedules"),
                                      _("The schedules could not be loaded."),
                                      service=errors.MISTRAL)
        self.table.retention_on = any(each.name == runner_schedules.RETENTION
                                      for each in found)
        marker, direction = self._get_marker()
        page = paging.page_of(found, horizon_utils.get_page_size(self.request), marker,
                              direction)
        self._has_prev_data, self._has_more_data = page.has_prev, page.has_more
        return page.rows


class PreviewView(PolicyRequiredMixin, generic.View):
    """The next five times a cron pattern fires, in the user's time zone: Run Action's
    schedule field shows them as the pattern is typed (schedule_preview.js)."""

    policy_rules = (("workflow", "cron_triggers:create"),)

    def get(self, request):
        pattern = request.GET.get('pattern', '').strip()
        if not cron.valid_pattern(pattern):
            return http.JsonResponse({'error': str(scheduling.BAD_PATTERN)})
        now = datetime.datetime.now(datetime.timezone.utc)
        return http.JsonResponse({'times': [project_tables.local_time(each) for each in
                                            cron.next_times(pattern, now=now)]})


class ChangeView(run_views.RunActionView):
    """Run Action's form for a schedule: what it runs, where and when, filled in from its
    record."""

    form_class = project_forms.ChangeScheduleForm
    modal_id = 'change_schedule_modal'
    page_title = _("Change Schedule")
    submit_label = _("Save")
    policy_rules = project_tables.ChangeSchedule.policy_rules

    @memoized.memoized_method
    def get_record(self):
        try:
            record = api.mistral.schedule_record_get(self.request, self.kwargs['schedule_id'])
        except LookupError as error:
            raise http.Http404() from error
        except Exception:
            errors.heat_failed(self.request, _("retrieve the schedule"),
                               redirect=reverse(INDEX_URL), service=errors.MISTRAL)
        if schedule_kinds.kind_of(record).unchangeable:
            raise http.Http404()
        return record

    @memoized.memoized_method
    def get_component(self):
        try:
            return self.find_component(self.request, self.get_record()['component_id'])
        except http.Http404:
            messages.error(self.request, _(
                "The schedule's component is gone from the project: there is nothing left "
                "to change. Delete the schedule."))
            raise exceptions.Http302(reverse(INDEX_URL))
        except Exception:
            errors.heat_failed(self.request, run_views.RETRIEVE_COMPONENTS,
                               redirect=reverse(INDEX_URL))

    def get_cancel_url(self):
        return reverse(INDEX_URL)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context['submit_url'] = reverse('horizon:project:schedules:change',
                                        args=[self.kwargs['schedule_id']])
        return context

    def get_form_kwargs(self):
        return dict(super().get_form_kwargs(), schedule_name=self.kwargs['schedule_id'])

    def get_initial(self):
        record = self.get_record()
        initial = {
            'action': record.get('action'), 'servers': record.get('server_ids'),
            'transport': record.get('transport'), 'live': bool(record.get('live')),
            'timeout': record.get('timeout_minutes'),
            'batch_size': record.get('batch_size') or None,
            'max_failures': record.get('max_failures') or 0,
            'retries': record.get('retries') or 0, 'retry_delay': record.get('retry_delay') or 0,
            'repeat': record.get('pattern') or '', 'once_at': record.get('once_at') or ''}
        types = {each['name']: each.get('type') for each in self.get_component().inputs
                 if each.get('name')}
        try:
            ref = record.get('secret_ref')
            secrets = api.swift.secrets_get(self.request, ref) if ref else {}
        except Exception:
            secrets = {}
            errors.heat_failed(self.request, _("read the schedule's secret inputs"), _(
                "They show their defaults: give them again."), service=errors.SWIFT)
        for name, value in dict(record.get('input_values') or {}, **secrets).items():
            if name in types:
                initial[run_form.INPUT_PREFIX + name] = heat_inputs.as_text(types[name], value)
        return initial
