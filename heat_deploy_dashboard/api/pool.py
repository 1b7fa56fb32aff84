"""One bounded pool of HTTP connections per Horizon worker process, shared by the Heat, Swift
and Zaqar calls of every request the worker serves.

Each client left to itself opens connections of its own: heatclient one per call, zaqarclient
one per call, swiftclient one per client, closed only when Python collects them. Under a few
polling pages a worker held hundreds of open connections to the Swift proxy, and the proxy
stopped answering. Here each service's host gets at most POOL_SIZE connections from a worker,
kept open and reused; a call that finds them all busy waits for one.

Every call gets one try: a page or a poll is waiting, and its own request gives up after
REQUEST_TIMEOUT. Nothing is retried below the dashboard.

A host that did not answer is not asked again by this worker for RETRY_AFTER_SECONDS; then
one call tries it while the others still fail at once. Without that, a service that accepts
connections but never replies (heat-api while heat-engine is down) cost every call its whole
timeout: a page that makes three calls, and a redirect to a list that makes two more, held a
Horizon worker for over a minute, and every other user's pages queued behind it.
"""

import functools
import http.cookiejar
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


def timeout_seconds():
    return getattr(settings, 'HEAT_DEPLOY_API_TIMEOUT', DEFAULT_TIMEOUT)


class HostNotAnswering(requests.exceptions.ConnectionError):
    """Raised without a call: the host did not answer this worker a moment ago."""


class _Silent:
    """The hosts that did not answer, each with when to let one call try it again."""

    def __init__(self):
        self._lock = threading.Lock()
        self._until = {}

    def may_try(self, host):
        """True for a host that answers, or for the one call that tries it again."""
        with self._lock:
            until = self._until.get(host)
            if until is None:
                return True
            now = time.monotonic()
            if now < until:
                return False
            self._until[host] = now + RETRY_AFTER_SECONDS
            return True

    def failed(self, host):
        with self._lock:
            self._until[host] = time.monotonic() + RETRY_AFTER_SECONDS

    def answered(self, host):
        with self._lock:
            self._until.pop(host, None)


_SILENT = _Silent()


class _BoundedAdapter(adapters.HTTPAdapter):

    def send(self, request, timeout=None, **kwargs):
        host = parse.urlsplit(request.url).netloc
        if not _SILENT.may_try(host):
            raise HostNotAnswering(
                f'{host} did not answer a moment ago; it is tried again '
                f'{RETRY_AFTER_SECONDS} s after that', request=request)
        try:
            # zaqarclient sets no timeout at all: a hung Zaqar would hang the poll with it.
            response = super().send(request, timeout=timeout or timeout_seconds(), **kwargs)
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout):
            _SILENT.failed(host)
            raise
        _SILENT.answered(host)
        return response


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
    verify = (False if settings.OPENSTACK_SSL_NO_VERIFY
              else settings.OPENSTACK_SSL_CACERT or True)
    return ksa_session.Session(
        auth=token_endpoint.Token(endpoint, request.user.token.id),
        session=session(), verify=verify, timeout=timeout_seconds())
