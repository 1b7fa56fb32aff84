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

A starter who loses their role or is deleted takes the trust's power with them (Keystone
checks the trustor's roles at every trust-scoped token): the operation then stops with the
workflow's sentence for it.
"""

from datetime import timedelta
from datetime import timezone

from keystoneauth1 import exceptions as ks_exc

# Identity v3 wherever the catalog's identity endpoint points (versioned or not).
_IDENTITY = {'service_type': 'identity', 'interface': 'public', 'version': (3, 0)}
# Past the operation's latest end: Mistral's own delays, and an executor's outage up to its
# heartbeat window, with room to spare.
GRACE = timedelta(hours=1)


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
