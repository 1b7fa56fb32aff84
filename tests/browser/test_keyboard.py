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

"""A keyboard-only run of BACKUP: from the Components list to the run's output and its bar on
the server's timeline, with Tab, Space, arrow keys and Enter only; every field of Run Action,
Horizon's themed checkboxes and radio buttons among them, reachable, its help text shown."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser import pages

# What the focused element is, in words a failure can show.
_FOCUSED = """
    var el = document.activeElement;
    if (!el) { return ''; }
    return [el.tagName.toLowerCase(), el.getAttribute('name') || '',
            el.getAttribute('value') || '', el.getAttribute('href') || '',
            (el.innerText || '').trim().slice(0, 40)].join('|');
"""
MAX_TABS = 150


def _press(user, *keys):
    ActionChains(user.driver).send_keys(*keys).perform()


def _type_over(user, text):
    """Replaces the focused field's text, as Ctrl+A and typing do."""
    ActionChains(user.driver).key_down(Keys.CONTROL).send_keys('a').key_up(Keys.CONTROL) \
        .send_keys(text).perform()


def _tab_to(user, wanted, what):
    """Tab until the focused element matches `wanted` (its _FOCUSED description); the
    descriptions of what was focused on the way."""
    seen = []
    for _ in range(MAX_TABS):
        _press(user, Keys.TAB)
        focused = user.js(_FOCUSED)
        seen.append(focused)
        if wanted(focused):
            return seen
    raise AssertionError(f'Tab never reached {what}; it went through {seen}')


def _field(focused):
    return focused.split('|')[1]


def test_a_keyboard_alone_runs_backup_and_reaches_its_output(
        demo_user, heat, demo_resources):
    user = demo_user
    db_1 = demo_resources['db_server_1']
    user.open('/project/components/')
    user.require_scripts()
    mysql_run = f'/project/components/{demo_resources["mysql"]}/run/'
    _tab_to(user, lambda focused: focused.split('|')[3] == mysql_run, 'mysql\'s Run Action')
    _press(user, Keys.ENTER)
    form = pages.RunActionForm(user)
    user.wait().until(lambda d: form.is_open(), 'the Run Action form')

    # One pass down the form to its Run button, doing on the way what a person would: the
    # action chosen by typing its name, a server unticked with Space, an input typed over.
    def unticked(focused):
        return focused.split('|')[1:3] == ['servers', demo_resources['db_server_2']]

    todo = {
        'action': lambda: _press(user, 'BACKUP'),
        'input__tables': lambda: _type_over(user, 'users'),
        'input__pause_seconds': lambda: _type_over(user, '0'),
    }
    # The form opens with its first field focused.
    focused, seen = user.js(_FOCUSED), []
    for _ in range(MAX_TABS):
        seen.append(focused)
        if focused.startswith('input|') and focused.split('|')[2] == 'Run':
            break
        if unticked(focused):
            _press(user, Keys.SPACE)
        elif focused.startswith('summary|') and not user.js(
                'return document.activeElement.parentElement.open'):
            # "How it runs", folded: Enter opens it, and Tab goes on through its fields.
            _press(user, Keys.ENTER)
        elif _field(focused) in todo:
            todo.pop(_field(focused))()
        _press(user, Keys.TAB)
        focused = user.js(_FOCUSED)
    else:
        raise AssertionError(f'Tab never reached the Run button; it went through {seen}')
    assert not todo, (sorted(todo), seen)
    reached = {_field(each) for each in seen}
    # Every field shown: a lifecycle action's confirmation is not, for BACKUP.
    fields = {each.get_attribute('name') for each in form.modal.find_elements(
        By.CSS_SELECTOR, 'form [name]:not([type=hidden])') if user.js(
            "return arguments[0].closest('.form-group').getClientRects().length > 0", each)}
    assert 'confirm_lifecycle' not in fields
    assert fields <= reached, fields - reached
    assert form.field('action').get_attribute('value') == 'BACKUP'
    assert {each for each, ticked in form.servers().items() if ticked} == {db_1}
    # Help text is shown, not only in a tooltip a keyboard cannot reach.
    assert 'How long the server may take' in form.modal.text

    runs = []
    with pages.new_deployments(heat, runs):
        _press(user, Keys.ENTER)
        user.wait().until(lambda d: '/project/deployments/operations/' in d.current_url,
                          'the operation\'s page')
        user.wait_loaded()
    [run] = runs
    assert run.server_id == db_1
    pages.wait_until_statuses(user, [run.id], 'COMPLETE', timeout=60, table='operation')

    # The run's output, then its bar on the server's timeline, both reached with Tab.
    _tab_to(user, lambda focused: 'tab=deployment_details__outputs' in focused.split('|')[3],
            'the run\'s output link')
    _press(user, Keys.ENTER)
    user.wait_for_page(f'/project/deployments/{run.id}/')
    assert 'tables=users' in user.visible('pre[data-output="deploy_stdout"]').text
    user.open(f'/project/servers/{db_1}/')
    _tab_to(user, lambda focused: focused.split('|')[3] == f'/project/deployments/{run.id}/'
            and focused.startswith('a|'), 'the run\'s bar on the timeline')
    assert user.js('return document.activeElement.closest("svg") !== null')
    _press(user, Keys.ENTER)
    user.wait_for_page(f'/project/deployments/{run.id}/')
