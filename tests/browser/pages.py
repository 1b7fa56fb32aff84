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

"""A person at the dashboard in a real browser: what they see and what they click.

Every wait is on the page's state (WebDriverWait with a condition), never a fixed sleep.
"""

import contextlib

from selenium.common import exceptions as selenium_exc
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support.ui import WebDriverWait

# Long enough for a page of the real cloud on a busy two-core machine.
PAGE_TIMEOUT = 30

_FLAKY_DOM = (selenium_exc.StaleElementReferenceException, selenium_exc.NoSuchElementException)

NOT_FOUND_HEADING = 'Sorry, the page you were looking for does not exist'

# What the poller's requests go to; counted by watch_status_polls().
STATUS_URL = '/project/deployments/status/'


class User:
    """One browser, logged in as one user through Horizon's login form."""

    def __init__(self, chromium, base_url):
        self.chromium = chromium
        self.driver = chromium.driver
        self.base = base_url.rstrip('/')

    # Pages

    def open(self, path):
        self.driver.get(self.base + path)
        self.wait_loaded()

    def wait(self, timeout=PAGE_TIMEOUT, poll=0.2):
        return WebDriverWait(self.driver, timeout, poll_frequency=poll,
                             ignored_exceptions=_FLAKY_DOM)

    def wait_loaded(self):
        self.wait().until(lambda d: d.execute_script('return document.readyState') == 'complete')

    def wait_until_replaced(self, element, what, timeout=PAGE_TIMEOUT):
        """Until a click's navigation has replaced the page that held element.

        While Chromium swaps documents it may answer a question about the old page with an
        "unhandled inspector error" instead of "stale element": that too means "not yet".
        """
        WebDriverWait(self.driver, timeout, poll_frequency=0.2,
                      ignored_exceptions=(selenium_exc.WebDriverException,)).until(
            EC.staleness_of(element), what)

    def wait_for_page(self, path_end, timeout=PAGE_TIMEOUT):
        """After a click that navigates: the new page, loaded."""
        self.wait(timeout).until(
            lambda d: d.current_url.split('?')[0].endswith(path_end)
            and d.execute_script('return document.readyState') == 'complete')

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def path(self):
        return self.driver.current_url[len(self.base):]

    def http_status(self):
        """The HTTP status of the page the browser shows (Navigation Timing)."""
        return self.js("return performance.getEntriesByType('navigation')[0].responseStatus")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def visible(self, css, timeout=PAGE_TIMEOUT):
        return self.wait(timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))

    def text(self):
        return self.find('body').text

    def console_log(self):
        """The browser console's entries since the last call (each read drains them): dicts
        with level (SEVERE for errors and failed loads), message, source and timestamp."""
        return self.driver.get_log('browser')

    def toasts(self):
        """Horizon's messages on the page, "Success: " and the like included."""
        return [each.text for each in self.find_all('.messages .alert')]

    def click_panel(self, label):
        """A panel's link in the sidebar, as a person clicks it."""
        link = self.driver.find_element(
            By.XPATH, f"//a[contains(@class, 'openstack-panel')][normalize-space()='{label}']")
        link.click()
        self.wait_loaded()

    def click_tab(self, label):
        self.driver.find_element(
            By.XPATH, f"//ul[contains(@class, 'nav-tabs')]//a[normalize-space()='{label}']"
        ).click()

    def scripts_loaded(self):
        """Whether Horizon's scripts and styles reached the page (a browser user gets them)."""
        return self.js(
            "return !!(window.jQuery && window.horizon && horizon.modals"
            " && document.styleSheets.length"
            " && Array.prototype.some.call(document.styleSheets, function (s) {"
            "   try { return s.cssRules.length > 0; } catch (e) { return false; } }))")

    def require_scripts(self):
        assert self.scripts_loaded(), (
            f"Horizon's scripts and styles did not load on {self.path()}: the dashboard serves "
            f"no static files (every /static/ URL answers 404), so no modal, no live status.")

    # Logging in

    def login(self, username, password):
        self.open('/auth/login/')
        self.visible('#id_username').send_keys(username)
        self.find('#id_password').send_keys(password)
        self.find('#loginBtn').click()
        outcome = self.wait().until(lambda d: (
            'refused' if d.find_elements(By.CSS_SELECTOR, '#logout_reason.alert-danger')
            else 'in' if '/auth/login/' not in d.current_url
            and d.execute_script('return document.readyState') == 'complete'
            else None))
        assert outcome == 'in', f'the login of {username} was refused'

    # The live status poller

    def watch_status_polls(self):
        """Count, from now on, the status requests of the page's poller that got a reply."""
        self.js("window.__statusPolls = 0;"
                "jQuery(document).ajaxComplete(function (event, xhr, settings) {"
                f"  if (settings.url.indexOf('{STATUS_URL}') === 0) {{ window.__statusPolls++; }}"
                "});")

    def wait_for_next_poll(self, timeout=PAGE_TIMEOUT):
        """Until the poller has had one more reply than when this was called."""
        seen = self.js('return window.__statusPolls')
        self.wait(timeout).until(lambda d: d.execute_script('return window.__statusPolls') > seen)


