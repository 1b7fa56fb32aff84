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

"""The stack's wiring in use: mysql's map shows wordpress taking its dsn, Run Action on
wordpress starts db_dsn at the value the stack gave it, and the map follows the run live."""

from selenium.webdriver.common.by import By

from tests.browser import pages

# Long enough to open the map while the run goes on.
PAUSE_SECONDS = 12
WORDPRESS_NODE = 'a.hdd-map-node[aria-label^="wordpress on demo-web-1"]'


def _node_class(user):
    return user.find(WORDPRESS_NODE).get_attribute('class')


def test_rotate_keys_on_wordpress_takes_mysqls_dsn_and_the_map_follows_it(
        demo_user, heat, demo_resources, demo_stack):
    user = demo_user
    fed = heat.software_deployments.get(
        demo_resources['wordpress_deployment']).input_values['db_dsn']
    user.open(f'/project/components/{demo_resources["mysql"]}/')
    user.require_scripts()

    # mysql's map: wordpress on the web server takes its dsn.
    user.click_tab('Map')
    user.visible('.hdd-map-edges')
    rows = [row.text for row in user.find_all('.hdd-map-edges tbody tr')]
    assert rows == ['mysql on demo-db-1 dsn db_dsn wordpress on demo-web-1']
    assert user.find(WORDPRESS_NODE).is_displayed()

    # Run Action on wordpress: db_dsn is what the stack gave it, and is left so.
    form = pages.open_run_action(user, 'wordpress')
    form.choose_action('ROTATE_KEYS')
    assert form.input('db_dsn').get_attribute('value') == fed
    group = form.input('db_dsn').find_element(
        By.XPATH, './ancestor::div[contains(@class, "form-group")]')
    assert 'From mysql.dsn on demo-db-1' in group.text
    assert 'db_dsn' not in form.changed_inputs()
    form.type('pause_seconds', str(PAUSE_SECONDS))
    runs = []
    with pages.new_deployments(heat, runs):
        form.submit()
    user.wait_loaded()
    assert '/project/deployments/operations/' in user.path()
    [run] = runs
    derived = heat.software_configs.get(run.config_id)
    assert {each['name']: each.get('value') for each in derived.inputs}['db_dsn'] == fed

    # The whole stack's map, opened while the run goes on, turns its node COMPLETE by itself.
    user.open(f'/project/components/stacks/{demo_stack.id}/')
    user.require_scripts()
    assert 'hdd-map-in-progress' in _node_class(user)
    user.js('window.hddSamePage = true;')
    user.wait(timeout=PAUSE_SECONDS + 30).until(
        lambda d: 'hdd-map-complete' in _node_class(user))
    assert user.js('return window.hddSamePage === true;'), 'the page was reloaded'
    node = user.find(WORDPRESS_NODE)
    assert 'Complete' in node.get_attribute('aria-label')
    assert 'ROTATE_KEYS' in node.find_element(By.CSS_SELECTOR, '.hdd-map-status').text
    assert node.get_dom_attribute('href').endswith(f'/project/deployments/{run.id}/')
