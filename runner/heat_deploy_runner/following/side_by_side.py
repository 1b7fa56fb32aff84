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

"""The reads of an operation's many runs, a few at a time: a follower of 200 runs read them
one after another, and the outcome of an operation whose 200 servers had all answered was
recorded 12 to 18 s after the last answer (bench fleets), most of it spent waiting on one
call at a time. WIDTH threads, each on clients of its own over the caller's session.
"""

import concurrent.futures
import threading

from heat_deploy_runner.session_clients import Clients

# Heat's engine and Swift's proxy are shared with every other user: a few calls at a time,
# as one of the dashboard's status polls makes (its pool's size).
WIDTH = 4


class Readers:
    """WIDTH threads kept for as long as the with block lasts, each with clients of its own
    (Clients.for_another_thread) made once: Mistral's wait reads its running runs every few
    seconds, and new clients each time would connect to Heat and Swift anew each time."""

    def __init__(self, clients: Clients):
        self.clients = clients
        self._own = threading.local()
        self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def each(self, work, items) -> list:
        """[work(clients, item) for item in items], WIDTH at a time; the first error is
        raised once all have ended."""
        items = list(items)
        if len(items) < 2:
            return [work(self.clients, item) for item in items]
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(WIDTH)
        futures = [self._pool.submit(self._one, work, item) for item in items]
        concurrent.futures.wait(futures)
        return [future.result() for future in futures]

    def _one(self, work, item):
        return work(self._own_clients(), item)

    def _own_clients(self):
        if not hasattr(self._own, 'clients'):
            self._own.clients = self.clients.for_another_thread()
        return self._own.clients
