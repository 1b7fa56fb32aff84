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

"""A cache that fails (memcached down, the backend left to raise) slows the plugin down and
breaks nothing of it: what the plugin keeps there is read again from Heat. Horizon's own uses
of the cache (its template fragments, compressed static files, sessions) are the operator's
settings' to make safe (README); the status poll, which renders no page, shows it here."""

from unittest import mock

from django.core.cache import cache
from django.urls import reverse

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from tests.unit import helpers
from tests.unit import test_data

RUNNING_ID = test_data.DEPLOYMENTS[2]['id']


def _down(*args, **kwargs):
    raise ConnectionRefusedError(111, 'Connection refused')


def _polls_read_a_config_once(test):
    """Two status polls of a running row: the worker reads its config from Heat once, not
    again on the next poll."""
    test.mock_deployment_get.return_value = test_data.deployment(test_data.DEPLOYMENTS[2])
    test.mock_config_get.side_effect = test_data.run_config
    status = reverse('horizon:project:deployments:status')

    polls = [test.client.post(status, {'id': [RUNNING_ID]}) for _each in range(2)]

    test.assertEqual([200, 200], [poll.status_code for poll in polls])
    test.assertEqual(1, test.mock_config_get.call_count)


class CacheDownTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        for method in ('get', 'get_many', 'set', 'set_many', 'delete', 'delete_many'):
            patcher = mock.patch.object(cache, method, side_effect=_down)
            patcher.start()
            self.addCleanup(patcher.stop)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'deployment_get')})
    def test_the_status_poll_reads_heat_instead(self):
        self.mock_deployment_get.return_value = test_data.deployment(test_data.DEPLOYMENTS[2])
        self.mock_config_get.side_effect = test_data.run_config

        poll = self.client.post(reverse('horizon:project:deployments:status'),
                                {'id': [RUNNING_ID]})

        self.assertEqual(200, poll.status_code)
        self.assertIn(RUNNING_ID, poll.json()['rows'])
        self.mock_deployment_get.assert_called_once_with(helpers.IsHttpRequest(), RUNNING_ID)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'deployment_get')})
    def test_a_worker_serves_what_it_kept_itself_while_the_cache_is_down(self):
        _polls_read_a_config_once(self)
        # Kept once after the read from Heat; not put back on each poll into a cache that
        # fails.
        kept_for_good = [each for each in cache.set_many.call_args_list
                         if each.args[1] is None]
        self.assertEqual(1, len(kept_for_good))


class CacheMissingTests(helpers.TestCase):
    """memcached down with pymemcache's ignore_exc (Horizon's recommended settings, the local
    cloud's): every read a miss, every write lost, no error."""

    def setUp(self):
        super().setUp()
        for method, answer in (('get_many', {}), ('set_many', []), ('delete_many', None)):
            patcher = mock.patch.object(cache, method, return_value=answer)
            patcher.start()
            self.addCleanup(patcher.stop)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'deployment_get')})
    def test_a_worker_serves_the_configs_it_kept_itself(self):
        _polls_read_a_config_once(self)


class CacheRestartedTests(helpers.TestCase):
    """memcached back, empty: what a worker kept itself goes back into it, for the workers
    that kept nothing (a new one, or another that never read it)."""

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'deployment_get')})
    def test_a_worker_puts_back_what_it_kept_and_the_cache_lost(self):
        _polls_read_a_config_once(self)
        key = config_cache._KEY % {'project': self.request.user.project_id,
                                   'config': test_data.DEPLOYMENTS[2]['config_id']}
        self.assertIsNotNone(cache.get(key))
        cache.clear()

        _polls_read_a_config_once(self)

        self.assertIsNotNone(cache.get(key))
