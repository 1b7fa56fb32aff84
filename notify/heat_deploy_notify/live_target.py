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

"""Where a run's live output goes, read from the inputs of its derived config. Each send is a
snapshot (live_output) that takes the place of the one before.

- ``deploy_live_url``: a Swift PUT TempURL of one object (``live/<signal object>`` in the
  run's signal container): each send PUTs the snapshot there, over the one before. Its
  Content-Type, ``application/json; line=<the snapshot's last line, percent-encoded>``, lets
  one listing of the container tell every running run's last line; ``X-Delete-At`` (the URL's
  ``temp_url_expires``) lets the object go by itself when its URL does.
- ``deploy_live_zaqar_queue``, ``_paths``, ``_methods``, ``_expires``, ``_signature``: a URL
  of the run's live queue pre-signed for POST and DELETE of messages, with the endpoint and
  project of the run's signal (``deploy_zaqar_endpoint``, ``deploy_zaqar_project_id``): each
  send posts one message whose body is the snapshot, then deletes the message of the send
  before (a delete that fails leaves two: the reader takes the highest seq).
- ``deploy_live_secrets``: a JSON list of the names of inputs whose values are masked in
  everything sent (live_output).

Neither is ever the signal target: Heat reads the signal object, and the runner the signal
queue, as the result.
"""

import datetime
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

# Zaqar's default bounds of a message's TTL; the runner deletes the queue with its run.
MIN_TTL = 60
MAX_TTL = 14 * 24 * 3600
# How Zaqar writes a signed URL's expiry (UTC).
EXPIRES_FORMAT = '%Y-%m-%dT%H:%M:%S'


class Refused(Exception):
    """The target answered that this run may not send there (any 4xx but 408 and 429):
    trying again cannot help."""


def content_type(line):
    """The live object's Content-Type: the line percent-encoded is a token, as a media type's
    parameter value must be (heat_deploy_runner.signalling.live.line_of reads it)."""
    return 'application/json; line=' + parse.quote(line, safe='')


def _delete_at(url):
    """The URL's expiry as X-Delete-At (seconds since the epoch), None where it says none."""
    expires = (parse.parse_qs(url.query).get('temp_url_expires') or [''])[0]
    if expires.isdigit():
        return expires
    try:
        # Swift also takes ISO 8601 (generate_temp_url(..., iso8601=True)).
        at = datetime.datetime.strptime(expires, '%Y-%m-%dT%H:%M:%SZ')
    except ValueError:
        return None
    return str(int(at.replace(tzinfo=datetime.timezone.utc).timestamp()))


class SwiftObject:
    """One object, overwritten by each send, through a PUT TempURL."""

    def __init__(self, url, session):
        self._url = url
        self._delete_at = _delete_at(parse.urlsplit(url))
        self._session = session

    def send(self, body, line, timeout):
        headers = {'Content-Type': content_type(line)}
        if self._delete_at:
            headers['X-Delete-At'] = self._delete_at
        _answered(self._session.put(self._url, data=body, headers=headers, timeout=timeout))


def _ttl(expires):
    """A message's TTL: until the signed URL expires, within Zaqar's bounds."""
    try:
        until = datetime.datetime.strptime(expires, EXPIRES_FORMAT)
    except ValueError:
        return MAX_TTL
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    return int(min(max((until - now).total_seconds(), MIN_TTL), MAX_TTL))


class ZaqarMessages:
    """One message at a time, through a pre-signed URL of the live queue: each send posts
    its own, then deletes the one before."""

    def __init__(self, values, session):
        self._url = values[ENDPOINT].rstrip('/') + values[PATHS]
        self._expires = values[EXPIRES]
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
        self._previous = None

    def send(self, body, line, timeout):
        # The body is JSON already: put in the envelope as it is.
        data = b'{"messages": [{"ttl": %d, "body": %s}]}' % (_ttl(self._expires), body)
        response = self._session.post(self._url, data=data, headers=self._headers,
                                      timeout=timeout)
        _answered(response)
        previous, self._previous = self._previous, _message_id(response)
        if previous:
            self._delete(previous, timeout)

    def _delete(self, message_id, timeout):
        # Failing, it leaves the queue a message more: readers take the highest seq.
        try:
            self._session.delete(self._url, params={'ids': message_id},
                                 headers=self._headers, timeout=timeout)
        except (requests.RequestException, OSError):
            pass


def _message_id(response):
    """The id of the message a POST made: the last segment of its resource's path."""
    try:
        return response.json()['resources'][0].rstrip('/').rsplit('/', 1)[-1] or None
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None


def _answered(response):
    if 400 <= response.status_code < 500 and response.status_code not in (408, 429):
        raise Refused(f'HTTP {response.status_code}')
    response.raise_for_status()


def target(values):
    """The live target the inputs name, or None: a config without live inputs sends
    nothing. Incomplete inputs are logged and send nothing either."""
    if values.get(URL):
        return SwiftObject(values[URL], requests.Session())
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
