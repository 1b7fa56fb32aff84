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

"""ZAQAR_SIGNED_URL_SIGNAL: the server POSTs its outputs to a Zaqar queue
through a pre-signed URL.

Why not Heat's own ZAQAR_SIGNAL: a standalone deployment (what a trigger
creates) whose derived config says ZAQAR_SIGNAL makes Heat 27 answer HTTP
400 to every show while it runs, because its refresh looks for a stack
resource that does not exist; heatclient refuses that transport too. It
also puts a Keystone user's password on the server. Here the server gets a
URL signed for POST to one queue's messages and holds no credentials.

Heat never reads this queue, so the dashboard applies the result itself
(see results.py): it claims the message, which hides it from every other
poller for the claim's life, applies it while the deployment is still
IN_PROGRESS, then deletes it. A result that arrives after a cancel is
released instead and stays readable as the late result.

Zaqar cannot revoke a signed URL, and a POST through one makes a deleted
queue again: a run deleted while its server may still report would leave a
queue holding its output for two weeks. Such a queue is noted in the
project's queue DELETED_QUEUES until its URL expires, and deleted again at
each later prepare, and cleanup of a run that may still report, of this
transport (a sweep of at most one page of notes), the last time once its
URL has expired.

What the server sends (README, "Writing a hook for Zaqar"): POST
``<deploy_zaqar_endpoint><deploy_zaqar_paths>`` with the headers
URL-Signature, URL-Expires, URL-Methods, URL-Paths, X-Project-ID (from the
inputs below), a Client-ID UUID and the body
``{"messages": [{"ttl": <seconds>, "body": {deploy_stdout, deploy_stderr,
deploy_status_code, <outputs>}}]}``.
"""

from collections.abc import Mapping
import datetime
import logging
import re

from zaqarclient.transport import errors as zaqar_errors

from heat_deploy_runner.configs import derived
from heat_deploy_runner.signalling.live import LIVE_EXPIRES
from heat_deploy_runner.signalling.live import live_inputs
from heat_deploy_runner.signalling.live import LIVE_METHODS
from heat_deploy_runner.signalling.live import LIVE_PATHS
from heat_deploy_runner.signalling.live import LIVE_QUEUE
from heat_deploy_runner.signalling.live import LIVE_SIGNATURE
from heat_deploy_runner.signalling.live import Snapshot
from heat_deploy_runner.signalling.signals import ClaimedResult
from heat_deploy_runner.signalling.signals import SignalTarget
from heat_deploy_runner.signalling.signals import SignalTransport
from heat_deploy_runner.signalling.signals import unique_name
from heat_deploy_runner import times

LOG = logging.getLogger(__name__)

ENDPOINT = 'deploy_zaqar_endpoint'
QUEUE = 'deploy_zaqar_queue'
PROJECT = 'deploy_zaqar_project_id'
PATHS = 'deploy_zaqar_paths'
METHODS = 'deploy_zaqar_methods'
EXPIRES = 'deploy_zaqar_expires'
# Its name ends in "signature" so that every page masks it.
SIGNATURE = 'deploy_zaqar_signature'

# Zaqar's rule for queue names: at most 64 of these characters.
_UNSAFE_QUEUE_CHARACTERS = re.compile(r'[^A-Za-z0-9_-]+')
_QUEUE_NAME_LENGTH = 64
# A run's live queue (live.py) is named after the run too, after this.
LIVE_QUEUE_PREFIX = 'live-'
_UUID_LENGTH = 36

# The most messages Zaqar lists at once.
MAX_PAGE = 20

# How long a claimed result stays hidden from other pollers: long enough
# to apply it (two Heat calls), short enough that a poller dying in between
# delays the result by at most this. Zaqar's minimum claim grace is 60 s.
CLAIM_SECONDS = 60
CLAIM_GRACE_SECONDS = 60

DELETED_QUEUES = 'heat-deploy-deleted-signal-queues'
# Zaqar's default max_message_ttl: a note lives at most this long.
MAX_NOTE_SECONDS = 14 * 24 * 3600
# A note outlives its URL a little, so the sweep after the last possible POST finds it.
NOTE_MARGIN_SECONDS = 60


def queue_name(name: str) -> str:
    """"<name>-<uuid4>", with name made a valid and short enough prefix."""
    return unique_name(name, _UNSAFE_QUEUE_CHARACTERS,
                       _QUEUE_NAME_LENGTH - len('-') - _UUID_LENGTH)


def _signal_inputs(endpoint: str, queue: str, signed: Mapping) -> tuple:
    described = derived.string_input
    return (
        described(ENDPOINT, endpoint, 'Zaqar endpoint to post the output '
                  'values to'),
        described(QUEUE, queue, 'Zaqar queue for the output values'),
        described(PROJECT, signed['project'], 'X-Project-ID header'),
        described(PATHS, ','.join(signed['paths']), 'Path to POST to and '
                  'URL-Paths header'),
        described(METHODS, ','.join(signed['methods']), 'URL-Methods '
                  'header'),
        described(EXPIRES, signed['expires'], 'URL-Expires header'),
        described(SIGNATURE, signed['signature'], 'URL-Signature header'),
    )


def _live_values(queue: str, signed: Mapping) -> dict:
    return {LIVE_QUEUE: queue, LIVE_PATHS: ','.join(signed['paths']),
            LIVE_METHODS: ','.join(signed['methods']), LIVE_EXPIRES: signed['expires'],
            LIVE_SIGNATURE: signed['signature']}


def _time(value) -> datetime.datetime | None:
    """A time Zaqar or a note wrote (ISO 8601, naive UTC), None when there is none."""
    try:
        return times.parse_time(str(value)) if value else None
    except ValueError:
        return None


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def _result_of(message) -> dict | None:
    if isinstance(message.body, dict):
        return message.body
    LOG.warning('Message %s on a signal queue does not hold a JSON object',
                message.id)
    return None


