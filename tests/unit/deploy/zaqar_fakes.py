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

"""An in-memory python-zaqarclient v2 Client, behaving as the real one and Zaqar 23 do,
for the ZAQAR_SIGNED_URL_SIGNAL transport's unit tests and the notices' (subscriptions, and
messages posted to subscribed queues)."""

import copy
import datetime
import itertools
import json
from urllib import parse
import uuid

from zaqarclient.queues.v2.queues import QUEUE_NAME_REGEX
from zaqarclient.transport import errors as zaqar_errors

from .fakes import _Failures

MESSAGING_URL = 'http://zaqar.example.com:8888'
MESSAGING_PROJECT = 'project-id'

# Zaqar's own limits (zaqar.transport.validation and its default paging).
ZAQAR_QUEUE_NAME_MAX = 64
ZAQAR_PAGE_SIZE = 10
# [transport] max_messages_post_size: the most one POST of messages may carry, in bytes.
ZAQAR_MAX_POST_BYTES = 256 * 1024
# [transport] max_subscriptions_per_page, subscriber_types, min_subscription_ttl.
ZAQAR_MAX_SUBSCRIPTIONS_PAGE = 20
ZAQAR_SUBSCRIBER_TYPES = ('http', 'https', 'mailto', 'trust+http', 'trust+https')
ZAQAR_MIN_SUBSCRIPTION_TTL = 60
# [transport] max_message_ttl; a message lives at least a minute.
ZAQAR_MESSAGE_TTLS = range(60, 1209600 + 1)


class FakeZaqar(_Failures):
    """The parts of a python-zaqarclient v2 Client a signal transport and the notices use.

    ``queue()`` refuses names the client refuses (ValueError) and the
    server refuses names longer than 64 characters (MalformedRequest). A
    claimed message is hidden from other claims, and from listings unless
    ``include_claimed``; a listing returns one page of 10 oldest first, as
    the client's iterator does without ``stream()``. Claims never expire
    here.

    Zaqar v2 queues are lazy: a missing queue lists no messages, claims
    nothing and deletes without complaint. ``lazy_queues=False`` answers
    ResourceNotFound instead, as older or other deployments may.

    Subscriptions (``subscriptions_by_queue``: queue name -> list of {'id',
    'subscriber', 'ttl', 'options'}) are made, listed (one page, as the
    client's iterator does without ``stream()``) and deleted as Zaqar does:
    a subscriber already subscribed to the queue is a conflict, a listing
    of more than 20 a bad request, deleting an unknown id no error. A POST
    of messages over 256 KiB, or one living under a minute or over 14 days,
    is refused, as Zaqar refuses it.
    """

    def __init__(self, url=MESSAGING_URL, project=MESSAGING_PROJECT,
                 lazy_queues=True):
        super().__init__()
        self.api_url = url
        self.project = project
        self.lazy_queues = lazy_queues
        # queue name -> list of messages, oldest first:
        # {'id', 'body', 'ttl', 'claim_id'}
        self.queues = {}
        self.signed = []
        self.subscriptions_by_queue = {}
        self._ids = itertools.count(1)

    def queue(self, name, auto_create=True, force_create=False):
        self._call('queue', name, auto_create=auto_create,
                   force_create=force_create)
        if name == '' or not QUEUE_NAME_REGEX.match(str(name)):
            raise ValueError('The queue name may only contain ASCII '
                             'letters, digits, underscores and dashes.')
        queue = _ZaqarQueue(self, name)
        # zaqarclient's ensure_exists creates only when forced.
        if force_create:
            queue._create()
        return queue

    def subscription(self, queue_name, subscriber=None, ttl=60, id=None,
                     auto_create=True, **kwargs):
        self._call('subscription', queue_name, subscriber=subscriber, ttl=ttl, id=id,
                   auto_create=auto_create, **kwargs)
        made = _ZaqarSubscription(self, queue_name, subscriber, ttl, id,
                                  kwargs.get('options', {}))
        if auto_create:
            made._ensure_exists()
        return made

    def subscriptions(self, queue_name, **params):
        self._call('subscriptions', queue_name, **params)
        self._valid_name(queue_name)
        limit = params.get('limit') or ZAQAR_PAGE_SIZE
        if not 0 < limit <= ZAQAR_MAX_SUBSCRIPTIONS_PAGE:
            raise zaqar_errors.MalformedRequest(
                title='Invalid API request',
                description='Limit must be at least 1 and may not be greater than 20.')
        return iter([_ZaqarSubscription(self, queue_name, each['subscriber'], each['ttl'],
                                        each['id'], each['options'])
                     for each in self.subscriptions_by_queue.get(queue_name, [])[:limit]])

    def bodies(self, queue_name):
        """The bodies of the messages posted to the queue, oldest first."""
        return [message['body'] for message in self.queues.get(queue_name, [])]

    # What a server does through its signed URL.
    def post(self, queue_name, body, ttl=3600):
        self._valid_name(queue_name)
        message_id = f'{next(self._ids):024x}'
        self.queues.setdefault(queue_name, []).append(
            {'id': message_id, 'body': copy.deepcopy(body), 'ttl': ttl,
             'claim_id': None})
        return message_id

    def _valid_name(self, name):
        if len(name) > ZAQAR_QUEUE_NAME_MAX:
            raise zaqar_errors.MalformedRequest(
                title='Invalid API request',
                description='Queue names may not be more than 64 '
                            'characters long.')

    def _stored(self, name):
        self._valid_name(name)
        if name not in self.queues:
            if self.lazy_queues:
                return []
            raise zaqar_errors.ResourceNotFound()
        return self.queues[name]

    def claimed(self, queue_name):
        return [m['id'] for m in self.queues.get(queue_name, [])
                if m['claim_id'] is not None]


