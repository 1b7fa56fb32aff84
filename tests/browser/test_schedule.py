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

"""Journey: schedule a BACKUP from Run Action (its next five times shown as the pattern is
typed), change it to every minute, see it fire and run on the Schedules page, pause it, delete
it."""

import time

from selenium.webdriver.common.by import By

from heat_deploy_runner.scheduling import schedules as runner_schedules
from tests.browser import pages

# Mistral fires 1 to 2 s before each minute.
FIRING_SECONDS = 90


def _row(user, name):
    return user.find(f'table#schedules tbody tr[data-object-id="{name}"]')


def test_schedule_a_backup_see_it_fire_pause_and_delete_it(demo_user, demo_resources,
                                                           made_schedules):
    user = demo_user
    user.open('/project/deployments/')
    user.require_scripts()
    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    form.tick_servers({demo_resources['db_server_1'], demo_resources['db_server_2']})
    form.type('pause_seconds', '0')
    # The first of January at 03:00: it does not fire until changed below.
    form.field('repeat').send_keys('0 3 1 1 *')
    user.wait().until(lambda d: len(d.find_elements(
        By.CSS_SELECTOR, 'ul.hdd-schedule-preview li')) == 5)

    form.press_run()
    user.wait_for_page('/project/schedules/')
    user.wait_loaded()
    assert any('Scheduled BACKUP on 2 servers.' in toast for toast in user.toasts())
    # The project's first schedule also made its retention schedule (not this journey's).
    [name] = [row.get_attribute('data-object-id') for row in user.find_all(
        'table#schedules tbody tr[data-object-id^="hdd-"]')
        if row.get_attribute('data-object-id') != runner_schedules.RETENTION]
    made_schedules.append(name)
    assert '0 3 1 1 * (cron, UTC)' in _row(user, name).text

    # Changed to every minute, with another directory: the form opens as it was made.
    _row(user, name).find_element(By.PARTIAL_LINK_TEXT, 'Change Schedule').click()
    user.wait().until(lambda d: d.find_element(
        By.CSS_SELECTOR, pages.ChangeScheduleForm.MODAL + '.in').is_displayed())
    form = pages.ChangeScheduleForm(user)
    assert form.field('repeat').get_attribute('value') == '0 3 1 1 *'
    assert form.input('pause_seconds').get_attribute('value') == '0'
    form.field('repeat').clear()
    form.field('repeat').send_keys('* * * * *')
    form.type('backup_dir', 'changed')
    page = user.find('html')
    form.press_run()
    user.wait_until_replaced(page, 'the change to be saved')
    user.wait_loaded()
    assert any('Changed the schedule of BACKUP.' in toast for toast in user.toasts())
    assert '* * * * * (cron, UTC)' in _row(user, name).text
    assert 'backup_dir = changed' in _row(user, name).text

    # A person reloads the page until the schedule has fired and its operation has run.
    deadline = time.monotonic() + FIRING_SECONDS
    while 'Every batch has run' not in _row(user, name).text:
        assert time.monotonic() < deadline, 'the schedule did not fire and run'
        time.sleep(5)
        user.open('/project/schedules/')

    page = user.find('html')
    _row(user, name).find_element(By.CSS_SELECTOR, '.dropdown-toggle').click()
    _row(user, name).find_element(
        By.CSS_SELECTOR, f'button[value="schedules__pause__{name}"]').click()
    user.wait_until_replaced(page, 'the pause to be sent', timeout=15)
    user.wait_loaded()
    assert 'Paused' in _row(user, name).text

    # Its operation ran: BACKUP on both servers, from the row's link.
    _row(user, name).find_element(
        By.CSS_SELECTOR, 'a[href*="/project/deployments/operations/"]').click()
    user.wait_loaded()
    assert user.find('.page-header h1').text == 'BACKUP on 2 servers'

    user.open('/project/schedules/')
    _row(user, name).find_element(By.CSS_SELECTOR, '.dropdown-toggle').click()
    _row(user, name).find_element(
        By.CSS_SELECTOR, f'button[value="schedules__delete__{name}"]').click()
    dialog = user.visible('#modal_wrapper .modal')
    page = user.find('html')
    dialog.find_element(By.CSS_SELECTOR, '.modal-footer .btn-danger').click()
    user.wait_until_replaced(page, 'the delete to be sent', timeout=15)
    user.wait_loaded()
    assert not user.find_all(f'table#schedules tbody tr[data-object-id="{name}"]')
