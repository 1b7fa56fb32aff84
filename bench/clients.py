"""The demo user's clients on the bench cloud, built like the dashboard builds its own.

The "raw" baseline must pay what the dashboard pays per call and no more: a heatclient with a
token and the orchestration endpoint (heat_deploy_dashboard.api.heat.heatclient), not one that
re-authenticates through a keystoneauth plugin.
"""

from heatclient import client as heat_client
from swiftclient import client as swift_client

from devcloud.services import identity


def user_session(layout):
    return identity.user_session(layout)


def raw_heat(session):
    return heat_client.Client(
        '1', endpoint=session.get_endpoint(service_type='orchestration', interface='public'),
        token=session.get_token(), timeout=300)


def swift(session):
    return swift_client.Connection(session=session, retries=1, timeout=60)
