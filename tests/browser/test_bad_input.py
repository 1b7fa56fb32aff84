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

"""Journey 4: the Run Action form with bad values shows what is wrong in the modal, and
nothing is created: no deployment, no derived config, no Swift container.

What a person can do in Chromium decides how each case is driven:
- a Number input is an <input type=number>: typing "seven" leaves its value empty and marks it
  badInput, and Chromium itself refuses to submit the form ("Please enter a number."). The
  person can go no further; the server's own check is reached by what a browser without
  number inputs would send (the field made a text field by script).
- a Json input is a textarea: invalid JSON is typed as it is, and the server answers.
- an input without a default must be given: left empty, the form must not go through.
"""

import contextlib

from selenium.webdriver.common.by import By

from tests.browser import pages


@contextlib.contextmanager
def nothing_created(heat, swift):
    def state():
        return ({d.id for d in heat.software_deployments.list()},
                {c.id for c in heat.software_configs.list(limit=1000)},
                {c['name'] for c in swift.get_account(full_listing=True)[1]})
    before = state()
    yield
    after = state()
    for what, old, new in zip(('deployments', 'software configs', 'Swift containers'),
                              before, after):
        assert new == old, f'new {what}: {sorted(new - old)}'


def _mysql_backup_form(user, demo_resources):
    user.open('/project/deployments/')
    user.require_scripts()
    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    form.tick_servers({demo_resources['db_server_1']})
    form.type('pause_seconds', '0')
    return form


def test_text_in_a_number_input_is_refused(demo_user, heat, swift, demo_resources):
    user = demo_user
    with nothing_created(heat, swift):
        form = _mysql_backup_form(user, demo_resources)
        form.type('retention_days', 'seven')
        field = form.input('retention_days')
        assert user.js('return [arguments[0].value, arguments[0].validity.badInput]',
                       field) == ['', True]
        page_form = form.modal.find_element(By.TAG_NAME, 'form')
        form.press_run()
        # Chromium keeps the form and says why; nothing was sent.
        assert user.js('return arguments[0].validationMessage', field)
        assert form.is_open() and user.js('return document.contains(arguments[0])', page_form)

        user.js("arguments[0].type = 'text'; arguments[0].value = 'seven';", field)
        errors = form.submit_expecting_errors()

        assert set(errors) == {'input__retention_days'}, errors
        assert 'seven' in errors['input__retention_days']


def test_invalid_json_is_refused(demo_user, heat, swift, demo_resources):
    user = demo_user
    with nothing_created(heat, swift):
        form = _mysql_backup_form(user, demo_resources)
        form.type('labels', '{not json')

        errors = form.submit_expecting_errors()

        assert set(errors) == {'input__labels'}, errors
        assert 'JSON' in errors['input__labels']
        # What the person typed is still there to correct.
        assert form.input('labels').get_attribute('value') == '{not json'


def test_an_input_without_a_default_must_be_given(demo_user, heat, swift):
    user = demo_user
    with nothing_created(heat, swift):
        user.open('/project/deployments/')
        user.require_scripts()
        form = pages.open_run_action(user, 'wordpress')
        form.choose_action('ROTATE_KEYS')
        field = form.input('db_dsn')
        # The stack fed it from mysql's dsn, and the form starts at that value: emptied, it
        # must be given again.
        assert field.get_attribute('value').startswith('mysql://')
        field.clear()
        page_form = form.modal.find_element(By.TAG_NAME, 'form')

        if user.js('return arguments[0].validity.valueMissing', field):
            # Chromium refuses a required field left empty, before anything is sent...
            form.press_run()
            assert form.is_open() and user.js('return document.contains(arguments[0])',
                                              page_form)
            # ...and the server must too, for a browser that does not check.
            user.js("arguments[0].removeAttribute('required')", field)
            errors = form.submit_expecting_errors()
        else:
            form.press_run()
            # The modal comes back with the form, or the page goes to the deployments.
            user.wait_until_replaced(page_form, 'the form to be answered')
            user.wait().until(lambda d: form.is_open()
                              or d.current_url.split('?')[0].endswith('/project/deployments/'))
            user.wait_loaded()
            assert form.is_open(), (
                f'the form went through with db_dsn empty; the page shows {user.path()}: '
                f'{user.toasts()}')
            errors = form.errors()
        assert 'input__db_dsn' in errors, errors
