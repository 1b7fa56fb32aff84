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

"""Unit tests run threads beside the code they test (local HTTP servers, the status poll's
pool). Swift's own modules, once imported, swap logging's locks for eventlet's green ones, and
a real thread that logs can then wait for good on a lock another holds: a worker of the unit
suite hung at tests/unit/test_api_pool.py after a test imported bench.archive_cost, which
seeds Swift's container database itself. So collection stops, naming the cause, where a test
module brings them in."""

import sys

import pytest

SWIFT_MODULE = 'swift.common.utils'


def pytest_collection_finish(session):
    if SWIFT_MODULE in sys.modules:
        raise pytest.UsageError(
            f'A unit test module imports {SWIFT_MODULE} (Swift\'s own code, not swiftclient): '
            'it patches logging for eventlet and hangs the tests that run threads. Test the '
            'part that does not need it apart.')
