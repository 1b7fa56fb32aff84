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

"""The in-memory clouds the runner's tests run against, fresh for each test."""

import pytest

from .fakes import FakeHeat
from .fakes import FakeSwift
from .zaqar_fakes import FakeZaqar


@pytest.fixture
def heat():
    return FakeHeat()


@pytest.fixture
def swift():
    # With an account key, as a TempURL needs.
    return FakeSwift(account_headers={'x-account-meta-temp-url-key': 'k'})


@pytest.fixture
def zaqar():
    return FakeZaqar()
