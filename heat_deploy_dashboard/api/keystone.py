"""What the plugin asks Keystone itself; Horizon's own api.keystone does the rest."""

from django.conf import settings
import requests

from heat_deploy_dashboard.api import pool


def answers():
    """Whether Keystone answers at all (any reply but a server error), over the worker's pool."""
    try:
        reply = pool.session().get(settings.OPENSTACK_KEYSTONE_URL,
                                   timeout=pool.ANSWERS_TIMEOUT, verify=pool.verify())
    except requests.RequestException:
        return False
    return reply.status_code < 500
