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

"""Zaqar (messaging): the client for the signal queues of deployments, and the subscriptions
of notices."""

from django.conf import settings
from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler
from zaqarclient.queues.v2 import client as zaqar_v2

from heat_deploy_dashboard.api import pool
from heat_deploy_runner.following import notices


class _PooledClient(zaqar_v2.Client):
    """zaqarclient's Client over the worker's pooled connections (see pool): left to itself
    it opens a connection for every call."""

    def _get_transport(self, request):
        transport = super()._get_transport(request)
        transport.client.session = pool.session()
        return transport


@memoized
def zaqar_client(request):
    # Configured as zaqar-ui does. No CA bundle option: zaqarclient 4.7
    # passes a "cacert" on as a client certificate, so a private CA must
    # come from the environment (REQUESTS_CA_BUNDLE).
    options = {'os_auth_token': request.user.token.id,
               'os_auth_url': base.url_for(request, 'identity'),
               'os_project_id': request.user.tenant_id,
               'insecure': settings.OPENSTACK_SSL_NO_VERIFY}
    return _PooledClient(
        url=base.url_for(request, 'messaging'), version=2,
        conf={'auth_opts': {'backend': 'keystone', 'options': options}})


# Notices (runner.following.notices): who is told of an operation's outcome, as Zaqar's own
# subscriptions on the project's queues named after the subject (a component's config id, a
# schedule's name or an operation id).


@profiler.trace
def notice_subscriptions(request, subject_id):
    """The subject's subscriptions (runner.following.notices.Subscription), on failure first."""
    return notices.subscriptions(zaqar_client(request), subject_id)


@profiler.trace
def notice_subscribe(request, subject_id, when, subscriber):
    """Subscribe ``subscriber`` to the subject's notices, on failure or always; the new
    runner.following.notices.Subscription. Raises runner.InputError, before anything is made, for a
    bad condition or subscriber, or one already told of the same."""
    return notices.subscribe(zaqar_client(request), subject_id, when, subscriber)


@profiler.trace
def notice_unsubscribe(request, subject_id, subscription_id):
    """Remove the subject's subscription of this id; False when it has none such."""
    return notices.unsubscribe(zaqar_client(request), subject_id, subscription_id)
