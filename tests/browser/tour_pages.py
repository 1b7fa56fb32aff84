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

"""How the tour (tour.py) finds its way and what it checks on each page: the addresses of each
kind of page, the links, rows and panels it follows, and what looks wrong (an error page, a
SEVERE console entry, an error message, a traceback or a bare None, null or undefined)."""

import re

from selenium.webdriver.common.by import By

from tests.browser import conftest


COMPONENT = r'/project/components/[^/]+/'
STACK_MAP = r'/project/components/stacks/[^/]+/'
RUN_ACTION = r'/project/components/[^/]+/run/'
RUN = r'/project/deployments/(?!operations/|status/)[^/]+/'
RUN_AGAIN = RUN + 'rerun/'
SERVER = r'/project/servers/[^/]+/'
SHOW_SECRETS = SERVER + 'metadata/reveal/'
CONFIG = r'/project/configs/(?!create/)[^/]+/'
CREATE_CONFIG = r'/project/configs/create/'
DEPLOY = CONFIG + 'deploy/'
CHANGE_SCHEDULE = r'/project/schedules/[^/]+/change/'
# A form page's own form (the header has hidden ones).
FORM = '#main_content form'
# What Horizon's own error pages say: DEBUG is off, so there is no Django debug page, and the
# 404 and 403 pages carry their heading in #page_heading.
ERROR_PAGE_TEXTS = ('Something went wrong!', 'You are not authorized to access this page')
# A value the code never meant to show: Python's None or JavaScript's null, undefined or NaN
# printed as such, or a traceback.
_BARE_VALUES = r"""
    var bare = /^(None|null|undefined|NaN|Traceback\b[\s\S]*)$/;
    var found = [];
    document.querySelectorAll('dd, td').forEach(function (cell) {
      // A tab not shown is checked when the tour opens it.
      if (cell.closest('.tab-pane:not(.active)')) { return; }
      var text = cell.textContent.trim();
      if (!bare.test(text)) { return; }
      var where;
      if (cell.tagName === 'DD') {
        var term = cell.previousElementSibling;
        while (term && term.tagName !== 'DT') { term = term.previousElementSibling; }
        where = '<dd> of "' + (term ? term.textContent.trim() : '') + '"';
      } else {
        var table = cell.closest('table');
        var header = table.querySelectorAll('thead tr:last-child th')[cell.cellIndex];
        where = 'cell of column "' + (header ? header.textContent.trim() : '') + '"' +
                (table.id ? ' in table #' + table.id : '');
      }
      found.push('the ' + where + ' shows "' + text.split('\n')[0] + '"');
    });
    return found;
"""
_ERROR_MESSAGES = """
    return Array.prototype.map.call(
      document.querySelectorAll('.messages .alert-danger, .modal.in .modal-body .alert-danger'),
      function (alert) { return alert.innerText.replace(/^\\s*\\u00d7/, '').trim(); });
"""


def path_of(user, link):
    """A link's path on the dashboard, with its query: the href property is the absolute URL
    the browser resolved (?tab= links included)."""
    href = link.get_attribute('href') or ''
    return href[len(user.base):] if href.startswith(user.base) else href


def links_to(user, pattern, scope=None):
    """The paths matching pattern (a regular expression) of the links on the page or under
    scope (a CSS selector or an element), in the page's order, each once."""
    if isinstance(scope, str):
        scope = user.find(scope)
    found = []
    for link in (scope or user.driver).find_elements(By.CSS_SELECTOR, 'a[href]'):
        path = path_of(user, link)
        if re.fullmatch(pattern, path) and path not in found:
            found.append(path)
    return found


def link_to(user, pattern, scope=None):
    found = links_to(user, pattern, scope)
    if not found:
        raise LookupError(f'no link to {pattern} on {user.path()}')
    return found[0]


def link_text_to(user, path, scope=None):
    """The text of the first link to path under scope: a row's name, for a picture's name."""
    for link in (scope or user.driver).find_elements(By.CSS_SELECTOR, 'a[href]'):
        if path_of(user, link) == path and link.text.strip():
            return link.text.strip()
    return path.rstrip('/').rsplit('/', 1)[-1]


def panel_path(user, label):
    """The sidebar's link to a panel: followed by address, so that an open modal is no
    matter."""
    link = user.driver.find_element(
        By.XPATH, f"//a[contains(@class, 'openstack-panel')][normalize-space()='{label}']")
    return path_of(user, link)


def row_of(user, table, cell_text):
    return user.driver.find_element(
        By.XPATH, f"//table[@id='{table}']/tbody/tr[td[normalize-space()='{cell_text}']]")


def _error_page(user):
    status = user.http_status()
    if status and status >= 400:
        yield f'HTTP {status}'
    for heading in user.find_all('#page_heading'):
        yield f"Horizon's error page: {heading.text.strip()}"
    body = user.text()
    for text in ERROR_PAGE_TEXTS:
        if text in body:
            yield f"Horizon's error page: {text}"
    if user.path().startswith('/auth/login/'):
        yield 'sent to the login page'


def _console_errors(user):
    allowed = [re.compile(pattern) for pattern in conftest.HORIZON_NOISE]
    for entry in user.console_log():
        message = entry.get('message', '')
        if entry.get('level') == 'SEVERE' and not any(p.search(message) for p in allowed):
            yield f'console: {message}'


def _shown_wrong(user):
    for message in user.js(_ERROR_MESSAGES):
        yield f'error message: {message}'
    body = user.text()
    if 'Traceback' in body:
        yield 'the page shows a Traceback'
    if re.search(r'<[\w.]+ object at 0x[0-9a-f]+>', body):
        yield "the page shows a Python object's repr"
    yield from user.js(_BARE_VALUES)
    if not user.scripts_loaded():
        yield "Horizon's scripts and styles did not load"


def page_problems(user):
    """What looks wrong on the page as it stands; the console since the last look."""
    found = [*_error_page(user), *_console_errors(user), *_shown_wrong(user)]
    return list(dict.fromkeys(found))
