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

"""The test case every unit test of a panel uses.

Horizon's TestCase logs in a fake user without Keystone and fails a test
that opens a real HTTP connection; this one adds our Heat test data and the
orchestration service to that user's catalog, and starts each test with an
empty cache.
"""

from unittest import mock

from openstack_dashboard.api import nova
from openstack_dashboard.test import helpers
from openstack_dashboard.test.test_data import exceptions as horizon_stubs

from heat_deploy_dashboard import api
from heat_deploy_dashboard import spare_cache
from heat_deploy_runner.pruning import archive
from tests.unit import test_data

create_mocks = helpers.create_mocks
IsHttpRequest = helpers.IsHttpRequest

_ABSENT = object()


class TestCase(helpers.TestCase):
    # Role names of the logged-in user; None keeps Horizon's member + reader.
    user_roles = None

    def setUp(self):
        super().setUp()
        # Software configs are cached across requests, and so across tests.
        spare_cache.clear()
        self.addCleanup(spare_cache.clear)
        # Where the tables find the servers' names (server_names): no server of the project
        # is named unless a test says so, through these mocks or its own of the same calls.
        # A failing call asks whether Keystone and Swift answer (errors.failing_service): they
        # do, unless a test says otherwise. The project's archive holds nothing unless a test
        # says so (test_archived_runs.py).
        for patcher in (mock.patch.object(api.heat, 'stacks_list', return_value=[]),
                        mock.patch.object(api.swift, 'archive_page',
                                          return_value=archive.Page([], False, False)),
                        mock.patch.object(api.heat, 'resources_list', return_value=[]),
                        mock.patch.object(nova, 'server_list', return_value=([], False)),
                        mock.patch.object(api.keystone, 'answers', return_value=True),
                        mock.patch.object(api.swift, 'answers', return_value=True)):
            patcher.start()

    def _setup_test_data(self):
        # Horizon's test data replaces __init__ and __str__ of the clients'
        # exception classes (swiftclient's ClientException among them) for
        # the rest of the process; tests that run after these ones in the
        # same process, such as the deploy module's, would raise the stubs.
        stubbed = {}
        with mock.patch.object(horizon_stubs, 'create_stubbed_exception',
                               _remembering(stubbed)):
            super()._setup_test_data()
        self.addCleanup(_restore, stubbed)
        test_data.data(self)

    def _setup_user(self, **kwargs):
        if self.user_roles is not None:
            kwargs.setdefault('roles', [{'id': name, 'name': name}
                                        for name in self.user_roles])
        super()._setup_user(**kwargs)


def _remembering(stubbed):
    create_stub = horizon_stubs.create_stubbed_exception

    def remember_then_stub(cls, *args, **kwargs):
        for name in ('__init__', '__str__', 'silence_logging'):
            stubbed.setdefault((cls, name), cls.__dict__.get(name, _ABSENT))
        return create_stub(cls, *args, **kwargs)

    return remember_then_stub


def _restore(stubbed):
    for (cls, name), original in stubbed.items():
        if original is _ABSENT:
            delattr(cls, name)
        else:
            setattr(cls, name, original)


def all_may_have(request, configs, map_=map):
    """api.deploy.may_have_results where every run's result may have arrived."""
    return set(configs)
