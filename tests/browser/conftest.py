"""Browser journeys on the real local cloud (tests/conftest.py's session-wide `cloud`).

One headless Chromium per user for the whole session, logged in once through Horizon's real
login form against the real Keystone. Each journey starts from a page it opens itself and
makes the runs it looks at, so the journeys run in any order, alone or together.

A journey that fails leaves a screenshot and the page's source of each browser it used in
build/browser-failures/<test name>.{png,html}.
"""

import re

import pytest

from devcloud import credentials
from devcloud import layout as layout_mod
from tests.browser import chromium
from tests.browser import pages

FAILURES_DIR = layout_mod.REPO_ROOT / 'build' / 'browser-failures'


def _logged_in(cloud, username, password):
    browser = chromium.Chromium()
    try:
        user = pages.User(browser, cloud.layout.dashboard_url)
        user.login(username, password)
    except BaseException:
        browser.quit()
        raise
    return user


@pytest.fixture(scope='session')
def demo_user(cloud):
    """The demo project's user, in a browser, on the page the login landed on."""
    user = _logged_in(cloud, credentials.DEMO_USER, credentials.DEMO_PASSWORD)
    yield user
    user.chromium.quit()


@pytest.fixture(scope='session')
def other_user(cloud):
    """The second project's user, in a browser of their own."""
    user = _logged_in(cloud, credentials.OTHER_USER, credentials.OTHER_PASSWORD)
    yield user
    user.chromium.quit()


def _save_pages(item):
    users = [(name, value) for name, value in item.funcargs.items()
             if isinstance(value, pages.User)]
    FAILURES_DIR.mkdir(parents=True, exist_ok=True)
    base = re.sub(r'[^\w.-]+', '_', item.name)
    for name, user in users:
        stem = base if len(users) == 1 else f'{base}-{name}'
        try:
            user.driver.save_screenshot(str(FAILURES_DIR / f'{stem}.png'))
            (FAILURES_DIR / f'{stem}.html').write_text(user.driver.page_source)
        except Exception as exc:  # a dead browser must not hide the test's own failure
            (FAILURES_DIR / f'{stem}.html').write_text(f'could not save the page: {exc!r}\n')


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    # Real failures only: an expected failure (a known bug's xfail) is not one.
    if report.failed and not hasattr(report, 'wasxfail'):
        _save_pages(item)
    return report