class _ZaqarQueue:
    def __init__(self, zaqar, name):
        self.client = zaqar
        self._name = name

    @property
    def name(self):
        return self._name

    def _create(self):
        self.client._call('queue.create', self._name)
        self.client._valid_name(self._name)
        self.client.queues.setdefault(self._name, [])

    def signed_url(self, paths=None, ttl_seconds=None, methods=None):
        self.client._call('queue.signed_url', self._name, paths=paths,
                          ttl_seconds=ttl_seconds, methods=methods)
        self.client._valid_name(self._name)
        expires = (datetime.datetime.now(datetime.timezone.utc) +
                   datetime.timedelta(seconds=ttl_seconds or 86400))
        signed = {
            'paths': [f'/v2/queues/{self._name}/{path}'
                      for path in (paths or ['messages'])],
            'methods': list(methods or ['GET']),
            'project': self.client.project,
            'expires': expires.strftime('%Y-%m-%dT%H:%M:%S'),
            'signature': uuid.uuid4().hex * 2,
        }
        self.client.signed.append(signed)
        return signed

    def messages(self, *ids, **params):
        self.client._call('queue.messages', self._name, *ids, **params)
        stored = self.client._stored(self._name)
        listed = [m for m in stored
                  if params.get('include_claimed') or m['claim_id'] is None]
        limit = params.get('limit') or ZAQAR_PAGE_SIZE
        return iter([_ZaqarMessage(self, m) for m in listed[:limit]])

    @property
    def stats(self):
        self.client._call('queue.stats', self._name)
        stored = self.client._stored(self._name)
        claimed = sum(1 for m in stored if m['claim_id'] is not None)
        return {'messages': {'total': len(stored), 'claimed': claimed,
                             'free': len(stored) - claimed}}

    def post(self, messages):
        self.client._call('queue.post', self._name, messages)
        wrapped = messages if isinstance(messages, list) else [messages]
        if any(message.get('ttl', 3600) not in ZAQAR_MESSAGE_TTLS for message in wrapped):
            raise zaqar_errors.MalformedRequest(title='Invalid API request')
        if len(json.dumps({'messages': wrapped}).encode()) > ZAQAR_MAX_POST_BYTES:
            raise zaqar_errors.MalformedRequest(
                title='Invalid API request',
                description='Message collection size is too large. Max size '
                            f'{ZAQAR_MAX_POST_BYTES}')
        for message in messages if isinstance(messages, list) else [messages]:
            self.client.post(self._name, message['body'], message.get('ttl', 3600))

    def claim(self, id=None, ttl=None, grace=None, limit=None):
        self.client._call('queue.claim', self._name, ttl=ttl, grace=grace,
                          limit=limit)
        return _ZaqarClaim(self, ttl=ttl, grace=grace, limit=limit)

    def delete(self):
        self.client._call('queue.delete', self._name)
        self.client._stored(self._name)
        self.client.queues.pop(self._name, None)


