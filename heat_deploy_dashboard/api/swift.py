"""Swift (object-store) connection for the signal TempURLs of deployments."""

from django.conf import settings
from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from swiftclient import client as swift_client


@memoized
def swift_connection(request):
    return swift_client.Connection(
        preauthurl=base.url_for(request, 'object-store'),
        preauthtoken=request.user.token.id,
        insecure=settings.OPENSTACK_SSL_NO_VERIFY,
        cacert=settings.OPENSTACK_SSL_CACERT,
        timeout=getattr(settings, 'HEAT_DEPLOY_API_TIMEOUT', 30),
        # swiftclient's default (5 retries, backoff doubling from 1 s) is
        # made for batch jobs; here a user is waiting on the page.
        retries=1,
    )
