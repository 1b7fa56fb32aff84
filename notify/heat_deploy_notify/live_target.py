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

"""Where a run's live output goes, read from the inputs of its derived config.

- ``deploy_live_url``: a Swift prefix TempURL for PUT of the run's live container, as
  swiftclient's ``generate_temp_url(..., prefix=True)`` makes it
  (``<storage URL>/<container>/<prefix>?temp_url_sig=...&temp_url_expires=...
  &temp_url_prefix=<prefix>``): send ``n`` is the object ``<prefix><n>``, n zero-padded to
  six digits from 000001, PUT at that URL with the object's name completed after its path
  and the same query.
- ``deploy_live_zaqar_queue``, ``_paths``, ``_methods``, ``_expires``, ``_signature``: a URL
  of the run's live queue pre-signed for POST of messages, with the endpoint and project of
  the run's signal (``deploy_zaqar_endpoint``, ``deploy_zaqar_project_id``): send ``n`` is
  one message whose body is the send's body.
- ``deploy_live_secrets``: a JSON list of the names of inputs whose values are masked in
  everything sent (live_output).

Neither is ever the signal target: Heat takes the first object of a TempURL signal's
container, and the runner the first message of a signal queue, as the result.
"""

import json
import logging
from urllib import parse
import uuid

import requests

LOG = logging.getLogger('heat-config.live')

URL = 'deploy_live_url'
QUEUE = 'deploy_live_zaqar_queue'
PATHS = 'deploy_live_zaqar_paths'
METHODS = 'deploy_live_zaqar_methods'
EXPIRES = 'deploy_live_zaqar_expires'
SIGNATURE = 'deploy_live_zaqar_signature'
SECRETS = 'deploy_live_secrets'
ENDPOINT = 'deploy_zaqar_endpoint'
PROJECT = 'deploy_zaqar_project_id'

# As heat-deploy-notify keeps a result: the runner deletes the queue with its run.
MESSAGE_TTL = 14 * 24 * 3600


class Refused(Exception):
    """The target answered that this run may not send there (any 4xx but 408 and 429):
    trying again cannot help."""


def object_name(seq):
    return f'{seq:06d}'


class SwiftObjects:
    """One object per send, through a prefix TempURL."""

    def __init__(self, url, session):
        self._url = parse.urlsplit(url)
        self._session = session

    def send(self, seq, body, timeout):
        url = self._url._replace(path=self._url.path + object_name(seq)).geturl()
        _answered(self._session.put(url, data=body, timeout=timeout,
                                    headers={'Content-Type': 'application/json'}))


class ZaqarMessages:
    """One message per send, through a pre-signed URL of the live queue."""

    def __init__(self, values, session):
        self._url = values[ENDPOINT].rstrip('/') + values[PATHS]
        self._headers = {
            'URL-Signature': values[SIGNATURE],
            'URL-Expires': values[EXPIRES],
            'URL-Methods': values[METHODS],
            'URL-Paths': values[PATHS],
            'X-Project-ID': values[PROJECT],
            'Client-ID': str(uuid.uuid5(uuid.NAMESPACE_URL, values[QUEUE])),
            'Content-Type': 'application/json; charset=utf-8',
        }
        self._session = session

    def send(self, seq, body, timeout):
        # The body is JSON already: put in the envelope as it is.
        data = b'{"messages": [{"ttl": %d, "body": %s}]}' % (MESSAGE_TTL, body)
        _answered(self._session.post(self._url, data=data, headers=self._headers,
                                     timeout=timeout))


def _answered(response):
    if 400 <= response.status_code < 500 and response.status_code not in (408, 429):
        raise Refused(f'HTTP {response.status_code}')
    response.raise_for_status()


def target(values):
    """The live target the inputs name, or None: a config without live inputs sends
    nothing. Incomplete inputs are logged and send nothing either."""
    if values.get(URL):
        return SwiftObjects(values[URL], requests.Session())
    if values.get(SIGNATURE):
        missing = [name for name in (QUEUE, PATHS, METHODS, EXPIRES, ENDPOINT, PROJECT)
                   if not isinstance(values.get(name), str)]
        if missing:
            LOG.warning('Live output not sent: no %s', ', '.join(missing))
            return None
        return ZaqarMessages(values, requests.Session())
    return None


def secret_values(values):
    """The values to mask, by deploy_live_secrets; None when it is not a JSON list of names
    (then nothing is sent: what to mask is unknown)."""
    try:
        names = json.loads(values.get(SECRETS) or '[]')
    except (TypeError, ValueError):
        names = None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        LOG.warning('Live output not sent: %s is not a JSON list of input names', SECRETS)
        return None
    return [values[name] for name in names if isinstance(values.get(name), str)]
