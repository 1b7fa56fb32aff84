"""What the plugin asks Keystone itself; Horizon's own api.keystone does the rest."""

from django.conf import settings
import requests

from heat_deploy_dashboard.api import pool

# Asked only while a page is failing: its answer must not add much to the wait.
ANSWERS_TIMEOUT = 3


def answers():
    """Whether Keystone answers at all (any reply but a server error), over the worker's pool."""
    verify = (False if settings.OPENSTACK_SSL_NO_VERIFY
              else settings.OPENSTACK_SSL_CACERT or True)
    try:
        reply = pool.session().get(settings.OPENSTACK_KEYSTONE_URL, timeout=ANSWERS_TIMEOUT,
                                   verify=verify)
    except requests.RequestException:
        return False
    return reply.status_code < 500
