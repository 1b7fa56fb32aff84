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

"""What the deployments pages promise besides the journeys: a visible live status line, one
poller, and a run's actions shown once (each check found a bug, since fixed)."""

import heat_deploy_runner as runner
from tests.browser import pages


def _start_backup(heat, find_transport, demo_resources, pause_seconds):
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=[demo_resources['db_server_2']],
            input_values={'pause_seconds': pause_seconds}, transport='TEMP_URL_SIGNAL'))
    return result.created[0]


def test_the_live_status_line_says_when_the_page_last_checked(demo_user, heat, find_transport,
                                                              demo_resources):
    user = demo_user
    run = _start_backup(heat, find_transport, demo_resources, pause_seconds=4)
    user.open('/project/deployments/')
    user.require_scripts()
    assert pages.row_status(user, run.id) == 'IN_PROGRESS'
    line = user.find('.hdd-poll-state')
    # Horizon's own start-up code has run: whatever it hides is hidden now.
    assert line.is_displayed(), 'the live status line is hidden'

    user.wait().until(lambda d: line.text.startswith('Live: last checked at '),
                      'the status line to say when it last checked')
    pages.wait_until_statuses(user, [run.id], 'COMPLETE', timeout=60)
    user.wait().until(lambda d: line.text == 'Nothing is running.')
    # The row the poll redrew offers what a fresh page offers a finished run: no Cancel.
    assert not user.find_all(pages.row_css(run.id) + ' [id$="__action_cancel"]')


def test_the_deployments_page_polls_once_per_interval(demo_user, heat, find_transport,
                                                      demo_resources):
    user = demo_user
    run = _start_backup(heat, find_transport, demo_resources, pause_seconds=4)
    user.open('/project/deployments/')
    user.require_scripts()
    assert pages.row_status(user, run.id) == 'IN_PROGRESS'

    def status_requests(driver):
        starts = user.js(
            "return performance.getEntriesByType('resource').filter(function (e) {"
            f"  return e.name.indexOf('{pages.STATUS_URL}') >= 0; }}).map(function (e) {{"
            "  return e.startTime; });")
        return starts if len(starts) >= 3 else None
    starts = user.wait().until(status_requests, 'three polls')

    gaps = [later - earlier for earlier, later in zip(starts, starts[1:])]
    # The poller waits 1.5 s after each reply.
    assert min(gaps) > 1000, f'status requests started at {starts} ms'


def test_a_runs_page_shows_its_actions_once(demo_user, demo_resources):
    user = demo_user
    run = demo_resources['mysql_deployment_1']
    user.open('/project/deployments/')
    user.find(pages.row_css(run) + ' td a[href*="/project/deployments/"]').click()
    user.wait_for_page(f'/project/deployments/{run}/')

    assert len(user.find_all(f'[id="deployments__row_{run}__action_rerun"]')) == 1
    # Each action button posts the form it is in.
    buttons = user.find_all('button[name="action"]')
    assert buttons and all(user.js("return !!arguments[0].form", b) for b in buttons)


def test_a_long_run_name_wraps_and_the_buttons_stay_on_the_page(demo_user, heat, find_transport,
                                                                demo_resources):
    user = demo_user
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='nightly-' + 'x' * 200,
            server_ids=[demo_resources['db_server_2']], input_values={}, transport='NO_SIGNAL'))
    [run] = result.created
    try:
        user.open('/project/deployments/')
        # At the browser's 1,400 px: the table does not scroll sideways, the row's buttons show.
        sideways = user.js("var table = document.querySelector('table#deployments');"
                           "return table.scrollWidth - table.parentElement.clientWidth;")
        assert sideways <= 0, f'{sideways} px off the right edge'
        button = user.find(pages.row_css(run.id) + ' .actions_column .btn')
        right = user.js('return arguments[0].getBoundingClientRect().right', button)
        assert right <= user.js('return window.innerWidth')
    finally:
        runner.delete(heat, run.id, find_transport)
