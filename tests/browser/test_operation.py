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

"""An operation followed as one thing: cancel all of it at once, and run it again on the
servers where it failed, from its page."""

from selenium.webdriver.common.by import By

from tests.browser import pages

# Long enough to cancel while both servers run it (see test_cancel).
PAUSE_SECONDS = 8


def _start_backup(user, heat, demo_resources, **typed):
    servers = {demo_resources['db_server_1'], demo_resources['db_server_2']}
    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    form.tick_servers(servers)
    for name, text in typed.items():
        form.type(name, text)
    runs = []
    with pages.new_deployments(heat, runs):
        form.submit()
    user.wait_loaded()
    assert '/project/deployments/operations/' in user.path()
    return sorted(run.id for run in runs)


def _confirm(user, button_css):
    user.find(button_css).click()
    dialog = user.visible('#modal_wrapper .modal')
    page = user.find('html')
    text = dialog.text
    dialog.find_element(By.CSS_SELECTOR, '.modal-footer .btn-danger').click()
    user.wait_until_replaced(page, 'the confirmed action', timeout=10)
    user.wait_loaded()
    return text


def test_cancel_all_running_cancels_every_run_of_the_operation(demo_user, heat,
                                                               demo_resources):
    user = demo_user
    user.open('/project/deployments/')
    user.require_scripts()
    ids = _start_backup(user, heat, demo_resources, pause_seconds=str(PAUSE_SECONDS))
    assert pages.counts(user) == {'In Progress': 2}

    said = _confirm(user, '#operation__action_cancel_all')

    assert 'every run of this operation that is still running' in said
    assert 'You have selected' not in said and 'Keep running' in said
    assert any('Cancelled Run' in toast for toast in user.toasts())
    assert pages.counts(user) == {'Cancelled': 2}
    assert {heat.software_deployments.get(each).status for each in ids} == {'FAILED'}
    assert not user.find_all('#operation__action_cancel_all:not(.hidden)')
    assert user.find('#operation__action_rerun_failed').is_displayed()


def test_run_again_on_failed_offers_the_form_with_the_failed_servers_ticked(
        demo_user, heat, demo_resources):
    user = demo_user
    user.open('/project/deployments/')
    user.require_scripts()
    ids = _start_backup(user, heat, demo_resources, tables='no_such_table',
                        pause_seconds='0')
    rerun = '#operation__action_rerun_failed'
    assert not user.find(rerun).is_displayed()

    # Both fail live (no such table: exit 3); the page offers to run it again on them.
    pages.wait_until_statuses(user, ids, 'FAILED', timeout=60, table='operation')
    assert pages.counts(user) == {'Failed': 2}
    assert {pages.cells(user, each, 'operation')['Exit Code'] for each in ids} == {'3'}
    user.visible(rerun).click()

    user.wait_for_page(f'/project/components/{demo_resources["mysql"]}/run/')
    form = pages.RunActionForm(user)
    assert {each for each, ticked in form.servers().items() if ticked} == {
        demo_resources['db_server_1'], demo_resources['db_server_2']}
    assert form.input('tables').get_attribute('value') == 'no_such_table'
    form.type('tables', 'users')
    again = []
    with pages.new_deployments(heat, again):
        form.submit()
    user.wait_loaded()
    pages.wait_until_statuses(user, [run.id for run in again], 'COMPLETE', timeout=60,
                              table='operation')
    assert pages.counts(user) == {'Complete': 2}


def test_a_paged_operation_counts_and_follows_the_runs_of_every_page(own_demo_user, heat,
                                                                     demo_resources):
    user = own_demo_user
    user.open('/project/deployments/')
    user.require_scripts()
    # Horizon's page size, as its user settings keep it: one row a page.
    user.driver.add_cookie({'name': 'API_RESULT_PAGE_SIZE', 'value': '1'})
    ids = _start_backup(user, heat, demo_resources, pause_seconds='4')

    shown = pages.row_ids(user, 'operation')
    assert len(shown) == 1 and shown[0] in ids
    assert pages.counts(user) == {'In Progress': 2}
    assert user.find_all('#operation a[href*="marker="]'), 'a link to the next page'
    # The other page's run is followed too: the counts move for both.
    user.wait(60).until(lambda d: pages.counts(user) == {'Complete': 2},
                        "both runs' counts to move to Complete")
    assert pages.row_ids(user, 'operation') == shown
