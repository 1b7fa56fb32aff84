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
