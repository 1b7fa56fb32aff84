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

"""Journey 1: run BACKUP on both db servers from the Run Action modal, watch both runs finish
live on the deployments page, and read the overridden values in the run's output. And the
fleet's way: choose the servers by stack and by how BACKUP last went on them."""

from tests.browser import pages
from tests.integration import waiting

# Long enough for the deployments page to show both runs still running when it first loads,
# with room for a slow page on a busy machine: a run takes the agent's poll (up to 1 s), this
# pause, and its signal; the page comes about a second after Run is pressed.
PAUSE_SECONDS = 5


def test_run_backup_on_both_db_servers_and_watch_them_complete_live(
        demo_user, heat, demo_resources):
    user = demo_user
    db_servers = {demo_resources['db_server_1'], demo_resources['db_server_2']}
    user.open('/project/deployments/')
    user.require_scripts()

    form = pages.open_run_action(user, 'mysql')
    # What to run where comes first; how it runs is folded, and a custom action needs no
    # lifecycle confirmation.
    assert not user.find(form.MODAL + ' details.hdd-how-it-runs').get_attribute('open')
    assert not user.find(form.MODAL + ' [name="transport"]').is_displayed()
    form.choose_action('CREATE')
    assert user.find(form.MODAL + ' [name="confirm_lifecycle"] ~ label').is_displayed()
    form.choose_action('BACKUP')
    assert not user.find(form.MODAL + ' [name="confirm_lifecycle"] ~ label').is_displayed()
    # Every server the component is on starts ticked: both db servers.
    assert set(form.servers()) == db_servers
    form.tick_servers(db_servers)
    form.type('retention_days', '4')
    form.set_checked('compress', False)
    form.type('tables', 'users')
    form.type('pause_seconds', str(PAUSE_SECONDS))
    assert form.changed_inputs() == {'retention_days', 'compress', 'tables', 'pause_seconds'}
    runs = []
    with pages.new_deployments(heat, runs):
        form.submit()

    user.js('window.__noReload = 1')
    assert 'Success: Started BACKUP on 2 servers.' in user.toasts()
    assert {run.server_id for run in runs} == db_servers and len(runs) == 2
    ids = [run.id for run in runs]
    # The page the form leads to is the operation's: its runs, and only them, by server name.
    assert '/project/deployments/operations/' in user.path()
    assert user.find('.page-header').text == 'BACKUP on 2 servers'
    assert sorted(pages.row_ids(user, 'operation')) == sorted(ids)
    summary = user.find('.hdd-operation').text
    assert 'Started By\ndemo, ' in summary and 'tables = users' in summary, summary
    assert pages.counts(user) == {'In Progress': 2}
    assert [pages.cells(user, run, 'operation')['Server'].split(' ')[0]
            for run in pages.row_ids(user, 'operation')] == ['demo-db-1', 'demo-db-2']
    for run in ids:
        shown = pages.cells(user, run, 'operation')
        assert shown['Status'] == 'In Progress' and shown['Exit Code'] == '', shown
    # A running row's elapsed time ticks up and its time left down, counted in the browser.
    # Read in one script each time: the poller may replace the row between a find and a read.
    read = 'var cell = document.querySelector(arguments[0]); return cell && cell.innerText;'
    for ticking in (f'{pages.row_css(ids[0], "operation")} .hdd-elapsed',
                    f'{pages.row_css(ids[0], "operation")} .hdd-elapsed[data-count="down"]'):
        first = user.js(read, ticking)
        user.wait(5).until(lambda d: user.js(read, ticking) not in (first, None),
                           'the elapsed time and the time left to tick')
    assert user.find('#operation__action_cancel_all').is_displayed()

    pages.wait_until_statuses(user, ids, 'COMPLETE', timeout=60, table='operation')

    assert user.js('return window.__noReload') == 1, 'the page reloaded'
    assert pages.counts(user) == {'Complete': 2}
    assert not user.find_all('#operation__action_cancel_all:not(.hidden)')
    assert not user.find_all('#operation__action_rerun_failed:not(.hidden)')
    # The rows the poll redrew offer what a fresh page offers finished runs: no Cancel.
    assert not user.find_all('#operation [id$="__action_cancel"]')
    for run in ids:
        shown = pages.cells(user, run, 'operation')
        assert (shown['Status'], shown['Exit Code'], shown['Time Left']) == (
            'Complete', '0', ''), shown
    first = next(run.id for run in runs if run.server_id == demo_resources['db_server_1'])
    user.find(pages.row_css(first, 'operation') + ' a[href*="tab=deployment_details__outputs"]'
              ).click()
    user.wait_for_page(f'/project/deployments/{first}/')
    stdout = user.visible('pre[data-output="deploy_stdout"]').text
    assert 'retention_days=4 compress=false tables=users' in stdout


def test_the_servers_where_backup_last_failed_are_chosen_by_stack_and_last_status(
        demo_user, heat, demo_resources, start_run):
    user = demo_user
    db_1, db_2 = demo_resources['db_server_1'], demo_resources['db_server_2']
    # The last BACKUP completed on demo-db-1 and failed on demo-db-2 (no such table: exit 3).
    for server, tables in (('db_server_1', 'users'), ('db_server_2', 'nosuch')):
        run, _config = start_run('mysql', 'BACKUP', server, tables=tables, pause_seconds=0)
        waiting.finished(heat, run.id)
    user.open('/project/deployments/')
    user.require_scripts()

    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    assert form.servers_counted() == '2 of 2 shown, 2 chosen'
    form.filter_servers(stack='demo', last='FAILED')
    assert form.shown_servers() == [db_2]
    assert form.servers_counted() == '1 of 2 shown, 2 chosen (1 of them not shown)'
    form.choose('shown')
    assert form.servers() == {db_1: False, db_2: True}
    assert form.servers_counted() == '1 of 2 shown, 1 chosen'
    # The filters add up: demo-db-1's last BACKUP did not fail.
    form.filter_servers(name='db-1')
    assert form.shown_servers() == []
    form.filter_servers(name='', last='')
    assert set(form.shown_servers()) == {db_1, db_2} and form.servers()[db_1] is False
    form.type('pause_seconds', '3')
    runs = []
    with pages.new_deployments(heat, runs):
        form.submit()

    user.wait_loaded()
    assert [run.server_id for run in runs] == [db_2]
    assert pages.counts(user) == {'In Progress': 1}
    user.wait(60).until(lambda d: pages.counts(user) == {'Complete': 1},
                        "the operation's counts to move to Complete")
