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

"""One bounded pool of HTTP connections per Horizon worker process, shared by the Heat, Swift
and Zaqar calls of every request the worker serves.

Each client left to itself opens connections of its own: heatclient one per call, zaqarclient
one per call, swiftclient one per client, closed only when Python collects them. Under a few
polling pages a worker held hundreds of open connections to the Swift proxy, and the proxy
stopped answering. Here each service's host gets at most POOL_SIZE connections from a worker,
kept open and reused; a call that finds them all busy waits for one.

Every call gets one try: a page or a poll is waiting, and its own request gives up after
REQUEST_TIMEOUT. Nothing is retried below the dashboard.

A host that did not answer is held: this worker does not call it again for a while, and
the calls fail at once. Without that, a service that accepts connections but never replies
(heat-api while heat-engine is down) cost every call its whole timeout: a page that makes
three calls, and a redirect to a list that makes two more, held a Horizon worker for over a
minute, and every other user's pages queued behind it. A hold ends as soon as can be known:
- a host that could not be connected to (its service stopped) is connected to again, at most
  once a PROBE_SECONDS, before a held call fails: the first call after it listens again goes;
- a host that took a call but did not reply in time gets one call every RETRY_AFTER_SECONDS
  (only a call can tell whether it replies), and the first reply ends the hold;
- Heat shows a deployment only after reading its signal from Swift or Zaqar: a show that did
  not reply in time may be their fault, so it holds the shows of deployments only, not the
  pages that need Heat alone.
"""

import functools
import http.cookiejar
import re
import socket
import threading
import time
from urllib import parse

from django.conf import settings
from keystoneauth1 import session as ksa_session
from keystoneauth1 import token_endpoint
import requests
from requests import adapters
from swiftclient import client as swift_client

# As many as a status poll reads at once (content/deployments/status.py).
POOL_SIZE = 8

# Seconds a backend call may take, connecting and reading alike: under the 20 s a page's poll
# waits for its answer, so that the poll hears why before it gives up.
DEFAULT_TIMEOUT = 10


RETRY_AFTER_SECONDS = 10
PROBE_SECONDS = 1
# Whether a service answers at all is asked only while a call is failing (api.keystone,
# api.swift): the answer must not add much to the wait.
ANSWERS_TIMEOUT = 3

# The calls whose reply waits on another service: Heat's show of one deployment.
_READS_OTHER_SERVICES = re.compile(r'/software_deployments/[^/?]+$')


def timeout_seconds():
    return getattr(settings, 'HEAT_DEPLOY_API_TIMEOUT', DEFAULT_TIMEOUT)


class HostNotAnswering(requests.exceptions.ConnectionError):
    """Raised without a call: the host did not answer this worker a moment ago."""


def _connects(host, scheme):
    """Whether a TCP connection to ``host`` (host[:port]) opens now."""
    split = parse.urlsplit(f'{scheme}://{host}')
    port = split.port or (443 if scheme == 'https' else 80)
    try:
        socket.create_connection((split.hostname, port), timeout=PROBE_SECONDS).close()
    except OSError:
        return False
    return True


class _Hold:
    def __init__(self, refused):
        # Refused (or never connected): a connection tells when it is back.
        self.refused = refused
        self.next_try = time.monotonic() + (PROBE_SECONDS if refused else RETRY_AFTER_SECONDS)


class _Silent:
    """The held hosts (and calls, see _READS_OTHER_SERVICES), each with its next try."""

    def __init__(self):
        self._lock = threading.Lock()
        self._holds = {}

    def may_try(self, keys, scheme):
        """True for a call none of whose ``keys`` is held, or for the call that tries one
        again."""
        for key in keys:
            with self._lock:
                hold = self._holds.get(key)
                if hold is None:
                    continue
                now = time.monotonic()
                if now < hold.next_try:
                    return False
                # This call tries: the others meanwhile still fail at once.
                hold.next_try = now + (PROBE_SECONDS if hold.refused else RETRY_AFTER_SECONDS)
            if hold.refused:
                if not _connects(key, scheme):
                    return False
                self.answered(key)
        return True

    def failed(self, key, refused):
        with self._lock:
            self._holds[key] = _Hold(refused)

    def answered(self, *keys):
        with self._lock:
            for key in keys:
                self._holds.pop(key, None)


_SILENT = _Silent()


class _BoundedAdapter(adapters.HTTPAdapter):

    def send(self, request, timeout=None, **kwargs):
        url = parse.urlsplit(request.url)
        host = url.netloc
        # Every deployment's show at once: the service it waits on fails them all alike.
        call = (f'{request.method} {host}'
                f'{_READS_OTHER_SERVICES.sub("/software_deployments/*", url.path)}'
                if _READS_OTHER_SERVICES.search(url.path) else None)
        keys = [host] + ([call] if call else [])
        if not _SILENT.may_try(keys, url.scheme):
            raise HostNotAnswering(
                f'{host} did not answer a moment ago; it is tried again shortly',
                request=request)
        try:
            # zaqarclient sets no timeout at all: a hung Zaqar would hang the poll with it.
            response = super().send(request, timeout=timeout or timeout_seconds(), **kwargs)
        except requests.exceptions.ReadTimeout:
            _SILENT.failed(call or host, refused=False)
            raise
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout):
            _SILENT.failed(host, refused=True)
            raise
        _SILENT.answered(*keys)
        return response


def answers(url):
    """Whether ``url`` answers now (any reply but a server error): asked past its host's
    hold, as a hold cannot answer the question (a host held silent after another service's
    outage slowed it would be blamed for the next outage), on a connection of its own; a
    reply ends the hold."""
    host = parse.urlsplit(url).netloc
    try:
        with requests.Session() as probe:
            reply = probe.get(url, timeout=ANSWERS_TIMEOUT, verify=verify())
    except requests.RequestException:
        return False
    if reply.status_code >= 500:
        return False
    _SILENT.answered(host)
    return True


def _bounded(session):
    adapter = _BoundedAdapter(pool_connections=4, pool_maxsize=POOL_SIZE, pool_block=True,
                              max_retries=0)
    session.mount('http://', adapter)
    session.mount('https://', adapter)
    # The session serves every user of the worker: a cookie one response set must never go
    # out with another user's request.
    session.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return session


@functools.cache
def session():
    """The worker's requests session for Heat (through keystoneauth) and Zaqar."""
    return _bounded(requests.Session())


class _SwiftSession(swift_client.SwiftClientRequestsSession):
    # swiftclient closes its connection's session when it is done with it; this one lives as
    # long as the worker.
    def close(self):
        pass


@functools.cache
def swift_session():
    """The worker's requests session for Swift, shaped as swiftclient's own."""
    pooled = _bounded(_SwiftSession())
    # As swiftclient sets its own: it adds the headers each call needs.
    pooled.headers = None
    return pooled


def token_session(request, endpoint):
    """A keystoneauth session with the user's token for one service's endpoint, over the
    worker's pooled connections: what the Heat and Mistral clients call through."""
    return ksa_session.Session(
        auth=token_endpoint.Token(endpoint, request.user.token.id),
        session=session(), verify=verify(), timeout=timeout_seconds())


def verify():
    """What requests checks the services' certificates with, as Horizon's settings say."""
    return (False if settings.OPENSTACK_SSL_NO_VERIFY
            else settings.OPENSTACK_SSL_CACERT or True)
