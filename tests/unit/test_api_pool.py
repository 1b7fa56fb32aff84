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

"""api.pool: every request's Heat, Swift and Zaqar calls share one bounded pool of connections
per worker, and each call gets one bounded try. Against a small HTTP server on loopback that
notes which connection each call came on."""

import http.server
import json
import threading
import time
import unittest
from unittest import mock

from django.test import override_settings
from keystoneauth1 import exceptions as ksa_exc

from heat_deploy_dashboard import api
from heat_deploy_dashboard.api import pool

DEPLOYMENT_ID = '6a1e36c2-6d2f-4d0b-8d3e-5cc2a3b0a101'


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'  # keep-alive, as the services answer

    def do_GET(self):  # noqa: N802 (the name http.server calls)
        # Noted before answering: the client may assert as soon as it has the answer.
        self.server.calls.append(self.client_address)
        self.server.cookies.append(self.headers.get('Cookie'))
        if self.server.delay:
            time.sleep(self.server.delay)
        # A deployment's show and a config's show alike.
        body = {'software_deployment': {'id': DEPLOYMENT_ID, 'config_id': 'c'},
                'software_config': {'id': 'c', 'name': 'c'}}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        # A cookie no other user's call may carry.
        self.send_header('Set-Cookie', 'session=first-user')
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(data)

    do_HEAD = do_GET  # noqa: N815

    def log_message(self, *args):
        pass


class PoolTests(unittest.TestCase):

    def setUp(self):
        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _Handler)
        self.server.calls, self.server.cookies, self.server.delay = [], [], 0
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)
        url = f'http://127.0.0.1:{self.server.server_address[1]}'
        for patcher in (mock.patch('openstack_dashboard.api.base.url_for', return_value=url),
                        # Each test starts with every host answering.
                        mock.patch.object(pool, '_SILENT', pool._Silent())):
            patcher.start()
            self.addCleanup(patcher.stop)

    def _request(self):
        # A new request each time, as each page view is: its clients are its own.
        request = mock.Mock()
        request.user.token.id = 'token'
        request.user.is_superuser = False
        return request

    def test_calls_of_many_requests_share_the_workers_connections(self):
        for _ in range(20):
            api.heat.deployment_get(self._request(), DEPLOYMENT_ID)

        connections = set(self.server.calls)
        self.assertEqual(20, len(self.server.calls))
        self.assertLessEqual(len(connections), pool.POOL_SIZE)

    def test_parallel_calls_hold_at_most_the_pools_connections(self):
        self.server.delay = 0.2
        threads = [threading.Thread(target=api.heat.deployment_get,
                                    args=(self._request(), DEPLOYMENT_ID)) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        self.assertEqual(20, len(self.server.calls))
        self.assertLessEqual(len(set(self.server.calls)), pool.POOL_SIZE)

    def test_swift_calls_share_the_pool_and_no_cookie_goes_to_another_request(self):
        for _ in range(5):
            api.swift.swift_connection(self._request()).head_account()
            api.swift.swift_connection(self._request()).close()

        self.assertEqual(1, len(set(self.server.calls)))
        self.assertEqual([None] * 5, self.server.cookies)

    @override_settings(HEAT_DEPLOY_API_TIMEOUT=0.5)
    def test_a_call_that_hangs_gives_up_after_the_timeout_without_retrying(self):
        self.server.delay = 3
        started = time.monotonic()

        # Horizon counts keystoneauth's errors as recoverable: the page says Heat failed.
        with self.assertRaises(ksa_exc.ConnectionError):
            api.heat.deployment_get(self._request(), DEPLOYMENT_ID)

        self.assertLess(time.monotonic() - started, 2)
        self.assertEqual(1, len(self.server.calls))

    @override_settings(HEAT_DEPLOY_API_TIMEOUT=0.5)
    def test_a_host_that_did_not_answer_is_not_asked_again_for_a_while(self):
        self.server.delay = 3
        with self.assertRaises(ksa_exc.ConnectionError):
            api.heat.config_get(self._request(), DEPLOYMENT_ID)
        started = time.monotonic()

        # Heat and Swift alike: the next calls fail at once, and never reach the host.
        with self.assertRaises(ksa_exc.ConnectionError):
            api.heat.config_get(self._request(), DEPLOYMENT_ID)
        with self.assertRaises(pool.HostNotAnswering):
            api.swift.swift_connection(self._request()).head_account()

        self.assertLess(time.monotonic() - started, 0.5)
        self.assertEqual(1, len(self.server.calls))

    def test_whether_a_held_host_answers_is_asked_of_the_host_and_its_answer_ends_the_hold(self):
        # Held silent (a call timed out while another service's outage slowed the host): a
        # call fails at once, but the question "does it answer?" is the host's to answer.
        pool._SILENT.failed(f'127.0.0.1:{self.server.server_address[1]}', refused=False)
        with self.assertRaises(pool.HostNotAnswering):
            api.swift.swift_connection(self._request()).head_account()

        self.assertTrue(api.swift.answers(self._request()))

        self.assertEqual(1, len(self.server.calls))
        api.swift.swift_connection(self._request()).head_account()
        self.assertEqual(2, len(self.server.calls))

    @override_settings(HEAT_DEPLOY_API_TIMEOUT=0.5)
    def test_one_call_tries_a_silent_host_again_and_once_it_answers_all_calls_go(self):
        self.server.delay = 3
        with mock.patch.object(pool, 'RETRY_AFTER_SECONDS', 0.2):
            with self.assertRaises(ksa_exc.ConnectionError):
                api.heat.config_get(self._request(), DEPLOYMENT_ID)
            self.server.delay = 0
            time.sleep(0.3)

            for _ in range(3):
                api.heat.config_get(self._request(), DEPLOYMENT_ID)

        self.assertEqual(4, len(self.server.calls))

    @override_settings(HEAT_DEPLOY_API_TIMEOUT=0.5)
    def test_a_slow_deployment_show_holds_the_shows_only_not_the_host(self):
        # Heat's show waits on Swift (or Zaqar) for the run's signal: their outage, not Heat's.
        self.server.delay = 3
        with self.assertRaises(ksa_exc.ConnectionError):
            api.heat.deployment_get(self._request(), DEPLOYMENT_ID)
        self.server.delay = 0
        started = time.monotonic()

        with self.assertRaises(ksa_exc.ConnectionError):
            api.heat.deployment_get(self._request(), DEPLOYMENT_ID.replace('6', '7'))
        api.heat.config_get(self._request(), DEPLOYMENT_ID)

        self.assertLess(time.monotonic() - started, 0.5)
        self.assertEqual(2, len(self.server.calls))

    def test_a_host_that_refused_is_called_again_as_soon_as_it_listens(self):
        port = self.server.server_address[1]
        self.server.shutdown()
        self.server.server_close()
        with self.assertRaises(ksa_exc.ConnectionError):
            api.heat.config_get(self._request(), DEPLOYMENT_ID)
        with self.assertRaises(ksa_exc.ConnectionError):
            api.heat.config_get(self._request(), DEPLOYMENT_ID)
        back = http.server.ThreadingHTTPServer(('127.0.0.1', port), _Handler)
        back.calls, back.cookies, back.delay = [], [], 0
        threading.Thread(target=back.serve_forever, daemon=True).start()
        self.addCleanup(back.server_close)
        self.addCleanup(back.shutdown)
        time.sleep(pool.PROBE_SECONDS)

        # Far sooner than RETRY_AFTER_SECONDS: the first call after it listens goes.
        api.heat.config_get(self._request(), DEPLOYMENT_ID)

        self.assertEqual(1, len(back.calls))
