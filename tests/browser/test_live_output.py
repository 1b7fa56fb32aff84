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

"""Live output: Run Action of mysql's TAIL_LOG (a line a second for about a minute) with "Send
output live", on demo-db-2, whose script hook is heat-deploy-script-hook, and on demo-db-1,
whose is stock. db-2's lines show on its run page and its operation row while it runs, the
reader scrolls back and follows again; db-1's page says its image may lack the hook; both end
COMPLETE with their whole output. No console error all along (conftest.py checks it)."""

from tests.browser import pages

ACTION = 'TAIL_LOG'
LAST = 'Followed the log for 60 checkpoints'
# The run takes about a minute; then the pages reload with the result.
RUN_TIMEOUT = 150

_LINE = ("var cell = document.querySelector(arguments[0]);"
         "return cell ? [cell.textContent, cell.title] : null;")
_BOX = ("var box = document.querySelector('pre[data-stream=\"stdout\"]');"
        "return box && {text: box.textContent, top: box.scrollTop,"
        " end: box.scrollTop + box.clientHeight >= box.scrollHeight - 4,"
        " scrolls: box.scrollHeight > box.clientHeight + 40,"
        " follow: document.querySelector('.hdd-live-follow input').checked};")


def _outputs_tab(user, run_id):
    user.open(f'/project/deployments/{run_id}/?tab=deployment_details__outputs')
    user.require_scripts()


def _running(user):
    return bool(user.find_all('.hdd-detail-poll'))


def _final_stdout(user, run_id):
    """The run's whole stdout once its page has reloaded with the result."""
    user.wait(RUN_TIMEOUT, poll=0.5).until(
        lambda d: not _running(user) and user.find_all('pre[data-output="deploy_stdout"]'),
        f'run {run_id} to end and its page to show the result')
    # The Overview tab's first line, hidden behind the Outputs tab.
    status = user.js("return document.querySelector('.hdd-run-summary dd').textContent;")
    return status.strip(), user.visible('pre[data-output="deploy_stdout"]').text


def test_live_lines_on_the_hooked_server_and_the_sentence_on_the_stock_one(
        demo_user, heat, demo_resources):
    user = demo_user
    db_1, db_2 = demo_resources['db_server_1'], demo_resources['db_server_2']
    user.open('/project/deployments/')
    user.require_scripts()
    form = pages.open_run_action(user, 'mysql')
    form.choose_action(ACTION)
    form.tick_servers({db_1, db_2})
    live = form.field('live')
    form.label_of(live).click()
    assert live.is_selected()
    runs = []
    with pages.new_deployments(heat, runs):
        form.submit()
    by_server = {run.server_id: run.id for run in runs}
    hooked, stock = by_server[db_2], by_server[db_1]

    # The operation's page: demo-db-2's row shows its last line as it comes, the whole of it
    # in the title; demo-db-1's row has none to show.
    line = pages.row_css(hooked, 'operation') + ' .hdd-last-line'
    user.wait(60).until(lambda d: 'checkpoint' in (user.js(_LINE, line) or [''])[0],
                        "demo-db-2's last line on the operation's page")
    text, title = user.js(_LINE, line)
    assert text == title and 'InnoDB: checkpoint' in text, (text, title)
    assert pages.cells(user, hooked, 'operation')['Status'] == 'In Progress'
    assert user.js(_LINE, pages.row_css(stock, 'operation') + ' .hdd-last-line') == ['', '']

    # demo-db-1 (stock) sends nothing while it runs: its page says why, and where the hook is.
    _outputs_tab(user, stock)
    user.wait(60).until(lambda d: user.find('.hdd-live-silent').is_displayed() or not
                        _running(user), "demo-db-1's page to say its image may lack the hook")
    assert _running(user), 'demo-db-1 ended before its page said why no lines came'
    silent = user.find('.hdd-live-silent')
    assert 'heat-deploy-script-hook' in silent.text
    assert 'server-images.html' in silent.find_element('css selector', 'a').get_attribute('href')
    assert user.js(_BOX)['text'] == ''

    # demo-db-2's page: its lines as they come, the newest in view.
    _outputs_tab(user, hooked)
    user.wait(60).until(lambda d: (user.js(_BOX) or {}).get('scrolls'),
                        "demo-db-2's lines to fill their box")
    assert _running(user)
    shown = user.js(_BOX)
    assert 'checkpoint' in shown['text'] and shown['follow'] and shown['end'], shown
    assert not user.find('.hdd-live-silent').is_displayed()
    # The reader scrolls back: Follow goes off, and the view stays as more lines come.
    user.js("document.querySelector('pre[data-stream=\"stdout\"]').scrollTop = 0;")
    user.wait(5).until(lambda d: not user.js(_BOX)['follow'], 'Follow to go off')
    before = user.js(_BOX)['text']
    user.wait(15).until(lambda d: len(user.js(_BOX)['text']) > len(before), 'more lines')
    shown = user.js(_BOX)
    assert shown['top'] == 0 and not shown['end'], shown
    assert shown['text'].startswith(before)
    # Follow again: the newest lines are in view, and stay so.
    user.find('.hdd-live-follow input').click()
    user.wait(5).until(lambda d: user.js(_BOX)['end'], 'the box to follow again')

    # The run ends: its page reloads with the whole output in place of the live text.
    status, stdout = _final_stdout(user, hooked)
    assert status == 'Complete' and LAST in stdout, (status, stdout[-200:])
    assert stdout.count('InnoDB: checkpoint') == 60
    assert not user.find_all('.hdd-live')
    # And demo-db-1's, as ever.
    _outputs_tab(user, stock)
    status, stdout = _final_stdout(user, stock)
    assert status == 'Complete' and LAST in stdout, (status, stdout[-200:])
