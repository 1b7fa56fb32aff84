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

"""A local webhook receiver for Zaqar's notices, as an operator's endpoint gets them."""

import contextlib
import http.server
import json
import threading

from heat_deploy_runner.following import notices


class _Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
        self.server.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def receiving():
    """(the address of a local webhook receiver, the JSON bodies it has received so far)."""
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _Receiver)
    server.received = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f'http://127.0.0.1:{server.server_port}/notices', server.received
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def subscribed(zaqar, subjects):
    """The bodies of the notices of every operation of the subjects (components), as a
    webhook subscribed to them all gets them; unsubscribed afterwards."""
    with receiving() as (url, received):
        made = [(subject, notices.subscribe(zaqar, subject, notices.ALWAYS, url).id)
                for subject in subjects]
        try:
            yield received
        finally:
            for subject, subscription_id in made:
                notices.unsubscribe(zaqar, subject, subscription_id)
