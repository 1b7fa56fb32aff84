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

"""Journey 2: cancel a running BACKUP from its row, through Horizon's confirm dialog; the row
says who cancelled it, and the run's page later shows the result the server sent anyway."""

from selenium.webdriver.common.by import By

from devcloud import servers
from tests.browser import pages
from tests.integration import waiting

# Long enough to cancel while the server runs it: the agent starts within about a second, the
# cancel takes at most two polls (1.5 s each) and a page load after that.
PAUSE_SECONDS = 8


def test_cancel_a_running_backup_then_see_its_late_result(cloud, demo_user, heat,
                                                          demo_resources):
    user = demo_user
    user.open('/project/deployments/')
    user.require_scripts()
    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    form.tick_servers({demo_resources['db_server_1']})
    form.type('tables', 'posts')
    form.type('pause_seconds', str(PAUSE_SECONDS))
    runs = []
    with pages.new_deployments(heat, runs):
        form.submit()
    [run] = runs
    # A run is also cancelled from the list of every run (its operation's page: test_operation).
    user.open('/project/deployments/')
    user.watch_status_polls()

    # The one peek at the cloud's insides: the agent marks a run before it starts it.
    marker = servers.deployed_marker(cloud.layout, 'demo-db-1', run.config_id)
    waiting.wait_for('the agent to start the run', marker.exists, timeout=30)
    assert pages.row_status(user, run.id) == 'IN_PROGRESS'

    # Right after a poll the row stays put for 1.5 s: time to click. (Then the poller must
    # leave a row alone while the confirm dialog is open.) While the run runs, Cancel is the
    # row's own button, not in its menu.
    user.wait_for_next_poll()
    row = user.find(pages.row_css(run.id))
    cancel = row.find_element(By.CSS_SELECTOR,
                              f'button[value="deployments__cancel__{run.id}"]')
    assert cancel.is_displayed()
    cancel.click()
    dialog = user.visible('#modal_wrapper .modal')
    assert dialog.find_element(By.CSS_SELECTOR, '.modal-title').text == 'Confirm Cancel Run'
    assert 'may still finish it' in dialog.find_element(By.CSS_SELECTOR, '.modal-body').text
    assert [button.text for button in dialog.find_elements(
        By.CSS_SELECTOR, '.modal-footer .btn')] == ['Keep running', 'Cancel Run']
    # A person reads the dialog for a moment, while the page goes on polling.
    user.wait_for_next_poll()
    page = user.find('html')
    dialog.find_element(By.CSS_SELECTOR, '.modal-footer .btn-danger').click()
    # Confirming posts the table's form: the page goes.
    user.wait_until_replaced(page, 'the cancel to be sent', timeout=10)
    user.wait_loaded()

    user.wait().until(lambda d: pages.row_status(user, run.id) == 'FAILED'
                      and any('Cancelled Run' in each for each in user.toasts()))
    shown = pages.row(user, run.id)
    assert (shown['status_text'], shown['reason'][:19]) == ('Cancelled', 'Cancelled by demo a')
    assert heat.software_deployments.get(run.id).status == 'FAILED'

    user.find(pages.row_css(run.id) + ' td a[href*="/project/deployments/"]').click()
    user.wait_for_page(f'/project/deployments/{run.id}/')

    def late_result_shown(driver):
        # A cancelled run's page does not poll: the person reloads it.
        if driver.find_elements(By.XPATH, "//h3[normalize-space()='Late result']"):
            return True
        driver.refresh()
        return False
    user.wait(45, poll=1).until(late_result_shown, 'the late result on the run\'s page')

    user.click_tab('Outputs')
    late = user.visible('pre[data-output="late-deploy_stdout"]').text
    assert 'retention_days=7 compress=true tables=posts' in late
    assert 'finished it anyway' in user.find('.alert-warning').text
    # What Heat recorded has no exit code, and says why rather than "not reported yet"; one
    # box of commands on the page.
    assert 'No exit code: the run was cancelled before its server reported' in user.find(
        '#deployment_details__outputs').text
    assert len(user.find_all('.hdd-cli')) == 1
    assert heat.software_deployments.get(run.id).status == 'FAILED'
