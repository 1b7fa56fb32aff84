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

"""The full tour: every page of every panel of the plugin, in headless Chromium, as the demo user.

    python -m tests.browser.tour OUTPUT_DIR

Components (the list, mysql's page tab by tab, the stack's map, Run Action as a page and as
the modal), Deployments (the list, an operation, a run tab by tab, Run Again), Servers (the
list, a server tab by tab, Show Secrets), Software Configs (the list, a config tab by tab,
Create, Deploy, Copy, Delete) and Schedules (the list, a schedule's Change Schedule as a page
and as the modal). It writes a PNG of each page, 1400 pixels wide, into OUTPUT_DIR, numbered
in visiting order (03-component-mysql-overview.png), and checks each page: no error page, no
SEVERE entry in the browser console, no error message, no 'Traceback' and no bare None, null
or undefined in a <dd> or a table cell. It goes on past each problem, lists them all at the
end and exits 1 if there was any.

Like tests.browser.screenshots: with DEVCLOUD_DIR or DEVCLOUD_PORT_BASE set, against that
running cloud (`make demo`'s); without, on a fresh test cloud that it starts and stops
(TESTCLOUD_DIR and TESTCLOUD_PORT_BASE move it). It runs BACKUP on both db servers, and makes
a schedule (deleted at the end) if there is none to look at; on a running cloud the runs stay.
"""

import contextlib
import pathlib
import re
import sys
import time
from urllib import parse

from heatclient import client as heat_client
from selenium.common import exceptions as selenium_exc
from selenium.webdriver.common.by import By

from devcloud import credentials
from devcloud.services import identity
from heat_deploy_runner.scheduling import schedules
from tests.browser import chromium
from tests.browser import pages
from tests.browser import screenshots
from tests.browser.tour_pages import CHANGE_SCHEDULE
from tests.browser.tour_pages import COMPONENT
from tests.browser.tour_pages import CONFIG
from tests.browser.tour_pages import CREATE_CONFIG
from tests.browser.tour_pages import DEPLOY
from tests.browser.tour_pages import FORM
from tests.browser.tour_pages import link_text_to
from tests.browser.tour_pages import link_to
from tests.browser.tour_pages import links_to
from tests.browser.tour_pages import page_problems
from tests.browser.tour_pages import panel_path
from tests.browser.tour_pages import path_of
from tests.browser.tour_pages import row_of
from tests.browser.tour_pages import RUN
from tests.browser.tour_pages import RUN_ACTION
from tests.browser.tour_pages import RUN_AGAIN
from tests.browser.tour_pages import SERVER
from tests.browser.tour_pages import SHOW_SECRETS
from tests.browser.tour_pages import STACK_MAP


# Two short BACKUP runs on a busy two-core machine.
RUN_TIMEOUT = 180
SCHEDULE_PATTERN = '0 3 * * *'
# Room below a modal in its picture, as screenshots.py leaves it.
MODAL_MARGIN = 40
SLUG_LENGTH = 40


def _slug(text):
    return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')[:SLUG_LENGTH].strip('-')


def _short(exc):
    lines = str(exc).strip().splitlines()
    return f'{type(exc).__name__}: {lines[0] if lines else ""}'


class Tour:
    """One walk through the panels: the pages seen, a picture of each, what looked wrong."""

    def __init__(self, browser, user, output_dir):
        self.browser = browser
        self.user = user
        self.output_dir = output_dir
        self.seen = []
        self.problems = []

    def report(self, page, problem):
        self.problems.append((page, problem))
        screenshots.progress(f'PROBLEM {page}: {problem}')

    def _next(self, name):
        self.seen.append(f'{len(self.seen) + 1:02d}-{name}')
        return self.seen[-1]

    def look(self, name, height=None, noticed=()):
        """The page as it stands: checked, then taken. noticed: what the tour found wrong on
        the way to it."""
        page = self._next(name)
        with self.stage(page):
            for problem in [*noticed, *page_problems(self.user)]:
                self.report(page, problem)
            screenshots.shoot(self.browser, self.user, self.output_dir / f'{page}.png', height)

    def look_at_modal(self, name, modal):
        """An open modal, the picture as tall as its dialog."""
        bottom = self.user.js('return document.querySelector(arguments[0] + " .modal-dialog")'
                              '.getBoundingClientRect().bottom', modal)
        self.look(name, height=bottom + MODAL_MARGIN)

    def visit(self, name, path, ready='#main_content', lands=None):
        """Opens path and looks at it; a page that fails to show is reported, not fatal.
        lands: the pattern of the path it should land on, when it redirects by design."""
        with self.stage(name):
            self.user.open(path)
            noticed = []
            landed = parse.urlsplit(self.user.path()).path
            if not re.fullmatch(lands or re.escape(parse.urlsplit(path).path), landed):
                noticed.append(f'opened {path}, landed on {landed}')
            try:
                self.user.visible(ready)
            except selenium_exc.TimeoutException:
                noticed.append(f'{ready} not shown after {pages.PAGE_TIMEOUT} s')
            self.look(name, noticed=noticed)

    def visit_tabs(self, name, path):
        """A page with tabs, each opened by its own ?tab= link, as a bookmark of it would."""
        self.user.open(path)
        tabs = [(path_of(self.user, link), link.get_attribute('data-target'))
                for link in self.user.find_all('ul.nav-tabs a[data-toggle="tab"]')]
        if not tabs:
            self.visit(name, path)
        for tab_path, pane in tabs:
            self.visit(f'{name}-{_slug(pane.split("__")[-1])}', tab_path, ready=pane)

    @contextlib.contextmanager
    def stage(self, name):
        """A part of the tour whose failure is reported and does not stop the rest."""
        try:
            yield
        except Exception as exc:
            self.report(name, f'the tour could not go on here: {_short(exc)}')