# The Components panel and its Run Action form

class RunActionForm:
    """The Run Action form in its modal."""

    MODAL = '#run_action_modal'

    def __init__(self, user):
        self.user = user

    @property
    def modal(self):
        return self.user.find(self.MODAL)

    # The fields folded under "How it runs" (content/run_form.py): a person opens it first.
    HOW_IT_RUNS = ('transport', 'live', 'timeout', 'batch_size', 'max_failures', 'retries',
                   'retry_delay', 'repeat', 'once_at')

    def field(self, name):
        if name in self.HOW_IT_RUNS:
            self.open_how_it_runs()
        return self.modal.find_element(By.NAME, name)

    def open_how_it_runs(self):
        folded = self.modal.find_element(By.CSS_SELECTOR, 'details.hdd-how-it-runs')
        if folded.get_attribute('open') is None:
            folded.find_element(By.TAG_NAME, 'summary').click()

    def input(self, name):
        return self.field('input__' + name)

    def choose_action(self, action):
        Select(self.field('action')).select_by_value(action)

    def servers(self):
        """{server id: ticked} for each server checkbox, in the form's order."""
        return {box.get_attribute('value'): box.is_selected()
                for box in self.modal.find_elements(By.NAME, 'servers')}

    def tick_servers(self, wanted):
        for box in self.modal.find_elements(By.NAME, 'servers'):
            if box.is_selected() != (box.get_attribute('value') in wanted):
                self.label_of(box).click()
        assert {s for s, ticked in self.servers().items() if ticked} == set(wanted)

    # The choosers above the servers (run_action/_server_choosers.html, server_choice.js).
    CHOOSERS = MODAL + ' .hdd-server-choosers'

    def filter_servers(self, name=None, stack=None, last=None):
        """Types or picks the choosers' filters given: a name, a stack, a last status."""
        if name is not None:
            typed = self.user.find(self.CHOOSERS + ' .hdd-choose-name')
            typed.clear()
            typed.send_keys(name)
        for css, value in ((' .hdd-choose-stack', stack), (' .hdd-choose-last', last)):
            if value is not None:
                Select(self.user.find(self.CHOOSERS + css)).select_by_value(value)

    def shown_servers(self):
        """The server ids whose checkboxes the filters show, in the form's order."""
        return [box.get_attribute('value') for box in self.modal.find_elements(By.NAME, 'servers')
                if box.is_displayed() or self.label_of(box).is_displayed()]

    def choose(self, which):
        """Presses a chooser's button: 'shown', 'all' or 'none'."""
        self.user.find(f'{self.CHOOSERS} [data-hdd-choose="{which}"]').click()

    def servers_counted(self):
        return self.user.find(self.CHOOSERS + ' .hdd-choose-count').text

    def choose_transport(self, name):
        self.open_how_it_runs()
        radio = self.modal.find_element(
            By.CSS_SELECTOR, f'input[name="transport"][value="{name}"]')
        # Horizon's themed radio draws its label over the button: a person clicks that.
        self.label_of(radio).click()
        assert radio.is_selected()

    def type(self, name, text):
        field = self.input(name)
        field.clear()
        field.send_keys(text)

    def set_checked(self, name, checked):
        box = self.input(name)
        if box.is_selected() != checked:
            # Horizon's themed checkbox draws its label over the box: a person clicks that.
            self.label_of(box).click()
        assert box.is_selected() == checked

    def label_of(self, field):
        return self.modal.find_element(By.CSS_SELECTOR,
                                       f'label[for="{field.get_attribute("id")}"]')

    def changed_inputs(self):
        """The inputs the form highlights as changed from their defaults."""
        return {each.get_attribute('name')[len('input__'):] for each in self.modal.find_elements(
            By.CSS_SELECTOR, '.hdd-changed [name^="input__"]')}

    def press_run(self):
        self.modal.find_element(By.CSS_SELECTOR, '.modal-footer input[type=submit]').click()

    def submit(self):
        """Run, and land on the page of the operation it started."""
        self.press_run()
        self.user.wait().until(
            lambda d: '/project/deployments/operations/' in d.current_url
            and d.execute_script('return document.readyState') == 'complete')

    def submit_expecting_errors(self):
        """Run, and wait for the form to come back with what is wrong (the modal redrawn)."""
        form = self.modal.find_element(By.TAG_NAME, 'form')
        self.press_run()
        self.user.wait_until_replaced(form, 'the form to come back')
        self.user.wait().until(lambda d: d.find_element(
            By.CSS_SELECTOR, self.MODAL + '.in').is_displayed())
        return self.errors()

    def errors(self):
        """{field name: the error shown under it} for each field the form marks wrong."""
        found = {}
        for group in self.modal.find_elements(By.CSS_SELECTOR, '.form-group.has-error'):
            fields = group.find_elements(By.CSS_SELECTOR, '[name]')
            messages = group.find_elements(By.CSS_SELECTOR, '.help-block, .error')
            name = fields[0].get_attribute('name') if fields else ''
            found[name] = ' '.join(m.text for m in messages if m.text) or group.text
        return found

    def is_open(self):
        shown = self.user.find_all(self.MODAL + '.in')
        return bool(shown) and shown[0].is_displayed()


