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

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from horizon import forms
from horizon import messages

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.notices import subjects
import heat_deploy_runner as runner
from heat_deploy_runner.following import notices

WHEN_CHOICES = tuple(subjects.WHEN_SHOWN.items())
# How the success message says when the subscriber is told.
_TOLD = {notices.ON_FAILURE: _("when an operation fails"),
         notices.ALWAYS: _("whenever an operation ends")}


class SubscribeForm(forms.SelfHandlingForm):
    """Who is told of the subject's outcome, and when: a subscription of Zaqar's."""

    subscriber = forms.CharField(
        label=_("Subscriber"),
        help_text=_("A web address (http:// or https://) the messaging service (Zaqar) "
                    "posts each notice to as JSON, or mailto: and an email address it "
                    "sends each notice to (where the cloud's Zaqar sends mail)."))
    when = forms.ChoiceField(
        label=_("When"), choices=WHEN_CHOICES, initial=notices.ON_FAILURE,
        help_text=_("On failure: Zaqar posts the outcome when a server failed, was "
                    "cancelled or could not start. Always: Zaqar posts it whenever the "
                    "operation ends."))

    def __init__(self, request, *args, subject_id, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.subject_id = subject_id

    def clean_subscriber(self):
        # Refused before Zaqar is asked, in the runner's words.
        try:
            return notices.checked_subscriber(self.cleaned_data.get('subscriber'))
        except runner.InputError as error:
            raise forms.ValidationError(error.message.render(gettext)) from None

    def handle(self, request, data):
        try:
            made = api.zaqar.notice_subscribe(request, self.subject_id, data['when'],
                                              data['subscriber'])
        except runner.InputError as error:
            # One told of the same already.
            self.api_error(error.message.render(gettext))
            return False
        except Exception:
            errors.heat_failed(request, _("subscribe to the notices"),
                               _("Nothing was subscribed."), service=subjects.ZAQAR)
            return False
        messages.success(request, _("%(subscriber)s is told %(when)s.") % {
            'subscriber': made.subscriber, 'when': _TOLD[made.when]})
        return True
