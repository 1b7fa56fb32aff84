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

"""The Keystone trust an operation started through Mistral's API is followed through, so
that its follower outlives the token it was started with.

Mistral gives an execution made through its API the starter's token and never renews it
(Mistral bug 1595084): a follower would stop when that token ends (an hour after a Horizon
login at most). A cron trigger's firing has a trust instead. So the first action of the
follow and rolling workflows, while the starter's token is still good, makes the trust
Mistral makes for a trigger (mistral/services/security.py): from the starter to Mistral's
service user, impersonating the starter, for the project and the starter's roles. Every
later action authenticates through it as Mistral's service user (clients._trust_session),
and the workflow's last step deletes it. It expires on its own at the operation's latest
possible end, should that step never run. The trust's id is no secret: only Mistral's
service user, with its own password, can use it.

A starter who is disabled, loses a role the trust delegates, or is deleted takes the trust's
power with them (Keystone checks the trustor at every trust-scoped token): the operation
then stops with a sentence saying which (why_unusable). What Keystone 30 answers Mistral's
service user, tried on the local cloud: a token through the trust of a trustor disabled or
without one of its roles, 403 with Keystone's generic "You are not authorized..." for both
(the reason is only in its log), while the trust itself still reads (GET as the trustee); a
trust deleted, expired or whose trustor was deleted, 401 for the token and 404 for the
trust. So a 403 is told apart by reading the trustor and their roles in the project, which
needs the admin role Mistral's DevStack plugin gives its service user; without it, the
sentence names both. A password change refuses nothing for good (clients.TrustSession).
"""

from datetime import timedelta
from datetime import timezone

from keystoneauth1 import exceptions as ks_exc

from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import Message

# Identity v3 wherever the catalog's identity endpoint points (versioned or not).
_IDENTITY = {'service_type': 'identity', 'interface': 'public', 'version': (3, 0)}
# Past the operation's latest end: Mistral's own delays, and an executor's outage up to its
# heartbeat window, with room to spare.
GRACE = timedelta(hours=1)

# Why an operation stopped acting for its starter: each starts as the workflows' ``stopped``
# says a sentence of the action's own does (workflows/follow_v3.yaml).
GONE = gettext_noop('Stopped: the trust Mistral acted through for the user who started this '
                    'was deleted or has expired (deleting the user deletes it). Runs already '
                    'started go on; their pages show how they end.')
DISABLED = gettext_noop('Stopped: the user who started this was disabled, so Mistral can no '
                        'longer act for them. Runs already started go on; their pages show '
                        'how they end.')
ROLE_LOST = gettext_noop('Stopped: the user who started this no longer has the role '
                         '%(roles)s in this project, so Mistral can no longer act for them. '
                         'Runs already started go on; their pages show how they end.')
ROLES_LOST = gettext_noop('Stopped: the user who started this no longer has the roles '
                          '%(roles)s in this project, so Mistral can no longer act for them. '
                          'Runs already started go on; their pages show how they end.')
DISABLED_OR_ROLES_LOST = gettext_noop(
    'Stopped: the user who started this was disabled, or no longer has every role of '
    '%(roles)s in this project, so Mistral can no longer act for them. Runs already started '
    'go on; their pages show how they end.')


def expires_at(now, until=None, timeout_minutes=0, rounds=1, retry_delay=0):
    """When the trust of an operation stops working: ``until`` (its last run's deadline), or
    ``rounds`` runs of ``timeout_minutes`` one after another with ``retry_delay`` seconds
    between them (a rolling run: its batches times its tries), and GRACE after that."""
    end = until or now + rounds * (timedelta(minutes=timeout_minutes)
                                   + timedelta(seconds=retry_delay))
    return end + GRACE


def make(session, trustee_id, expires) -> str:
    """The id of a new trust from the user of ``session`` (a token's) to ``trustee_id``."""
    access = session.auth.get_access(session)
    made = session.post('/OS-TRUST/trusts', endpoint_filter=_IDENTITY, json={'trust': {
        'trustor_user_id': access.user_id, 'trustee_user_id': trustee_id,
        'project_id': access.project_id, 'impersonation': True,
        'roles': [{'name': name} for name in access.role_names],
        'expires_at': expires.astimezone(timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%fZ')}})
    return made.json()['trust']['id']


def delete(session, trust_id):
    """Delete the trust; one already gone is fine."""
    try:
        session.delete(f'/OS-TRUST/trusts/{trust_id}', endpoint_filter=_IDENTITY)
    except ks_exc.NotFound:
        pass


def why_unusable(service, through_trust, trust_id):
    """Why Keystone no longer lets Mistral's service user act through the trust, a Message;
    None where it does (what failed was something else). ``service`` is a session of the
    service user in its own project, ``through_trust`` a new one through the trust."""
    try:
        through_trust.get_auth_headers()
    except ks_exc.Unauthorized:
        return Message(GONE) if _trust(service, trust_id) is None else None
    except ks_exc.Forbidden:
        found = _trust(service, trust_id)
        return None if found is None else _trustor_refused(service, found)
    return None


def _trust(service, trust_id):
    """The trust as its trustee reads it; None once Keystone has none of that id."""
    try:
        found = service.get(f'/OS-TRUST/trusts/{trust_id}', endpoint_filter=_IDENTITY)
    except ks_exc.NotFound:
        return None
    return found.json()['trust']


def _trustor_refused(service, trust):
    """Which of the trustor's changes makes Keystone refuse a token through the trust."""
    delegated = sorted(role['name'] for role in trust['roles'])
    try:
        trustor = service.get(f'/users/{trust["trustor_user_id"]}',
                              endpoint_filter=_IDENTITY).json()['user']
        if not trustor['enabled']:
            return Message(DISABLED)
        held = {each['role']['name'] for each in service.get('/role_assignments', params={
            'user.id': trust['trustor_user_id'], 'scope.project.id': trust['project_id'],
            'effective': True, 'include_names': True},
            endpoint_filter=_IDENTITY).json()['role_assignments']}
    except ks_exc.Forbidden:
        # A service user without Keystone's admin role reads neither.
        return Message(DISABLED_OR_ROLES_LOST, {'roles': ', '.join(delegated)})
    lost = [name for name in delegated if name not in held]
    if not lost:
        return None
    return Message(ROLE_LOST if len(lost) == 1 else ROLES_LOST, {'roles': ', '.join(lost)})