def _components(tour):
    """The Components panel's pages: mysql's component id."""
    user = tour.user
    tour.visit('components', panel_path(user, 'Components'))
    row = row_of(user, 'components', 'mysql')
    component = link_to(user, COMPONENT, row)
    stack = link_to(user, STACK_MAP, row)
    stack_name = link_text_to(user, stack, row)
    run_action = link_to(user, RUN_ACTION, row)
    tour.visit_tabs('component-mysql', component)
    tour.visit(f'stack-{_slug(stack_name)}-map', stack, ready='svg.hdd-map-picture')
    tour.visit('run-action-mysql-page', run_action, ready=FORM)
    return component.strip('/').rsplit('/', 1)[-1]


def _backup(tour, db_servers):
    """Run Action's modal on mysql, then its BACKUP's operation page once both runs ended."""
    user = tour.user
    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    form.tick_servers(db_servers)
    form.type('pause_seconds', '0')
    tour.look_at_modal('run-action-mysql-modal', form.MODAL)
    form.submit()
    runs = pages.row_ids(user, 'operation')
    noticed = []
    try:
        pages.wait_until_statuses(user, runs, 'COMPLETE', timeout=RUN_TIMEOUT,
                                  table='operation')
    except selenium_exc.TimeoutException:
        noticed.append(f'its runs were not all COMPLETE after {RUN_TIMEOUT} s')
    tour.look('operation-backup', noticed=noticed)


def _deployments(tour):
    user = tour.user
    tour.visit('deployments', panel_path(user, 'Deployments'))
    run = link_to(user, RUN, 'table#deployments tbody')
    shown = pages.row(user, run.strip('/').rsplit('/', 1)[-1]) or {}
    name = _slug(f"run-{shown.get('action', '')}-{shown.get('server', '')}")
    tour.visit_tabs(name, run)
    # Run Again is Run Action (or the Deploy form) filled in as the run was.
    for again in links_to(user, RUN_AGAIN)[:1]:
        tour.visit(f'{name}-run-again', again, ready=FORM, lands=f'{RUN_ACTION}|{DEPLOY}')


def _servers(tour):
    user = tour.user
    tour.visit('servers', panel_path(user, 'Servers'))
    server = link_to(user, SERVER, 'table#servers tbody')
    name = f'server-{_slug(link_text_to(user, server))}'
    tour.visit_tabs(name, server)
    # Only a server with metadata offers it, on its Metadata tab.
    for reveal in links_to(user, SHOW_SECRETS)[:1]:
        tour.visit(f'{name}-show-secrets', reveal, ready=FORM)


def _config_row(user, component):
    """The row of mysql's own config (a component is a config): a run's derived config, listed
    alike, refuses Deploy. The first row without the component."""
    rows = user.find_all('table#configs tbody tr')
    wanted = f'/project/configs/{component}/'
    return next((row for row in rows if wanted in links_to(user, CONFIG, row)), rows[0])


def _configs(tour, component):
    user = tour.user
    tour.visit('configs', panel_path(user, 'Software Configs'))
    create = link_to(user, CREATE_CONFIG)
    row = _config_row(user, component)
    config = link_to(user, CONFIG, row)
    name = f'config-{_slug(link_text_to(user, config, row))}'
    forms = [(f'{name}-{verb}', path) for verb in ('deploy', 'copy', 'delete')
             for path in links_to(user, re.escape(config) + verb + '/', row)]
    tour.visit_tabs(name, config)
    tour.visit('config-create', create, ready=FORM)
    for form_name, path in forms:
        tour.visit(form_name, path, ready=FORM)


def _schedule_ids(user):
    return {row.get_attribute('data-object-id')
            for row in user.find_all('table#schedules tbody tr[data-object-id]')}


