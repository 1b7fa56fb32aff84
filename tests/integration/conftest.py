"""What the integration modules share beyond tests/conftest.py's cloud and clients."""

import pytest

from tests.integration import dashboard


@pytest.fixture(scope='module')
def user(cloud):
    """The demo user, logged in to Horizon over HTTP: a session of each module's own, so that
    one module's messages and filters never reach another's pages."""
    session = dashboard.Dashboard(cloud.layout.dashboard_url)
    session.login()
    return session
