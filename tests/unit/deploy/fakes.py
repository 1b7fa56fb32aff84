"""In-memory Heat, Swift and Zaqar that answer like the real services.

They return heatclient's own resource classes and raise the clients' own
errors (heatclient HTTPNotFound, swiftclient ClientException with
http_status, zaqarclient's transport errors), so code under test cannot
tell them from the clients on the points it relies on.
``fail(method, error, when)`` makes one method raise, to test what happens
half-way.
"""

import copy
import datetime
import itertools
import uuid

from heatclient import exc as heat_exc
from heatclient.v1.software_configs import SoftwareConfig
from heatclient.v1.software_deployments import SoftwareDeployment
from swiftclient.exceptions import ClientException
from zaqarclient.queues.v2.queues import QUEUE_NAME_REGEX
from zaqarclient.transport import errors as zaqar_errors

STORAGE_URL = 'http://swift.example.com:8080/v1/AUTH_project'
MESSAGING_URL = 'http://zaqar.example.com:8888'
MESSAGING_PROJECT = 'project-id'


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%SZ')


class _Failures:
    def __init__(self):
        self.calls = []
        self._failures = {}

    def fail(self, method, error, when=lambda *args, **kwargs: True):
        self._failures[method] = (error, when)

    def _call(self, method, *args, **kwargs):
        self.calls.append((method, args, kwargs))
        if method in self._failures:
            error, when = self._failures[method]
            if when(*args, **kwargs):
                raise error

    def called(self, method):
        return [call for call in self.calls if call[0] == method]


class FakeHeat(_Failures):
    """heatclient v1 Client's software_configs and software_deployments."""

    def __init__(self):
        super().__init__()
        self.configs = {}
        self.deployments = {}
        self.software_configs = _Configs(self)
        self.software_deployments = _Deployments(self)

    def add_config(self, **fields):
        config_id = str(uuid.uuid4())
        self.configs[config_id] = dict(
            {'group': 'Heat::Ungrouped', 'config': '', 'inputs': [],
             'outputs': [], 'options': {}},
            id=config_id, creation_time=_now(), **fields)
        return config_id


class _Configs:
    def __init__(self, heat):
        self._heat = heat

    def _found(self, config_id):
        if config_id not in self._heat.configs:
            raise heat_exc.HTTPNotFound()
        return self._heat.configs[config_id]

    def get(self, config_id):
        self._heat._call('software_configs.get', config_id)
        return SoftwareConfig(self, copy.deepcopy(self._found(config_id)),
                              loaded=True)

    def create(self, **kwargs):
        self._heat._call('software_configs.create', **kwargs)
        assert set(kwargs) <= {'name', 'group', 'config', 'inputs',
                               'outputs', 'options'}, kwargs
        config_id = self._heat.add_config(**copy.deepcopy(kwargs))
        return SoftwareConfig(
            self, copy.deepcopy(self._heat.configs[config_id]), loaded=True)

    def delete(self, config_id):
        self._heat._call('software_configs.delete', config_id)
        self._found(config_id)
        if any(d['config_id'] == config_id
               for d in self._heat.deployments.values()):
            # Heat 27 answers InvalidRestrictedAction with a 500.
            raise heat_exc.HTTPInternalServerError()
        del self._heat.configs[config_id]


class _Deployments:
    CREATE_KEYS = {'config_id', 'server_id', 'input_values', 'action',
                   'status', 'status_reason', 'stack_user_project_id'}
    UPDATE_KEYS = {'config_id', 'input_values', 'output_values', 'action',
                   'status', 'status_reason'}

    def __init__(self, heat):
        self._heat = heat

    def _found(self, deployment_id):
        if deployment_id not in self._heat.deployments:
            raise heat_exc.HTTPNotFound()
        return self._heat.deployments[deployment_id]

    def _resource(self, deployment_id):
        return SoftwareDeployment(
            self, copy.deepcopy(self._heat.deployments[deployment_id]),
            loaded=True)

    def get(self, deployment_id):
        self._heat._call('software_deployments.get', deployment_id)
        self._found(deployment_id)
        return self._resource(deployment_id)

    def create(self, **kwargs):
        self._heat._call('software_deployments.create', **kwargs)
        assert set(kwargs) <= self.CREATE_KEYS, kwargs
        if kwargs.get('config_id') not in self._heat.configs:
            raise heat_exc.HTTPNotFound()
        deployment_id = str(uuid.uuid4())
        self._heat.deployments[deployment_id] = {
            'id': deployment_id,
            'config_id': kwargs['config_id'],
            'server_id': kwargs.get('server_id'),
            'input_values': kwargs.get('input_values') or {},
            'output_values': None,
            'action': kwargs.get('action'),
            'status': kwargs.get('status'),
            # Heat stores str(status_reason): a missing one becomes 'None'.
            'status_reason': str(kwargs.get('status_reason')),
            'creation_time': _now(),
        }
        return self._resource(deployment_id)

    def update(self, deployment_id, **kwargs):
        self._heat._call('software_deployments.update', deployment_id,
                         **kwargs)
        assert set(kwargs) <= self.UPDATE_KEYS, kwargs
        stored = self._found(deployment_id)
        # Heat's API drops null keys, and its engine empty ones.
        stored.update({key: value for key, value in kwargs.items() if value})
        stored['updated_time'] = _now()
        return self._resource(deployment_id)

    def delete(self, deployment_id):
        self._heat._call('software_deployments.delete', deployment_id)
        self._found(deployment_id)
        del self._heat.deployments[deployment_id]