def _make_schedule(user, db_servers):
    """A BACKUP of mysql every day at 03:00 UTC, made from Run Action's Repeat field: its
    name."""
    before = _schedule_ids(user)
    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    form.tick_servers(db_servers)
    form.type('pause_seconds', '0')
    # Repeat is folded with the other ways a run may go, shut while they are at defaults.
    how = form.modal.find_element(By.CSS_SELECTOR, 'details.hdd-how-it-runs')
    if not how.get_attribute('open'):
        how.find_element(By.TAG_NAME, 'summary').click()
    form.field('repeat').send_keys(SCHEDULE_PATTERN)
    # The form is sent once its preview of the next times has come.
    user.wait().until(lambda d: d.find_elements(By.CSS_SELECTOR, 'ul.hdd-schedule-preview li'))
    form.press_run()
    user.wait_for_page('/project/schedules/')
    # The project's first schedule makes its retention schedule too.
    [name] = _schedule_ids(user) - before - {schedules.RETENTION}
    return name


def _delete_schedule(tour, panel, name):
    user = tour.user
    user.open(panel)
    row_css = f'table#schedules tbody tr[data-object-id="{name}"]'
    user.find(row_css + ' .dropdown-toggle').click()
    user.find(row_css + f' button[value="schedules__delete__{name}"]').click()
    dialog = user.visible('#modal_wrapper .modal')
    page = user.find('html')
    dialog.find_element(By.CSS_SELECTOR, '.modal-footer .btn-danger').click()
    user.wait_until_replaced(page, 'the delete to be sent')
    user.wait_loaded()
    if user.find_all(row_css):
        tour.report('schedules', f'the schedule {name} the tour made is still listed after '
                                 f'its Delete Schedule')


def _schedules(tour, db_servers):
    user = tour.user
    panel = panel_path(user, 'Schedules')
    user.open(panel)
    made = None
    if not _schedule_ids(user):
        with tour.stage('schedules'):
            made = _make_schedule(user, db_servers)
            screenshots.progress(f'made the schedule {made}')
    try:
        tour.visit('schedules', panel)
        if not _schedule_ids(user):
            return
        change = link_to(user, CHANGE_SCHEDULE, 'table#schedules tbody')
        schedule = change.split('/')[-3]
        shown = pages.cells(user, schedule, 'schedules') or {}
        name = _slug(f"schedule-{shown.get('Component', '')}-{shown.get('Action', '')}")
        tour.visit(f'{name}-change-page', change, ready=FORM)
        user.open(panel)
        row = user.find(f'table#schedules tbody tr[data-object-id="{schedule}"]')
        row.find_element(By.PARTIAL_LINK_TEXT, 'Change Schedule').click()
        modal = pages.ChangeScheduleForm.MODAL
        user.wait().until(lambda d: d.find_element(By.CSS_SELECTOR, modal + '.in')
                          .is_displayed())
        tour.look_at_modal(f'{name}-change-modal', modal)
    finally:
        if made:
            with tour.stage('schedules'):
                _delete_schedule(tour, panel, made)
                screenshots.progress(f'deleted the schedule {made}')


def take(layout, output_dir):
    """The tour, on the cloud of layout: the Tour, with the pages seen and the problems."""
    output_dir.mkdir(parents=True, exist_ok=True)
    # An earlier tour's pictures would read as this one's.
    for old in output_dir.glob('[0-9][0-9]-*.png'):
        old.unlink()
    session = identity.user_session(layout)
    heat = heat_client.Client('1', session=session, auth=session.auth)
    demo = {r.resource_name: r.physical_resource_id for r in heat.resources.list('demo')}
    db_servers = {demo['db_server_1'], demo['db_server_2']}
    browser = chromium.Chromium()
    try:
        user = pages.User(browser, layout.dashboard_url)
        user.login(credentials.DEMO_USER, credentials.DEMO_PASSWORD)
        # The login page is Horizon's, not the plugin's.
        user.console_log()
        tour = Tour(browser, user, output_dir)
        component = None
        with tour.stage('components'):
            component = _components(tour)
        with tour.stage('operation'):
            _backup(tour, db_servers)
        with tour.stage('deployments'):
            _deployments(tour)
        with tour.stage('servers'):
            _servers(tour)
        with tour.stage('configs'):
            _configs(tour, component)
        with tour.stage('schedules'):
            _schedules(tour, db_servers)
    finally:
        browser.quit()
    return tour


def _summary(tour, seconds):
    print(f'The tour: {len(tour.seen)} pages in {seconds:.0f} s, {len(tour.problems)} '
          f'problems.')
    for page, problem in tour.problems:
        print(f'  {page}: {problem}')


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    started = time.monotonic()
    the_cloud = screenshots.cloud_to_use()
    try:
        tour = take(the_cloud.layout, pathlib.Path(argv[1]).resolve())
    finally:
        the_cloud.stop()
    _summary(tour, time.monotonic() - started)
    return 1 if tour.problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