class ChangeScheduleForm(RunActionForm):
    """Run Action's form for a schedule (Schedules > Change Schedule), in its modal."""

    MODAL = '#change_schedule_modal'


def open_run_action(user, resource_name):
    """Components > the component made by `resource_name` > Run Action: the form's modal."""
    user.click_panel('Components')
    row = user.wait().until(EC.presence_of_element_located((
        By.XPATH, "//table[@id='components']/tbody/tr"
                  f"[td[normalize-space()='{resource_name}']]")))
    row.find_element(By.PARTIAL_LINK_TEXT, 'Run Action').click()
    user.wait().until(lambda d: d.find_element(
        By.CSS_SELECTOR, RunActionForm.MODAL + '.in').is_displayed())
    return RunActionForm(user)


def filter_table(user, table, field, text):
    """Types text into a table's server-side filter box, for the field chosen, and submits
    it. Horizon keeps the filter in the session: a journey empties it before it ends."""
    user.find(f'#{table} .table_search .dropdown-toggle').click()
    user.find(f'#{table} .table_search a[data-select-value="{field}"]').click()
    box = user.find(f'input[name="{table}__filter__q"]')
    box.clear()
    box.send_keys(text)
    page = user.find('html')
    box.send_keys(Keys.ENTER)
    user.wait_until_replaced(page, 'the filtered page')
    user.wait_loaded()


# The Deployments panel

def row_css(deployment_id, table='deployments'):
    return f'table#{table} tbody tr[data-object-id="{deployment_id}"]'


_ROW_READ = """
    var row = document.querySelector(arguments[0]);
    if (!row) { return null; }
    var cells = Array.prototype.map.call(row.querySelectorAll('td'), function (td) {
      return td.innerText.trim(); });
    return {status: row.getAttribute('data-status'), run: cells[1], server: cells[2],
            action: cells[3], status_text: cells[4], reason: cells[5]};
"""


def row(user, deployment_id, table='deployments'):
    """What a deployment's row shows, read in one go (the poller may replace a running row
    at any moment): {status, run, server, action, status_text, reason}, or None."""
    return user.js(_ROW_READ, row_css(deployment_id, table))


_CELLS_READ = """
    var row = document.querySelector(arguments[0]);
    if (!row) { return null; }
    var headers = row.closest('table').querySelectorAll('thead tr:last-child th');
    var cells = {};
    Array.prototype.forEach.call(row.querySelectorAll('td'), function (td, n) {
      var header = headers[n] ? headers[n].innerText.trim() : '';
      if (header) { cells[header] = td.innerText.trim(); }
    });
    return cells;
"""


def cells(user, deployment_id, table):
    """{column header: text} of a deployment's row, read in one go; None without one."""
    return user.js(_CELLS_READ, row_css(deployment_id, table))


def counts(user):
    """An operation page's counts: {status as shown: number}, those shown only."""
    return user.js("""
        var found = {};
        document.querySelectorAll('.hdd-operation-counts [data-count-of]:not(.hidden)')
          .forEach(function (count) {
            var number = count.querySelector('.hdd-count-number').innerText.trim();
            found[count.innerText.trim().slice(number.length).trim()] = parseInt(number, 10);
          });
        return found;""")


def row_status(user, deployment_id, table='deployments'):
    """The status a deployment's row shows, or None without such a row."""
    shown = row(user, deployment_id, table)
    return shown and shown['status']


def row_ids(user, table='deployments'):
    return user.js("return Array.prototype.map.call(document.querySelectorAll(arguments[0]),"
                   " function (row) { return row.getAttribute('data-object-id'); });",
                   f'table#{table} tbody tr[data-object-id]')


def wait_until_statuses(user, ids, status, timeout, table='deployments'):
    def shown(driver):
        return all(row_status(user, each, table) == status for each in ids)
    user.wait(timeout, poll=0.25).until(shown, f'rows {sorted(ids)} to show {status}')


@contextlib.contextmanager
def new_deployments(heat, into):
    """Collects into `into` the deployments that appear in Heat while the block runs."""
    before = {d.id for d in heat.software_deployments.list()}
    yield
    into.extend(d for d in heat.software_deployments.list() if d.id not in before)
