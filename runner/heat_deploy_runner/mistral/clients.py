"""The clients an action calls Heat, Swift and Zaqar with, as the user who started its workflow.

An execution started through Mistral's API carries the user's token and the token's catalog:
the action uses them as they are, with no call to Keystone (they last as long as the token).
A cron trigger's firing carries a Keystone trust instead (from the user to Mistral's service
user): the action authenticates as that service user through the trust, with Mistral's own
[keystone_authtoken] settings, so a run longer than a token's life renews its token.
"""

import dataclasses
import functools

from heatclient import client as heat_client
from keystoneauth1 import access
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1.identity import access as access_plugin
from keystoneauth1 import loading
from keystoneauth1 import session as ks_session
from swiftclient import client as swift_client
from zaqarclient.queues.v2 import client as zaqar_client

from heat_deploy_runner import transports

TIMEOUT_SECONDS = 30


@dataclasses.dataclass
class Clients:
    heat: object
    find_transport: object
    swift: object = None  # without object-store in the catalog


def session_for(security) -> ks_session.Session:
    """A keystoneauth session for the action's security context (mistral_lib SecurityContext)."""
    if security.trust_id:
        return _trust_session(security.trust_id)
    # Mistral passes the token's body (keystonemiddleware's token info) as the catalog.
    auth_ref = access.create(body={'token': security.service_catalog},
                             auth_token=security.auth_token)
    return ks_session.Session(auth=access_plugin.AccessInfoPlugin(auth_ref),
                              timeout=TIMEOUT_SECONDS)


def _trust_session(trust_id, conf=None):
    """A session of Mistral's service user scoped to the trust: ``conf`` is Mistral's own
    configuration (oslo.config's global one, inside Mistral's processes)."""
    # The first import registers the [keystone_authtoken] options Mistral's clients read.
    import keystonemiddleware.auth_token  # noqa: F401
    from oslo_config import cfg

    # A trust carries its own project: the service user's own scope must go.
    auth = loading.load_auth_from_conf_options(
        conf or cfg.CONF, 'keystone_authtoken', trust_id=trust_id, project_id=None,
        project_name=None, project_domain_id=None, project_domain_name=None,
        domain_id=None, domain_name=None)
    return ks_session.Session(auth=auth, timeout=TIMEOUT_SECONDS)


def clients_for(security) -> Clients:
    session = session_for(security)
    heat = heat_client.Client('1', session=session, service_type='orchestration',
                              interface='public')
    extra = {}
    if _endpoint(session, 'object-store'):
        extra['swift'] = swift_client.Connection(session=session, retries=1,
                                                 timeout=TIMEOUT_SECONDS)
    messaging = _endpoint(session, 'messaging')
    if messaging:
        extra['zaqar'] = zaqar_client.Client(messaging, version=2, conf={'auth_opts': {
            'backend': 'keystone', 'options': {
                'os_auth_token': session.get_token(),
                'os_project_id': session.get_project_id()}}})
    return Clients(heat, functools.partial(transports.transport_for, **extra),
                   extra.get('swift'))


def _endpoint(session, service_type):
    """The service's public URL, or None when the catalog has no such service."""
    try:
        return session.get_endpoint(service_type=service_type, interface='public')
    except ks_exc.EndpointNotFound:
        return None