def _swift_error(status):
    return ClientException(f'{status} fake', http_status=status)


class FakeSwift(_Failures):
    """The parts of swiftclient.client.Connection a signal transport uses."""

    def __init__(self, url=STORAGE_URL, account_headers=None):
        super().__init__()
        self.url = url
        self.os_options = {'object_storage_url': url}
        self.account = {key.lower(): value
                        for key, value in (account_headers or {}).items()}
        self.containers = {}
        # Containers whose old object versions Swift keeps in themselves
        # (X-Versions-Location pointing at the container, as Heat sets it).
        self.versioned = set()

    def _container(self, container):
        if container not in self.containers:
            raise _swift_error(404)
        return self.containers[container]

    def head_account(self, headers=None):
        self._call('head_account')
        return dict(self.account)

    def post_account(self, headers, response_dict=None, query_string=None,
                     data=None):
        self._call('post_account', headers)
        self.account.update({key.lower(): value
                             for key, value in headers.items()})

    def put_container(self, container, headers=None, response_dict=None,
                      query_string=None):
        self._call('put_container', container, headers)
        self.containers.setdefault(container, {})
        if (headers or {}).get('x-versions-location') == container:
            self.versioned.add(container)

    def get_container(self, container, marker=None, limit=None, prefix=None,
                      delimiter=None, end_marker=None, path=None,
                      full_listing=False, headers=None, query_string=None):
        self._call('get_container', container)
        objects = self._container(container)
        return ({'x-container-object-count': str(len(objects))},
                [{'name': name, 'bytes': len(body)}
                 for name, body in sorted(objects.items())])

    def delete_container(self, container, response_dict=None,
                         query_string=None, headers=None):
        self._call('delete_container', container)
        if self._container(container):
            raise _swift_error(409)
        del self.containers[container]

    def put_object(self, container, obj, contents, **kwargs):
        self._call('put_object', container, obj)
        if isinstance(contents, str):
            contents = contents.encode()
        self._container(container)[obj] = contents

    def get_object(self, container, obj, **kwargs):
        self._call('get_object', container, obj)
        objects = self._container(container)
        if obj not in objects:
            raise _swift_error(404)
        return {'content-length': str(len(objects[obj]))}, objects[obj]

    def delete_object(self, container, obj, **kwargs):
        self._call('delete_object', container, obj)
        objects = self._container(container)
        if obj not in objects:
            raise _swift_error(404)
        del objects[obj]
        if container in self.versioned:
            # Deleting the live object brings its newest old version back.
            versions = sorted(name for name in objects
                              if name.startswith(f'{len(obj):03x}{obj}/'))
            if versions:
                objects[obj] = objects.pop(versions[-1])


# Zaqar's own limits (zaqar.transport.validation and its default paging).
ZAQAR_QUEUE_NAME_MAX = 64
ZAQAR_PAGE_SIZE = 10


class FakeZaqar(_Failures):
    """The parts of a python-zaqarclient v2 Client a signal transport uses.

    ``queue()`` refuses names the client refuses (ValueError) and the
    server refuses names longer than 64 characters (MalformedRequest). A
    claimed message is hidden from other claims, and from listings unless
    ``include_claimed``; a listing returns one page of 10 oldest first, as
    the client's iterator does without ``stream()``. Claims never expire
    here.

    Zaqar v2 queues are lazy: a missing queue lists no messages, claims
    nothing and deletes without complaint. ``lazy_queues=False`` answers
    ResourceNotFound instead, as older or other deployments may.
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

    def claim(self, id=None, ttl=None, grace=None, limit=None):
        self.client._call('queue.claim', self._name, ttl=ttl, grace=grace,
                          limit=limit)
        return _ZaqarClaim(self, ttl=ttl, grace=grace, limit=limit)

    def delete(self):
        self.client._call('queue.delete', self._name)
        self.client._stored(self._name)
        self.client.queues.pop(self._name, None)


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
