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

"""The immutable-config cache: Heat is asked for each config once."""

import importlib.util
import itertools
import threading
from unittest import mock

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
from openstack_auth import utils as auth_utils

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from tests.unit import components_data as data
from tests.unit import helpers


class ConfigCacheTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        # The logged-in user, as Horizon's middleware gives it to a view.
        self.request.user = auth_utils.get_user(self.request)

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_a_second_lookup_does_not_call_heat(self):
        self.mock_config_get.side_effect = data.config_getter()
        before = config_cache.stats()

        first = config_cache.get_many(self.request, [data.MYSQL_ID])
        second = config_cache.get_many(self.request, [data.MYSQL_ID])

        self.assertEqual(first, second)
        self.assertEqual(data.MYSQL, second[data.MYSQL_ID])
        self.mock_config_get.assert_called_once_with(self.request,
                                                     data.MYSQL_ID)
        after = config_cache.stats()
        self.assertEqual(1, after['misses'] - before['misses'])
        self.assertEqual(1, after['hits'] - before['hits'])

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_another_worker_reads_what_one_worker_fetched(self):
        self.mock_config_get.side_effect = data.config_getter()
        config_cache.get_many(self.request, [data.MYSQL_ID])
        other_worker = _fresh_copy(config_cache)
        seen = {}

        # Its own copy of the module, in its own thread (so with its own
        # connection to the cache backend), as a second Horizon worker has.
        thread = threading.Thread(target=lambda: seen.update(
            other_worker.get_many(self.request, [data.MYSQL_ID])))
        thread.start()
        thread.join()

        self.assertEqual(data.MYSQL, seen[data.MYSQL_ID])
        self.assertEqual(1, self.mock_config_get.call_count)
        self.assertEqual({'hits': 1, 'misses': 0}, other_worker.stats())

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_a_config_heat_did_not_answer_for_is_left_unread_not_raised(self):
        # Heat's API stopped between a page's listing and its config reads (a soak found it).
        found = data.config_getter()

        def config_get(request, config_id):
            if config_id == data.MYSQL_ID:
                raise ks_exc.ConnectFailure('Remote end closed connection without response')
            return found(request, config_id)
        self.mock_config_get.side_effect = config_get
        ids = [data.MYSQL_ID, data.WORDPRESS_ID]

        first = config_cache.get_many(self.request, ids)

        self.assertEqual({data.WORDPRESS_ID}, set(first))
        self.assertEqual({data.MYSQL_ID}, first.unread)
        self.mock_config_get.side_effect = found
        self.assertEqual(set(ids), set(config_cache.get_many(self.request, ids)))

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_with_seconds_no_read_starts_after_the_deadline(self):
        self.mock_config_get.side_effect = data.config_getter()
        ids = [config['id'] for config in data.CONFIGS]
        # The clock says 0 when the call starts and one second more at each look: the
        # deadline (2.5 s) lets two reads start, whichever threads make them.
        with mock.patch.object(config_cache.time, 'monotonic',
                               side_effect=itertools.count()):
            first = config_cache.get_many(self.request, ids, seconds=2.5)

        self.assertEqual(2, len(first))
        self.assertEqual(set(ids) - set(first), first.unread)
        self.assertEqual(2, self.mock_config_get.call_count)

        # The next view reads on from there.
        second = config_cache.get_many(self.request, ids, seconds=60)
        self.assertEqual(set(ids), set(second))
        self.assertEqual(frozenset(), second.unread)
        self.assertEqual(len(ids), self.mock_config_get.call_count)

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_only_the_missing_configs_are_fetched(self):
        self.mock_config_get.side_effect = data.config_getter()
        config_cache.get_many(self.request, [data.MYSQL_ID])

        configs = config_cache.get_many(
            self.request, [data.MYSQL_ID, data.WORDPRESS_ID])

        self.assertEqual({data.MYSQL_ID, data.WORDPRESS_ID}, set(configs))
        self.assertEqual(
            [data.MYSQL_ID, data.WORDPRESS_ID],
            [call.args[1] for call in self.mock_config_get.call_args_list])

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_a_config_heat_no_longer_has_is_left_out(self):
        self.mock_config_get.side_effect = data.config_getter()

        configs = config_cache.get_many(self.request,
                                        [data.MYSQL_ID, 'deleted-config'])

        self.assertEqual([data.MYSQL_ID], list(configs))

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_heat_errors_other_than_not_found_reach_the_caller(self):
        self.mock_config_get.side_effect = heat_exc.CommunicationError()

        with self.assertRaises(heat_exc.CommunicationError):
            config_cache.get_many(self.request, [data.MYSQL_ID])

    @helpers.create_mocks({api.heat: ('config_get',)})
    def test_another_project_does_not_get_the_cached_copy(self):
        self.mock_config_get.side_effect = data.config_getter()
        config_cache.get_many(self.request, [data.MYSQL_ID])
        self.request.user.project_id = 'another-project'

        config_cache.get_many(self.request, [data.MYSQL_ID])

        self.assertEqual(2, self.mock_config_get.call_count)


def _fresh_copy(module):
    spec = importlib.util.spec_from_file_location(
        module.__name__ + '_of_another_worker', module.__file__)
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    return copy
