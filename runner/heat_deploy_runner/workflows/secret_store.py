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

keep and forget_kept are the one way to keep them, on the project's swiftclient Connection
(None where it has no Object Storage: the workflow service would hold them in the clear, so
they are refused).
"""

import json
import logging
import uuid

from swiftclient import exceptions as swift_exc

from heat_deploy_runner import masking
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message

LOG = logging.getLogger(__name__)

CONTAINER = 'heat-deploy-secrets'

# What the form and the command line say to secret inputs the workflow service would hold
# in the clear: a run in batches, with tries or on a schedule, without Object Storage.
NEEDS_OBJECT_STORAGE = gettext_noop(
    'A secret input of a run in batches, with tries or on a schedule is kept in Object '
    'Storage, which is not in your service catalog (the workflow service would keep it in '
    'the clear). Run it now without batches or tries, or leave %(names)s empty.')


class NotKept(Exception):
    """Object Storage did not keep the secret inputs: nothing was started, scheduled or
    changed."""


def keep(swift, owner, input_values, lifetime_seconds=None):
    """(the input values Mistral may hold, the reference of the secret ones kept in Object
    Storage for ``lifetime_seconds`` (None: until forgotten), or None when there are none).
    ``owner`` names what they belong to (a schedule, a run in batches) in the object's name,
    for an operator who looks; each keeping gets an object of its own (a schedule changed
    keeps its old secrets until its new trigger stands). InputError, with nothing kept, where
    the project has no Object Storage (``swift`` None); NotKept when Object Storage does not
    keep them."""
    plain, secret = split(input_values)
    if not secret:
        return plain, None
    if swift is None:
        raise InputError(needs_object_storage(secret))
    ref = f'{owner}/{uuid.uuid4()}'
    try:
        put(swift, ref, secret, lifetime_seconds)
    except Exception as error:
        raise NotKept() from error
    return plain, ref


def forget_kept(swift, ref):
    """Remove kept secrets that nothing will read any more; a failure is logged (the object
    is the project's own, and what failed is said already), not raised."""
    if not ref:
        return
    try:
        forget(swift, ref)
    except Exception:
        LOG.warning('Could not remove the secret inputs kept in %s/%s', CONTAINER, ref,
                    exc_info=True)


def needs_object_storage(secret_names):
    """The sentence refusing the secret inputs of these names where the project has no Object
    Storage (NEEDS_OBJECT_STORAGE)."""
    return Message(NEEDS_OBJECT_STORAGE, {'names': ', '.join(sorted(secret_names))})


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
