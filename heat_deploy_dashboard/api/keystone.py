"""What the plugin asks Keystone itself; Horizon's own api.keystone does the rest."""

from django.conf import settings

from heat_deploy_dashboard.api import pool


def answers():
    """Whether Keystone answers at all (pool.answers)."""
    return pool.answers(settings.OPENSTACK_KEYSTONE_URL)
