"""The clients an action calls Heat, Swift and Zaqar with, as the user who started its workflow.

An execution started through Mistral's API carries the user's token and the token's catalog:
an action given no trust uses them as they are, with no call to Keystone (they last as long
as the token). A cron trigger's firing carries a Keystone trust instead (from the user to
Mistral's service user), and an operation started through the API makes one as its first
step (trusts): the action authenticates as that service user through the trust, with
Mistral's own [keystone_authtoken] settings, so an operation longer than a token's life
renews its token.
"""

from keystoneauth1 import access
from keystoneauth1.identity import access as access_plugin
from keystoneauth1 import loading
from keystoneauth1 import session as ks_session

from heat_deploy_runner import session_clients


def session_for(security, trust_id=None) -> ks_session.Session:
    """A keystoneauth session for the action's security context (mistral_lib
    SecurityContext), through ``trust_id`` (the operation's own trust) when given."""
    if trust_id or security.trust_id:
        return _trust_session(trust_id or security.trust_id)
    # Mistral passes the token's body (keystonemiddleware's token info) as the catalog.
    auth_ref = access.create(body={'token': security.service_catalog},
                             auth_token=security.auth_token)
    return ks_session.Session(auth=access_plugin.AccessInfoPlugin(auth_ref),
                              timeout=session_clients.TIMEOUT_SECONDS)


def _service_session(conf=None, **scope):
    """A session of Mistral's service user: ``conf`` is Mistral's own configuration
    (oslo.config's global one, inside Mistral's processes)."""
    # The first import registers the [keystone_authtoken] options Mistral's clients read.
    import keystonemiddleware.auth_token  # noqa: F401
    from oslo_config import cfg

    auth = loading.load_auth_from_conf_options(conf or cfg.CONF, 'keystone_authtoken', **scope)
    return ks_session.Session(auth=auth, timeout=session_clients.TIMEOUT_SECONDS)


def _trust_session(trust_id, conf=None):
    """A session of Mistral's service user scoped to the trust."""
    # A trust carries its own project: the service user's own scope must go.
    return _service_session(conf, trust_id=trust_id, project_id=None, project_name=None,
                            project_domain_id=None, project_domain_name=None,
                            domain_id=None, domain_name=None)


def service_user_id(conf=None) -> str:
    """The id of Mistral's service user, whom an operation's trust is made to."""
    return _service_session(conf).get_user_id()


def clients_for(security, trust_id=None) -> session_clients.Clients:
    return session_clients.on_session(session_for(security, trust_id))
