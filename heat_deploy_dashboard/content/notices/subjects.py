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

"""Notices (runner.following.notices) as the pages show them: what a subject is (one of the
project's components, schedules or operations, by its id), who may see and change its
subscriptions, and the subscriptions its page lists (subscriptions_context, for
notices/_subscriptions.html).

Zaqar keeps the subscriptions and delivers the notices: without the messaging service in the
catalog nothing of notices is offered.
"""

import logging
import re

from django import http
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from horizon import exceptions
from openstack_dashboard.api import base
from openstack_dashboard import policy

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import ids
from heat_deploy_dashboard.content.runs import operations
from heat_deploy_runner.following import notices
from heat_deploy_runner.scheduling import schedule_kinds
from heat_deploy_runner.scheduling import schedules as runner_schedules

LOG = logging.getLogger(__name__)

SERVICE_TYPE = 'messaging'
# For errors.heat_failed: the service, as the sentence names it, and its own name.
ZAQAR = (_('the messaging service (Zaqar)'), 'Zaqar')

COMPONENT, SCHEDULE, OPERATION = 'component', 'schedule', 'operation'
KINDS = (COMPONENT, SCHEDULE, OPERATION)
# For URL patterns: a component's or an operation's id, or a schedule's name.
SUBJECT_ID = rf'(?:{runner_schedules.SCHEDULE_PREFIX})?{ids.HEAT_ID}'
# A subscription's id as Zaqar gives it (an ObjectId or a UUID, as its store makes them).
SUBSCRIPTION_ID = r'[0-9A-Za-z_-]{1,64}'
_SUBSCRIPTION_ID = re.compile(SUBSCRIPTION_ID)
_SCHEDULE_ID = re.compile(ids.SCHEDULE_ID)

# What the subject's own page checks (the component's, the operation's, the Schedules
# panel's). Zaqar checks its own rules (subscription:get_all, :create, :delete) on each call:
# the dashboard registers no "messaging" policy scope, and openstack_auth passes every rule
# of a scope it has no files for.
RULES = {
    COMPONENT: (("orchestration", "software_configs:show"),),
    OPERATION: (("orchestration", "software_deployments:show"),
                ("orchestration", "software_configs:show")),
    SCHEDULE: (("workflow", "cron_triggers:list"),),
}

# Where the subject is shown, and its subscriptions listed: a schedule, listed among many on
# the Schedules panel, has a page of notices of its own (one Zaqar listing per schedule would
# make the panel cost as many calls as the project has schedules).
_PAGES = {COMPONENT: 'horizon:project:components:detail',
          OPERATION: 'horizon:project:deployments:operation',
          SCHEDULE: 'horizon:project:deployments:notices'}
# Where a page goes when its subject could not be read.
_LISTS = {COMPONENT: 'horizon:project:components:index',
          OPERATION: 'horizon:project:deployments:index',
          SCHEDULE: 'horizon:project:schedules:index'}

NOTICES_URL = 'horizon:project:deployments:notices'
SUBSCRIBE_URL = 'horizon:project:deployments:notice_subscribe'
REMOVE_URL = 'horizon:project:deployments:notice_remove'

ABOUT = {
    COMPONENT: _("Be told of the outcome of every operation of this component's actions."),
    SCHEDULE: _("Be told of the outcome of every firing of this schedule."),
    OPERATION: _("Be told of the outcome of this operation when it ends."),
}
WHEN_SHOWN = {notices.ON_FAILURE: _("On failure"), notices.ALWAYS: _("Always")}


def offered(request, kind):
    """Whether notices of this kind of subject are offered to the user: Zaqar is in the
    catalog, and the user may see the subject."""
    return (kind in KINDS and base.is_service_enabled(request, SERVICE_TYPE)
            and policy.check(RULES[kind], request))


def page_url(kind, subject_id):
    """The page that lists the subject's subscriptions: its own, or a schedule's notices."""
    if kind == SCHEDULE:
        return notices_url(kind, subject_id)
    return reverse(_PAGES[kind], args=[subject_id])


def notices_url(kind, subject_id):
    return reverse(NOTICES_URL, kwargs={'kind': kind, 'subject_id': subject_id})


def subscribe_url(kind, subject_id):
    return reverse(SUBSCRIBE_URL, kwargs={'kind': kind, 'subject_id': subject_id})


def remove_url(kind, subject_id, subscription_id):
    """The URL that removes the subscription; None for an id no URL can carry."""
    if not _SUBSCRIPTION_ID.fullmatch(subscription_id or ''):
        return None
    return reverse(REMOVE_URL, kwargs={'kind': kind, 'subject_id': subject_id,
                                       'subscription_id': subscription_id})


def _well_formed(kind, subject_id):
    if kind == SCHEDULE:
        return _SCHEDULE_ID.fullmatch(subject_id) is not None
    return kind in KINDS and ids.is_heat_id(subject_id)


def require(request, kind, subject_id):
    """Refuse, before Zaqar is asked, what the user may not subscribe to: Http404 without
    Zaqar in the catalog and for a subject that is not the working project's, NotAuthorized
    without the rules of the subject's page."""
    if not (_well_formed(kind, subject_id) and base.is_service_enabled(request, SERVICE_TYPE)):
        raise http.Http404()
    if not policy.check(RULES[kind], request):
        raise exceptions.NotAuthorized(_("You are not allowed to open this page."))
    _CHECKS[kind](request, subject_id)


def _component(request, component_id):
    try:
        directory.component_as_shown(request, component_id)
    except http.Http404:
        raise
    except Exception:
        errors.heat_failed(request, _("retrieve software components"),
                           redirect=reverse(_LISTS[COMPONENT]))


def _operation(request, operation_id):
    # As the operation's page finds it (a 404 for another project's).
    operations.find(request, operation_id, follower=False,
                    redirect=reverse(_LISTS[OPERATION]))


def _schedule(request, name):
    if not api.mistral.is_available(request):
        raise http.Http404()
    try:
        record = api.mistral.schedule_record_get(request, name)
    except LookupError as error:
        raise http.Http404() from error
    except Exception:
        errors.heat_failed(request, _("retrieve the schedule"), service=errors.MISTRAL,
                           redirect=reverse(_LISTS[SCHEDULE]))
    if not schedule_kinds.kind_of(record).runs_on_servers:
        # It starts no operation to be told of.
        raise http.Http404()


_CHECKS = {COMPONENT: _component, SCHEDULE: _schedule, OPERATION: _operation}


def subscriptions_context(request, kind, subject_id, title=None):
    """What notices/_subscriptions.html shows of the subject (checked by its page): its
    subscriptions, each with the URL that removes it, and the URL of Notify Me. Empty when
    notices are not offered; when Zaqar fails, a line that says so, and no alarm: the
    page's own content is shown."""
    if not offered(request, kind):
        return {}
    shown = {'offered': True, 'title': title, 'about': ABOUT[kind], 'subscriptions': [],
             'error': None, 'subscribe_url': subscribe_url(kind, subject_id)}
    try:
        found = api.zaqar.notice_subscriptions(request, subject_id)
    except Exception:
        LOG.warning('Could not read the notice subscriptions of %s %s', kind, subject_id,
                    exc_info=True)
        shown['error'] = _("Subscriptions could not be read: %(service)s could not be "
                           "reached or answered with an error.") % {'service': ZAQAR[0]}
        return shown
    shown['subscriptions'] = [
        {'id': each.id, 'when': WHEN_SHOWN.get(each.when, each.when),
         'subscriber': each.subscriber,
         'remove_url': remove_url(kind, subject_id, each.id)} for each in found]
    return shown
