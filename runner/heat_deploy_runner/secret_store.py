"""Secret inputs of the runs Mistral starts (in batches, or by a schedule), kept out of
Mistral, which holds workflow inputs, cron triggers and environments in the clear (its
database, its API, its logs).

Inputs whose name says they are secrets (masking.is_secret_name) go to a private object of
the project's own Swift account: container CONTAINER, no ACL, so only the project's
credentials (a user's token, or the trust a schedule's firing acts through) read it. The
workflow carries only the object's name; its trigger action reads the values back just
before it makes a batch's runs. A run in batches' object expires by itself (X-Delete-After)
once the operation cannot be running any more; a schedule's lives as long as the schedule.
Heat keeps the values in the runs' derived configs, as for any run (the panels mask them).
"""

import json

from swiftclient import exceptions as swift_exc

from heat_deploy_runner import masking

CONTAINER = 'heat-deploy-secrets'


def split(input_values):
    """(the values Mistral may hold, the secret ones), by the inputs' names; an empty value
    keeps nothing secret."""
    plain, secret = {}, {}
    for name, value in (input_values or {}).items():
        kept = masking.is_secret_name(name) and value not in (None, '')
        (secret if kept else plain)[name] = value
    return plain, secret


def run_lifetime_seconds(server_count, batch_size, timeout_minutes):
    """How long a run in batches may need its secrets: each batch until its runs' timeout,
    and an hour to spare (Mistral's own delays)."""
    batches = -(-server_count // batch_size) if batch_size else 1
    return batches * timeout_minutes * 60 + 3600


def put(swift, name, values, delete_after_seconds=None):
    """Keep the values under ``name``: replaces what was kept there."""
    swift.put_container(CONTAINER)
    headers = {}
    if delete_after_seconds:
        headers['X-Delete-After'] = str(int(delete_after_seconds))
    swift.put_object(CONTAINER, name, json.dumps(values), content_type='application/json',
                     headers=headers)


def get(swift, name):
    """The values kept under ``name``."""
    _headers, body = swift.get_object(CONTAINER, name)
    return json.loads(body)


def forget(swift, name):
    """Remove what was kept under ``name``; nothing kept is fine."""
    try:
        swift.delete_object(CONTAINER, name)
    except swift_exc.ClientException as error:
        if error.http_status != 404:
            raise
