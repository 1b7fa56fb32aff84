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

"""Browser journeys on the real local cloud (tests/conftest.py's session-wide `cloud`).

One headless Chromium per user for the whole session, logged in once through Horizon's real
login form against the real Keystone. Each journey starts from a page it opens itself and
makes the runs it looks at, so the journeys run in any order, alone or together.

A journey that fails leaves a screenshot and the page's source of each browser it used in
build/browser-failures/<test name>.{png,html}.

Every journey reads the browser console of each user it used (Chromium's browser log): an
error there (level SEVERE: an uncaught exception, console.error, a resource that failed to
load) fails the journey, with the entries in its report, unless it is in HORIZON_NOISE or the
journey expects it (@pytest.mark.console_allows(regex, ...), each matched against the entry's
message).
"""

import re

import pytest

from devcloud import credentials
from devcloud import layout as layout_mod
from tests.browser import chromium
from tests.browser import pages

FAILURES_DIR = layout_mod.REPO_ROOT / 'build' / 'browser-failures'

# The session's users in a browser, by fixture name: a journey that uses one has its console
# read before and after it.
USER_FIXTURES = ('demo_user', 'other_user')

# Console errors of Horizon's own pages that no plugin can fix (regular expressions), each as
# narrow as it can be and with why. None so far: on every page the journeys open, Horizon 27
# as the local cloud serves it (its favicon included) logs no error of its own.
HORIZON_NOISE = ()

_USERS = pytest.StashKey[list]()


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


@pytest.fixture
def own_demo_user(cloud):
    """The demo project's user in a browser of this journey's own, which it may log out."""
    user = _logged_in(cloud, credentials.DEMO_USER, credentials.DEMO_PASSWORD)
    yield user
    user.chromium.quit()


def pytest_configure(config):
    config.addinivalue_line(
        'markers', 'console_allows(*patterns): browser console errors this journey expects '
                   '(regular expressions searched in each SEVERE entry\'s message)')


@pytest.fixture(autouse=True)
def browser_console(request):
    """Drains the console of every user the journey uses before it starts, so that what an
    earlier journey left there is not counted; pytest_runtest_call reads it afterwards."""
    users = [(name, request.getfixturevalue(name)) for name in USER_FIXTURES
             if name in request.fixturenames]
    for _name, user in users:
        user.console_log()
    request.node.stash[_USERS] = users
    yield
    for _name, user in users:
        user.console_log()


def _allowed(item):
    patterns = list(HORIZON_NOISE)
    for marker in item.iter_markers('console_allows'):
        patterns.extend(marker.args)
    return [re.compile(pattern) for pattern in patterns]


def _console_errors(item):
    """[(user fixture, entry)] of the SEVERE entries no pattern allows."""
    allowed = _allowed(item)
    errors = []
    for name, user in item.stash.get(_USERS, []):
        try:
            entries = user.console_log()
        except Exception as exc:  # a dead browser: the journey's own failure says why
            entries = [{'level': 'SEVERE', 'message': f'could not read the console: {exc!r}'}]
        errors.extend((name, entry) for entry in entries
                      if entry.get('level') == 'SEVERE'
                      and not any(p.search(entry.get('message', '')) for p in allowed))
    return errors


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    passed = False
    try:
        result = yield
        passed = True
        return result
    finally:
        errors = _console_errors(item)
        if errors:
            text = '\n'.join(f'{name}: {entry.get("source", "")}: {entry["message"]}'
                             for name, entry in errors)
            item.add_report_section('call', 'browser console errors', text)
            if passed:
                pytest.fail(f'errors in the browser console:\n{text}', pytrace=False)


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
