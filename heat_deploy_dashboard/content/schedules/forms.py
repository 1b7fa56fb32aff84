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
from horizon import messages

from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.run_action import forms as run_forms
from heat_deploy_dashboard.content import scheduling


class ChangeScheduleForm(run_forms.RunActionForm):
    """Run Action's form, filled in from a schedule, giving it what to run and when anew."""

    def __init__(self, request, *args, schedule_name, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.schedule_name = schedule_name

    def clean(self):
        cleaned = super().clean()
        if not (cleaned.get('repeat') or cleaned.get('once_at') or self.has_error('repeat')
                or self.has_error('once_at')):
            self.add_error('repeat', _("A schedule needs a pattern to repeat or a time to "
                                       "run once. To run the action now, use Run Action."))
        return cleaned

    def shown_commands(self):
        return super().shown_commands(schedule=self.schedule_name)

    def handle(self, request, data):
        try:
            scheduling.change(request, self.schedule_name, self.schedule_record(data))
        except Exception as error:
            errors.heat_failed(request, _("change the schedule"),
                               _("It keeps what it ran and when."),
                               service=errors.service_of(error))
            return False
        messages.success(request, _("Changed the schedule of %(action)s.")
                         % {'action': data['action']})
        return reverse('horizon:project:schedules:index')
