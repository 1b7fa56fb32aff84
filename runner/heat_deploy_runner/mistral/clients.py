"""The clients an action calls Heat, Swift and Zaqar with, as the user who started its workflow.

An execution started through Mistral's API carries the user's token and the token's catalog:
the action uses them as they are, with no call to Keystone (they last as long as the token).
A cron trigger's firing carries a Keystone trust instead (from the user to Mistral's service
user): the action authenticates as that service user through the trust, with Mistral's own
[keystone_authtoken] settings, so a run longer than a token's life renews its token.
"""

from keystoneauth1 import access
from keystoneauth1.identity import access as access_plugin
from keystoneauth1 import loading
from keystoneauth1 import session as ks_session

from heat_deploy_runner import session_clients


def session_for(security) -> ks_session.Session:
    """A keystoneauth session for the action's security context (mistral_lib SecurityContext)."""
    if security.trust_id:
        return _trust_session(security.trust_id)
    # Mistral passes the token's body (keystonemiddleware's token info) as the catalog.
    auth_ref = access.create(body={'token': security.service_catalog},
                             auth_token=security.auth_token)
    return ks_session.Session(auth=access_plugin.AccessInfoPlugin(auth_ref),
                              timeout=session_clients.TIMEOUT_SECONDS)


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
    return ks_session.Session(auth=auth, timeout=session_clients.TIMEOUT_SECONDS)


def clients_for(security) -> session_clients.Clients:
    return session_clients.on_session(session_for(security))
