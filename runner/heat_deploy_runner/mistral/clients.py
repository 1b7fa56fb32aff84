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

"""The clients an action calls Heat, Swift and Zaqar with, as the user who started its workflow.

An execution started through Mistral's API carries the user's token and the token's catalog:
an action given no trust uses them as they are, with no call to Keystone (they last as long
as the token). A cron trigger's firing carries a Keystone trust instead (from the user to
Mistral's service user), and an operation started through the API makes one as its first
step (trusts): the action authenticates as that service user through the trust, with
Mistral's own [keystone_authtoken] settings, so an operation longer than a token's life
renews its token.

A call through a trust answered 401 is made again with a new token asked for a little later
(TrustSession), not at once as keystoneauth does: Keystone refuses a trust-scoped token issued
in the same second as its trustor's password change (its revocation events compare whole
seconds), though the trust still works a second later. Whether a trust can still be used at
all, Keystone says when asked (trusts.why_unusable).
"""

import functools
import logging
import time

from keystoneauth1 import access
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1.identity import access as access_plugin
from keystoneauth1 import loading
from keystoneauth1 import session as ks_session

from mistral_lib import actions

from heat_deploy_runner.mistral import trusts
from heat_deploy_runner import session_clients

LOG = logging.getLogger(__name__)

# The pauses before each new token after a 401 through a trust: its first try is in a later
# second than the refusal, whatever Keystone's revocation event it met; the others ride out a
# Keystone slow to answer. A trust Keystone truly refuses stops the operation 14 s later, well
# within a wait call (actions.WAIT_SECONDS) and Mistral's heartbeats (sent while it pauses).
REAUTH_PAUSES = (2, 4, 8)


class TrustSession(ks_session.Session):
    """A session of Mistral's service user through a trust: an authenticated request answered
    401 is made again after each of REAUTH_PAUSES, with a new token each time; a client that
    asks for a token again itself after a 401 (swiftclient invalidates the session, then asks
    once more) gets it only after the pause too. A 401 means the service refused the token
    before doing anything, so the same request can be made again."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._refusals = 0
        self._next_token_at = 0.0

    def invalidate(self, auth=None):
        self._next_token_at = time.monotonic() + REAUTH_PAUSES[
            min(self._refusals, len(REAUTH_PAUSES) - 1)]
        self._refusals += 1
        return super().invalidate(auth)

    def get_auth_headers(self, auth=None):
        time.sleep(max(0.0, self._next_token_at - time.monotonic()))
        return super().get_auth_headers(auth)

    def request(self, url, method, **kwargs):
        if kwargs.get('authenticated') is False or not kwargs.get('allow_reauth', True):
            return super().request(url, method, **kwargs)
        raise_exc = kwargs.pop('raise_exc', True)
        kwargs['allow_reauth'] = False
        response = super().request(url, method, raise_exc=False, **kwargs)
        for _pause in REAUTH_PAUSES:
            if response.status_code != 401:
                break
            self.invalidate()
            response = super().request(url, method, raise_exc=False, **kwargs)
        self._refusals = 0
        if raise_exc and response.status_code >= 400:
            raise ks_exc.from_response(response, method, url)
        return response


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


def _service_session(conf=None, session_class=ks_session.Session, **scope):
    """A session of Mistral's service user: ``conf`` is Mistral's own configuration
    (oslo.config's global one, inside Mistral's processes)."""
    # The first import registers the [keystone_authtoken] options Mistral's clients read.
    import keystonemiddleware.auth_token  # noqa: F401
    from oslo_config import cfg

    auth = loading.load_auth_from_conf_options(conf or cfg.CONF, 'keystone_authtoken', **scope)
    return session_class(auth=auth, timeout=session_clients.TIMEOUT_SECONDS)


def _trust_session(trust_id, conf=None):
    """A session of Mistral's service user scoped to the trust."""
    # A trust carries its own project: the service user's own scope must go.
    return _service_session(conf, TrustSession, trust_id=trust_id, project_id=None,
                            project_name=None, project_domain_id=None,
                            project_domain_name=None, domain_id=None, domain_name=None)


def service_user_id(conf=None) -> str:
    """The id of Mistral's service user, whom an operation's trust is made to."""
    return _service_session(conf).get_user_id()


def clients_for(security, trust_id=None) -> session_clients.Clients:
    return session_clients.on_session(session_for(security, trust_id))


def stops_where_trust_refused(run):
    """An action's run that, having failed through a trust (the action's ``trust_id``, or
    its firing's), ends with the sentence saying why when Keystone no longer lets Mistral act
    through it: the action's error, which the workflows (follow_v3, rolling_v5) stop with.
    Any other failure is raised as it was."""
    @functools.wraps(run)
    def acting(action, context):
        try:
            return run(action, context)
        except Exception:
            trust_id = getattr(action, 'trust_id', None) or context.security.trust_id
            why = _why_refused(trust_id) if trust_id else None
            if why is None:
                raise
            LOG.warning('Operation %s stops: %s', context.execution.workflow_execution_id,
                        why, exc_info=True)
            return actions.Result(error=str(why))
    return acting


def _why_refused(trust_id, conf=None):
    try:
        return trusts.why_unusable(_service_session(conf), _trust_session(trust_id, conf),
                                   trust_id)
    except Exception:
        # Keystone did not say: the failure is told as it was.
        LOG.warning('Could not ask Keystone about trust %s', trust_id, exc_info=True)
        return None
