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

"""How the panels say that Heat (or Mistral, for rolling runs and schedules, or Swift, where
their secret inputs are kept) could not do what a page or form asked: one sentence shape,
built here and nowhere else."""

import sys

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from heatclient import exc as heat_exc
from horizon import exceptions
from horizon.utils import memoized
from openstack_dashboard.api import base

from heat_deploy_dashboard import api
from heat_deploy_runner.workflows import secret_store

# (the service as the sentence names it, the service's own name)
HEAT = (gettext_lazy('the orchestration service'), 'Heat')
KEYSTONE = (gettext_lazy('the identity service (Keystone)'), 'Keystone')
MISTRAL = (gettext_lazy('the workflow service'), 'Mistral')
SWIFT = (gettext_lazy('Object Storage'), 'Swift')
ZAQAR = (gettext_lazy('the messaging service'), 'Zaqar')


@memoized.memoized
def failing_service(request):
    """The service to name for a Heat call that failed without a refusal of Heat's own:
    Keystone, with which Heat checks the user's token, or Object Storage, from which Heat's
    show of a running run reads its signal, when it does not answer; else Heat. Asked while
    failing only, once per request."""
    if not api.keystone.answers():
        return KEYSTONE
    if base.is_service_enabled(request, 'object-store') and not api.swift.answers(request):
        return SWIFT
    return HEAT


def _blamed(request, service):
    if service is not None:
        return service
    error = sys.exc_info()[1]
    if isinstance(error, heat_exc.HTTPException) and getattr(error, 'code', 500) < 500:
        return HEAT
    return failing_service(request)


def poll_failed(request):
    """The status poll's line on the page, short: the page already says what it shows."""
    return capfirst(_("%(service)s could not be reached.")
                    % {'service': _blamed(request, None)[0]})


def live_output_failed(transport):
    """A running run's page, where its live output could not be read from where the run's
    transport (its name) keeps it: the page tries again, and the result comes as ever."""
    service = ZAQAR if transport == 'ZAQAR_SIGNED_URL_SIGNAL' else SWIFT
    return _("The lines sent so far could not be read: %(service)s could not be reached or "
             "answered with an error. The page tries again; the whole output shows when the "
             "run ends.") % {'service': service[0]}


def service_of(error):
    """The service a schedule's change failed at: Swift, where its secret inputs are kept
    (runner.workflows.secret_store.NotKept), or Mistral."""
    return SWIFT if isinstance(error, secret_store.NotKept) else MISTRAL


def heat_failed_message(doing, outcome=None, service=HEAT):
    """What could not be done (``doing``, e.g. "retrieve software configs"), that the service
    (Heat unless told) is why, what did not happen (``outcome``, e.g. "Nothing was
    started."), and what to do."""
    described, name = service
    sentences = [_("Unable to %(doing)s: %(service)s could not be reached or answered with "
                   "an error.") % {'doing': doing, 'service': described}]
    if outcome:
        sentences.append(outcome)
    sentences.append(_("Try again later, or ask your cloud administrator to check "
                       "%(name)s.") % {'name': name})
    return ' '.join(str(sentence) for sentence in sentences)


def _already_said(request, message):
    # A page that fails sends the user to its list, which fails the same way: one message is
    # enough. The storage's own lists, as iterating it would mark the messages shown.
    storage = getattr(request, '_messages', None)
    said = (list(getattr(storage, '_loaded_messages', []))
            + list(getattr(storage, '_queued_messages', [])))
    return any(str(each.message) == message for each in said)


def heat_failed(request, doing, outcome=None, redirect=None, service=None):
    """Report the exception being handled as heat_failed_message, through Horizon (which logs
    it, and redirects when asked). ``service``: the one that failed, when known; by default
    Heat, or the service Heat could not reach (failing_service). details='' keeps the
    client's raw error text (URLs, tracebacks from Heat) out of the page."""
    message = heat_failed_message(doing, outcome, _blamed(request, service))
    exceptions.handle(request, message, details='', redirect=redirect,
                      ignore=_already_said(request, message))


def list_failed(view, doing, no_data_message, service=None):
    """heat_failed for a list page, and an empty table that does not claim there is nothing
    to show."""
    heat_failed(view.request, doing, service=service)
    view.table.empty_reason = no_data_message
    return []