class _ZaqarSubscription:
    """zaqarclient.queues.v2.subscription.Subscription, on the fake's store."""

    def __init__(self, client, queue_name, subscriber, ttl, id, options):
        self.client = client
        self.queue_name = queue_name
        self.subscriber = subscriber
        self.ttl = ttl
        self.id = id
        self.options = options

    def _stored(self):
        return self.client.subscriptions_by_queue.setdefault(self.queue_name, [])

    def _ensure_exists(self):
        self.client._valid_name(self.queue_name)
        stored = self._stored()
        if not self.id and self.subscriber:
            scheme = parse.urlsplit(self.subscriber).scheme
            if scheme not in ZAQAR_SUBSCRIBER_TYPES or not isinstance(self.ttl, int) or \
                    self.ttl < ZAQAR_MIN_SUBSCRIPTION_TTL or not isinstance(self.options, dict):
                raise zaqar_errors.MalformedRequest(title='Invalid API request')
            if any(each['subscriber'] == self.subscriber for each in stored):
                raise zaqar_errors.ConflictError(
                    title='Such subscription already exists.')
            self.id = uuid.uuid4().hex[:24]
            stored.append({'id': self.id, 'subscriber': self.subscriber, 'ttl': self.ttl,
                           'options': copy.deepcopy(self.options)})
        if self.id:
            found = [each for each in stored if each['id'] == self.id]
            if not found:
                raise zaqar_errors.ResourceNotFound()
            self.subscriber, self.ttl = found[0]['subscriber'], found[0]['ttl']

    def delete(self):
        self.client._call('subscription.delete', self.queue_name, self.id)
        # Zaqar answers 204 for an id it does not have.
        self.client.subscriptions_by_queue[self.queue_name] = [
            each for each in self._stored() if each['id'] != self.id]


class _ZaqarClaim:
    def __init__(self, queue, ttl, grace, limit):
        self._queue = queue
        self.id = None
        free = [m for m in queue.client._stored(queue.name)
                if m['claim_id'] is None][:limit or ZAQAR_PAGE_SIZE]
        if free:
            self.id = uuid.uuid4().hex
            for message in free:
                message['claim_id'] = self.id
        self._messages = [_ZaqarMessage(queue, m) for m in free]

    def __iter__(self):
        return iter(self._messages)

    def delete(self):
        client = self._queue.client
        client._call('claim.delete', self._queue.name, self.id)
        for message in client._stored(self._queue.name):
            if message['claim_id'] == self.id:
                message['claim_id'] = None


class _ZaqarMessage:
    def __init__(self, queue, stored):
        self.queue = queue
        self.id = stored['id']
        self.body = copy.deepcopy(stored['body'])
        self.ttl = stored['ttl']
        self.age = 0
        self.claim_id = stored['claim_id']

    def delete(self):
        client = self.queue.client
        client._call('message.delete', self.queue.name, self.id,
                     self.claim_id)
        stored = client._stored(self.queue.name)
        for message in stored:
            if message['id'] != self.id:
                continue
            if message['claim_id'] not in (None, self.claim_id):
                # Zaqar: a claimed message needs its claim's id.
                raise zaqar_errors.ForbiddenError()
            stored.remove(message)
            return