class ZaqarSignedUrlSignal(SignalTransport):
    """Signal through a fresh Zaqar queue and a URL pre-signed for POST.

    Works with the user's own python-zaqarclient v2 Client.
    """

    name = 'ZAQAR_SIGNED_URL_SIGNAL'

    def __init__(self, zaqar):
        self._zaqar = zaqar
        self._swept = False

    def prepare(self, name: str, timeout_minutes: int, live: bool = False) -> SignalTarget:
        self._sweep()
        made = []
        try:
            queue = self._zaqar.queue(queue_name(name), force_create=True)
            made.append(queue)
            signed = queue.signed_url(['messages'], methods=['POST'],
                                      ttl_seconds=timeout_minutes * 60)
            live_values = {}
            if live:
                # The hook deletes each snapshot once it has sent the next (live.py).
                live_queue = self._zaqar.queue(queue_name(LIVE_QUEUE_PREFIX + name),
                                               force_create=True)
                made.append(live_queue)
                live_values = _live_values(live_queue.name, live_queue.signed_url(
                    ['messages'], methods=['POST', 'DELETE'], ttl_seconds=timeout_minutes * 60))
        except Exception:
            for each in made:
                try:
                    each.delete()
                except Exception:
                    LOG.warning('Could not remove signal queue %s after a '
                                'failed prepare', each.name, exc_info=True)
            raise
        return SignalTarget(_signal_inputs(self._zaqar.api_url, queue.name, signed)
                            + live_inputs(live_values, live))

    def read_result(self, input_values: Mapping[str, object]) -> dict | None:
        """The newest of the first messages on the queue, left where it is.

        One page of Zaqar's largest size: a server sends one result, and
        Zaqar 23's Redis store cannot page on from a queue's first message
        (it answers that message again, for ever). Claimed messages are
        not asked for: that makes the same store answer HTTP 503.
        """
        queue = self._zaqar.queue(input_values[QUEUE], auto_create=False)
        try:
            messages = list(queue.messages(echo=True, limit=MAX_PAGE))
        except zaqar_errors.ResourceNotFound:
            return None
        for message in reversed(messages):
            result = _result_of(message)
            if result is not None:
                return result
        return None

    def live_output(self, input_values: Mapping[str, object]) -> Snapshot | None:
        # The hook keeps one snapshot or two on the queue: the newest of the first page.
        if not input_values.get(LIVE_QUEUE):
            return None
        queue = self._zaqar.queue(input_values[LIVE_QUEUE], auto_create=False)
        try:
            found = [Snapshot.of(each.body) for each in queue.messages(echo=True,
                                                                       limit=MAX_PAGE)]
        except zaqar_errors.ResourceNotFound:
            return None
        return max(filter(None, found), key=lambda snapshot: snapshot.seq, default=None)

    def may_have_result(self, input_values: Mapping[str, object]) -> bool:
        # One look at the queue's counts, where a show in Heat and a claim cost two calls.
        # Any failure to look is for the claim to explain.
        try:
            stats = self._zaqar.queue(input_values[QUEUE], auto_create=False).stats
            return stats['messages']['total'] != 0
        except Exception:
            return True

    def claim_result(self, input_values: Mapping[str, object]
                     ) -> ClaimedResult | None:
        queue = self._zaqar.queue(input_values[QUEUE], auto_create=False)
        try:
            claim = queue.claim(ttl=CLAIM_SECONDS, grace=CLAIM_GRACE_SECONDS,
                                limit=1)
            claimed = list(claim)
        except zaqar_errors.ResourceNotFound:
            return None
        if not claimed:
            return None
        message = claimed[0]
        result = _result_of(message)
        if result is None:
            # Not a result at all: dropped, so it cannot hide one behind it.
            message.delete()
            return None
        # Releasing the claim makes the message visible to everyone again.
        return ClaimedResult(result, consume=message.delete,
                             release=claim.delete)

    def cleanup(self, input_values: Mapping[str, object],
                may_still_report: bool = False) -> None:
        queues = [name for name in (input_values[QUEUE], input_values.get(LIVE_QUEUE)) if name]
        for queue in queues:
            self._delete_queue(queue)
        expires = _time(input_values.get(EXPIRES))
        if not may_still_report or expires is None or expires <= _now():
            # Nothing can make this queue again: no note, and no sweep on a delete's way.
            return
        self._sweep()
        seconds = (expires - _now()).total_seconds() + NOTE_MARGIN_SECONDS
        for queue in queues:
            self._zaqar.queue(DELETED_QUEUES).post({
                'body': {'queue': queue, 'until': expires.isoformat()},
                'ttl': int(min(seconds, MAX_NOTE_SECONDS))})

    def _delete_queue(self, name: str) -> None:
        try:
            self._zaqar.queue(name, auto_create=False).delete()
        except zaqar_errors.ResourceNotFound:
            pass

    def _sweep(self) -> None:
        """Delete again the queues of runs deleted while their server could still
        report, and forget those whose URL has expired. Once per transport (a request),
        and never in the way of the run it is called for."""
        if self._swept:
            return
        self._swept = True
        try:
            ledger = self._zaqar.queue(DELETED_QUEUES, auto_create=False)
            notes = list(ledger.messages(echo=True, limit=MAX_PAGE))
            for note in notes:
                body = note.body if isinstance(note.body, dict) else {}
                if body.get('queue'):
                    self._delete_queue(body['queue'])
                if (_time(body.get('until')) or _now()) <= _now():
                    note.delete()
        except zaqar_errors.ResourceNotFound:
            pass
        except Exception:
            LOG.warning('Could not sweep the queues of deleted runs', exc_info=True)
