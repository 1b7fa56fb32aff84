"""Zaqar (messaging) client for the signal queues of deployments."""

from django.conf import settings
from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from zaqarclient.queues.v2 import client as zaqar_v2

from heat_deploy_dashboard.api import pool


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
