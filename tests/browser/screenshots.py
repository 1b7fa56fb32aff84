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

"""The README's screenshots, taken in headless Chromium from the demo data.

    python -m tests.browser.screenshots OUTPUT_DIR

With DEVCLOUD_DIR or DEVCLOUD_PORT_BASE set, against that running cloud (`make demo`'s); without,
on a fresh test cloud that it starts and stops (TESTCLOUD_DIR and TESTCLOUD_PORT_BASE move it,
as for the tests). Each PNG is 1400 pixels wide. It runs one BACKUP on both db servers, so that
the deployments page has running and finished rows.
"""

import os
import pathlib
import shutil
import sys
import time

from heatclient import client as heat_client
import requests

from devcloud import cloud as cloud_mod
from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud.services import identity
from tests.browser import chromium
from tests.browser import pages

TEST_PORT_BASE = 21000
# Long enough for the deployments page to be taken while both runs still run.
PAUSE_SECONDS = 8
MAX_HEIGHT = 1800


def progress(message):
    print(f'[screenshots] {message}', file=sys.stderr, flush=True)


class _RunningCloud:
    def __init__(self, layout):
        self.layout = layout

    def stop(self):
        pass


def cloud_to_use():
    if os.environ.get('DEVCLOUD_DIR') or os.environ.get('DEVCLOUD_PORT_BASE'):
        layout = layout_mod.Layout.from_environment()
        try:
            requests.get(layout.url('horizon', '/auth/login/'), timeout=10).raise_for_status()
        except requests.RequestException as exc:
            raise SystemExit(f'No dashboard answers at {layout.dashboard_url} ({exc}): start '
                             f'it with "make demo", with the same DEVCLOUD_DIR and '
                             f'DEVCLOUD_PORT_BASE.')
        progress(f'using the running cloud at {layout.dashboard_url}')
        return _RunningCloud(layout)
    data_dir = pathlib.Path(os.environ.get('TESTCLOUD_DIR')
                            or layout_mod.REPO_ROOT / 'build' / 'testcloud')
    shutil.rmtree(data_dir, ignore_errors=True)
    layout = layout_mod.Layout(data_dir, int(os.environ.get('TESTCLOUD_PORT_BASE',
                                                            TEST_PORT_BASE)))
    progress(f'starting a test cloud in {data_dir}, ports from {layout.port_base}')
    the_cloud = cloud_mod.Cloud(layout, progress)
    the_cloud.start()
    return the_cloud


def shoot(browser, user, path, height=None):
    """The page as it stands, the viewport as tall as the page (or `height`)."""
    if height is None:
        height = user.js('return Math.ceil(document.documentElement.scrollHeight)')
    browser.set_viewport(chromium.WIDTH, max(chromium.HEIGHT, min(int(height), MAX_HEIGHT)))
    # No focus ring or caret in the picture.
    user.js('window.scrollTo(0, 0); document.activeElement && document.activeElement.blur();')
    # The resized viewport has been laid out and painted once more.
    user.js('return new Promise(function (done) {'
            '  requestAnimationFrame(function () { requestAnimationFrame(done); }); });')
    browser.driver.save_screenshot(str(path))
    browser.set_viewport(chromium.WIDTH, chromium.HEIGHT)
    progress(f'wrote {path}')


def take(layout, output_dir):
    output_dir.mkdir(parents=True, exist_ok=True)
    session = identity.user_session(layout)
    heat = heat_client.Client('1', session=session, auth=session.auth)
    demo = {r.resource_name: r.physical_resource_id
            for r in heat.resources.list('demo')}
    db_servers = {demo['db_server_1'], demo['db_server_2']}
    browser = chromium.Chromium()
    try:
        user = pages.User(browser, layout.dashboard_url)
        user.login(credentials.DEMO_USER, credentials.DEMO_PASSWORD)
        user.require_scripts()

        user.click_panel('Components')
        shoot(browser, user, output_dir / 'components.png')
        stack = heat.stacks.get('demo').id
        user.find(f'table#components tbody a[href="/project/components/stacks/{stack}/"]').click()
        user.wait_for_page(f'/project/components/stacks/{stack}/')
        user.visible('svg.hdd-map-picture')
        shoot(browser, user, output_dir / 'stack-map.png')

        form = pages.open_run_action(user, 'mysql')
        form.choose_action('BACKUP')
        form.tick_servers(db_servers)
        form.type('retention_days', '14')
        form.set_checked('compress', False)
        form.type('tables', 'users')
        form.type('pause_seconds', str(PAUSE_SECONDS))
        bottom = user.js('return document.querySelector(arguments[0] + " .modal-dialog")'
                         '.getBoundingClientRect().bottom', form.MODAL)
        shoot(browser, user, output_dir / 'run-action.png', height=bottom + 40)

        runs = []
        with pages.new_deployments(heat, runs):
            form.submit()
        ids = [run.id for run in runs]
        assert all(pages.row_status(user, each, 'operation') == 'IN_PROGRESS' for each in ids)
        shoot(browser, user, output_dir / 'operation.png')
        user.open('/project/deployments/')
        assert all(pages.row_status(user, each) == 'IN_PROGRESS' for each in ids)
        shoot(browser, user, output_dir / 'deployments.png')

        pages.wait_until_statuses(user, ids, 'COMPLETE', timeout=120)
        first = next(run.id for run in runs if run.server_id == demo['db_server_1'])
        user.find(pages.row_css(first) + ' td a[href*="/project/deployments/"]').click()
        user.wait_for_page(f'/project/deployments/{first}/')
        user.visible('pre[data-tail="deploy_stdout"]')
        shoot(browser, user, output_dir / 'run.png')

        user.click_panel('Servers')
        server = demo['db_server_1']
        user.find(f'table#servers tbody a[href="/project/servers/{server}/"]').click()
        user.wait_for_page(f'/project/servers/{server}/')
        user.visible('svg.hdd-timeline')
        shoot(browser, user, output_dir / 'server-history.png')
    finally:
        browser.quit()


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    started = time.monotonic()
    the_cloud = cloud_to_use()
    try:
        take(the_cloud.layout, pathlib.Path(argv[1]).resolve())
    finally:
        the_cloud.stop()
    progress(f'done in {time.monotonic() - started:.0f} s')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
