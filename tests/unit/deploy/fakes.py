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

"""In-memory Heat and Swift that answer like the real services (Zaqar: zaqar_fakes.py).

They return heatclient's own resource classes and raise the clients' own
errors (heatclient HTTPNotFound, swiftclient ClientException with
http_status), so code under test cannot tell them from the clients on the
points it relies on.
``fail(method, error, when)`` makes one method raise, to test what happens
half-way.
"""

import copy
import datetime
import email.utils
import math
import time
import uuid

from heatclient import exc as heat_exc
from heatclient.v1.software_configs import SoftwareConfig
from heatclient.v1.software_deployments import SoftwareDeployment
from swiftclient.exceptions import ClientException

STORAGE_URL = 'http://swift.example.com:8080/v1/AUTH_project'


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%SZ')


class _Failures:
    def __init__(self):
        self.calls = []
        self._failures = {}
        self._failures_after = {}

    def fail(self, method, error, when=lambda *args, **kwargs: True):
        self._failures[method] = (error, when)

    def fail_after(self, method, error):
        """``method`` does what it does, then raises ``error``: as Heat stores a deployment
        and answers 500 when it cannot push the server's metadata to its Zaqar queue."""
        self._failures_after[method] = error

    def _call(self, method, *args, **kwargs):
        self.calls.append((method, args, kwargs))
        if method in self._failures:
            error, when = self._failures[method]
            if when(*args, **kwargs):
                raise error

    def _done(self, method):
        if method in self._failures_after:
            raise self._failures_after[method]

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

    def list(self):
        """Heat's summary rows (id, name, group, creation_time; an admin's also project)."""
        self._heat._call('software_configs.list')
        return [SoftwareConfig(self, {key: config[key] for key in (
            'id', 'name', 'group', 'creation_time', 'project') if key in config}, loaded=True)
            for config in self._heat.configs.values()]

    def create(self, **kwargs):
        self._heat._call('software_configs.create', **kwargs)
        assert set(kwargs) <= {'name', 'group', 'config', 'inputs',
                               'outputs', 'options'}, kwargs
        config_id = self._heat.add_config(**copy.deepcopy(kwargs))
        self._heat._done('software_configs.create')
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

    def list(self, server_id=None):
        self._heat._call('software_deployments.list', server_id=server_id)
        return [self._resource(deployment_id) for deployment_id, stored
                in self._heat.deployments.items()
                if server_id is None or stored['server_id'] == server_id]

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
        self._heat._done('software_deployments.create')
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
        self._heat._done('software_deployments.delete')


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
        # The headers each object was last put with, by (container, object).
        self.object_headers = {}
        # Each object's Content-Type, by (container, object), as a listing shows it.
        self.content_types = {}
        # Each object's Last-Modified header, by (container, object): as Swift, the time it
        # was put rounded up to whole seconds.
        self.modified = {}

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
        # As Swift: in reverse, the listing runs down from the marker to the end marker.
        reverse = query_string == 'reverse=on'
        names = sorted((name for name in objects if name.startswith(prefix or '')),
                       reverse=reverse)
        if marker:
            names = [name for name in names if (name < marker if reverse else name > marker)]
        if end_marker:
            names = [name for name in names
                     if (name > end_marker if reverse else name < end_marker)]
        return ({'x-container-object-count': str(len(objects))},
                [{'name': name, 'bytes': len(objects[name]),
                  'content_type': self.content_types.get((container, name))}
                 for name in names[:limit]])

    def delete_container(self, container, response_dict=None,
                         query_string=None, headers=None):
        self._call('delete_container', container)
        if self._container(container):
            raise _swift_error(409)
        del self.containers[container]

    def put_object(self, container, obj, contents, headers=None, content_type=None,
                   **kwargs):
        self._call('put_object', container, obj)
        if isinstance(contents, str):
            contents = contents.encode()
        self._container(container)[obj] = contents
        self.object_headers[container, obj] = dict(headers or {})
        self.content_types[container, obj] = content_type or 'application/octet-stream'
        self.modified[container, obj] = email.utils.format_datetime(
            datetime.datetime.fromtimestamp(math.ceil(time.time()), datetime.timezone.utc),
            usegmt=True)

    def get_object(self, container, obj, **kwargs):
        self._call('get_object', container, obj)
        objects = self._container(container)
        if obj not in objects:
            raise _swift_error(404)
        return {'content-length': str(len(objects[obj])),
                'last-modified': self.modified.get((container, obj))}, objects[obj]

    def head_object(self, container, obj, headers=None):
        self._call('head_object', container, obj)
        objects = self._container(container)
        if obj not in objects:
            raise _swift_error(404)
        return {'content-length': str(len(objects[obj]))}

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


class RenewingSession:
    """A keystoneauth session whose token is renewed between calls."""

    def __init__(self):
        self.tokens = iter(['token-1', 'token-2'])

    def get_token(self):
        return next(self.tokens)

    def get_project_id(self):
        return 'p1'

    def get_endpoint(self, service_type, **where):
        return {'messaging': 'http://zaqar.example.com:8888'}.get(
            service_type, f'http://{service_type}.example.com/v1')
