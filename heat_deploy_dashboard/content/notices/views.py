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

"""Notify Me and Remove of a component's, a schedule's or an operation's notices: the
subject's page lists its subscriptions (subjects.subscriptions_context); a schedule's are on
a page of their own (NoticesView), linked from its row."""

from django import shortcuts
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views import generic
from horizon import forms
from horizon import messages

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.notices import forms as notice_forms
from heat_deploy_dashboard.content.notices import subjects


class SubjectMixin:
    """Answers 404 unless Zaqar is in the catalog and the subject in the URL is the working
    project's, and refuses a user without the rules of the subject's page, before any
    other call."""

    def dispatch(self, request, *args, **kwargs):
        subjects.require(request, kwargs['kind'], kwargs['subject_id'])
        return super().dispatch(request, *args, **kwargs)

    @property
    def page_url(self):
        return subjects.page_url(self.kwargs['kind'], self.kwargs['subject_id'])


class NoticesView(SubjectMixin, generic.TemplateView):
    """The subject's subscriptions, with Notify Me and Remove: a schedule's notices page."""

    template_name = 'notices/index.html'

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        kind, subject_id = self.kwargs['kind'], self.kwargs['subject_id']
        context['page_title'] = _("Notices")
        context['notices'] = subjects.subscriptions_context(self.request, kind, subject_id)
        context['back_url'] = (reverse('horizon:project:schedules:index') if kind ==
                               subjects.SCHEDULE else subjects.page_url(kind, subject_id))
        return context


class SubscribeView(SubjectMixin, forms.ModalFormView):
    form_class = notice_forms.SubscribeForm
    template_name = 'notices/subscribe.html'
    modal_id = 'notice_subscribe_modal'
    page_title = _("Notify Me")
    submit_label = _("Subscribe")

    def get_form_kwargs(self):
        return dict(super().get_form_kwargs(), subject_id=self.kwargs['subject_id'])

    def get_success_url(self):
        return self.page_url

    def get_cancel_url(self):
        return self.page_url

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context['submit_url'] = subjects.subscribe_url(self.kwargs['kind'],
                                                       self.kwargs['subject_id'])
        context['about'] = subjects.ABOUT[self.kwargs['kind']]
        return context


class UnsubscribeView(SubjectMixin, generic.View):
    """Remove a subscription: a POST, from its subject's page, and back there. A GET removes
    nothing and goes to that page."""

    def get(self, request, *args, **kwargs):
        return shortcuts.redirect(self.page_url)

    def post(self, request, kind, subject_id, subscription_id):
        try:
            removed = api.zaqar.notice_unsubscribe(request, subject_id, subscription_id)
        except Exception:
            errors.heat_failed(request, _("remove the notice"), _("Nothing was removed."),
                               service=subjects.ZAQAR, redirect=self.page_url)
        if removed:
            messages.success(request, _("Removed the notice: its subscriber is told no "
                                        "more."))
        else:
            messages.info(request, _("That notice was removed already."))
        return shortcuts.redirect(self.page_url)
