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

"""A running run's own page keeps polling (one status request every 1.5 s, the "last checked"
time following), and when the server reports it reloads itself to show the result; with no
error in the browser's console all along (tests/browser/conftest.py checks that)."""

import time

import pytest
from selenium.webdriver.common.by import By

from tests.browser import pages

# Long enough for several polls while the server runs it: the agent starts within about a
# second, and the page polls every 1.5 s.
PAUSE_SECONDS = 8

_STATUS_REQUESTS = (
    "return performance.getEntriesByType('resource').filter(function (e) {"
    f"  return e.name.indexOf('{pages.STATUS_URL}') >= 0; }}).length;")


def test_a_running_runs_page_polls_until_the_result_then_shows_it(demo_user, start_run):
    user = demo_user
    run, _config = start_run('mysql', 'BACKUP', 'db_server_1', pause_seconds=PAUSE_SECONDS,
                             tables='posts')
    user.open(f'/project/deployments/{run.id}/')
    user.require_scripts()
    line = user.find('.hdd-detail-poll')
    assert line.is_displayed()
    assert line.text == 'Running. This page updates when the server reports.'
    # Gone when the page reloads.
    user.js('window.__hddSamePage = true;')

    # Each poll's reply rewrites the line; the "last checked" times it shows, as they change.
    shown = []

    def three_polls(driver):
        text = line.text
        if text.startswith('Running.') and 'last checked at' in text and (
                not shown or shown[-1] != text):
            shown.append(text)
        return user.js(_STATUS_REQUESTS) >= 3
    user.wait(PAUSE_SECONDS, poll=0.1).until(three_polls, 'three status requests')
    assert user.js('return window.__hddSamePage') is True, 'the page reloaded too early'
    assert shown, 'the line never said when it last checked'
    # At least 3 s of polls: the time the line shows has moved on since the first reply.
    user.wait(5, poll=0.1).until(lambda d: line.text != shown[0],
                                 'the "last checked" time to change')

    # The server reports: the page reloads once, and shows the result.
    user.wait(60, poll=0.25).until(
        lambda d: d.execute_script('return window.__hddSamePage') is None
        and d.execute_script('return document.readyState') == 'complete',
        'the page to reload when the run finished')
    assert user.path() == f'/project/deployments/{run.id}/'
    assert not user.find_all('.hdd-detail-poll'), 'a finished run\'s page still polls'
    status = user.driver.find_element(
        By.XPATH, "//dt[normalize-space()='Status']/following-sibling::dd[1]").text
    assert status == 'Complete'
    user.click_tab('Outputs')
    stdout = user.visible('pre[data-output="deploy_stdout"]').text
    assert 'tables=posts' in stdout


@pytest.mark.console_allows(r'status of 401')
def test_a_poll_that_meets_a_lost_session_asks_to_log_in_again(own_demo_user, start_run):
    user = own_demo_user
    run, _config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=30,
                             tables='posts')
    user.open(f'/project/deployments/{run.id}/')
    user.require_scripts()
    line = user.find('.hdd-detail-poll')
    user.wait(10, poll=0.1).until(lambda d: 'last checked at' in line.text, 'a first poll')

    # The session ends (it expired, or the user logged out in another tab).
    user.driver.delete_cookie('sessionid')

    user.wait(20, poll=0.2).until(lambda d: 'Your session has ended' in line.text,
                                  'the page to say the session has ended')
    link = line.find_element(By.TAG_NAME, 'a')
    assert link.text == 'Log in again'
    assert '/auth/login/' in link.get_attribute('href')
    # And it stops asking: no poll goes out in the next 4 s (it would retry after 1.5 s).
    polls = user.js(_STATUS_REQUESTS)
    time.sleep(4)
    assert user.js(_STATUS_REQUESTS) == polls
