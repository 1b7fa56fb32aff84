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

"""Journey: a run from Run Action is followed to its end by the workflow service, whose
outcome its operation's page shows; Notify Me subscribes a webhook to the operation, the page
lists it, Remove takes it away."""

from selenium.webdriver.common.by import By

from tests.browser import pages
from tests.browser.test_operation import _start_backup

HOOK = 'https://hooks.example.com/journey'


def test_an_operations_outcome_and_its_notices(demo_user, heat, demo_resources):
    user = demo_user
    user.open('/project/deployments/')
    user.require_scripts()
    ids = _start_backup(user, heat, demo_resources, pause_seconds='0')
    operation_page = user.path()
    assert 'Followed by the workflow service' in user.text()
    pages.wait_until_statuses(user, ids, 'COMPLETE', timeout=60, table='operation')

    # The follower records the outcome once both runs have ended: the page shows it when
    # read again.
    def outcome_shown(driver):
        user.open(operation_page)
        return user.find_all('.hdd-outcome')
    user.wait(timeout=30, poll=1).until(outcome_shown)
    assert '2 COMPLETE' in user.find('.hdd-outcome').text

    user.find('a.hdd-notify-me').click()
    modal = user.visible('#notice_subscribe_modal')
    modal.find_element(By.NAME, 'subscriber').send_keys(HOOK)
    page = user.find('html')
    modal.find_element(By.CSS_SELECTOR, '.modal-footer input[type=submit]').click()
    user.wait_until_replaced(page, 'the subscription to be made')
    user.wait_loaded()
    assert any(f'{HOOK} is told when an operation fails' in toast for toast in user.toasts())
    [shown] = user.find_all('.hdd-notice-subscriber')
    assert shown.text == HOOK

    page = user.find('html')
    user.find('form.hdd-notice-remove button').click()
    user.wait_until_replaced(page, 'the subscription to be removed')
    user.wait_loaded()
    assert not user.find_all('.hdd-notice-subscriber')
    assert 'Nobody is told of it yet.' in user.text()
