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

"""Journey 5: markup a run's script printed, or an input it was given, shows as text on every
page that shows it, and none of it runs."""

import json

from selenium.webdriver.common.by import By

import heat_deploy_runner as runner
from tests.browser import pages
from tests.integration import waiting

PAYLOAD = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'


def _nothing_ran(user):
    assert user.js('return typeof window.__xss') == 'undefined', user.path()
    assert not user.find_all('img[src="x"]'), user.path()


def test_markup_in_a_runs_output_and_inputs_shows_as_text(demo_user, heat, find_transport,
                                                          demo_resources):
    user = demo_user
    server = demo_resources['db_server_2']
    # BACKUP echoes labels=$labels: the markup goes into stdout through an input.
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=[server], input_values={'labels': {'x': PAYLOAD}, 'pause_seconds': 0},
            transport='TEMP_URL_SIGNAL'))
    run = result.created[0]
    echoed = 'labels=' + json.dumps({'x': PAYLOAD})
    assert echoed in waiting.finished(heat, run.id).output_values['deploy_stdout']

    user.open('/project/deployments/')
    assert pages.row(user, run.id)['status_text'] == 'Complete'
    _nothing_ran(user)

    user.find(pages.row_css(run.id) + ' td a[href*="/project/deployments/"]').click()
    user.wait_for_page(f'/project/deployments/{run.id}/')
    user.click_tab('Outputs')
    assert echoed in user.visible('pre[data-output="deploy_stdout"]').text
    _nothing_ran(user)

    user.click_panel('Servers')
    user.find(f'table#servers tbody a[href="/project/servers/{server}/"]').click()
    user.wait_for_page(f'/project/servers/{server}/')
    shown = {code.text for code in user.find_all('code.hdd-run-input')}
    assert 'labels=' + json.dumps({'x': PAYLOAD}, sort_keys=True) in shown
    _nothing_ran(user)
    # The agent's metadata is fetched when its tab is opened, and put into the page then.
    user.click_tab('Metadata')
    assert '<script>window.__xss=1</script>' in user.visible('pre.hdd-metadata').text
    _nothing_ran(user)

    # Run Again fills the form in with the run's inputs, the markup among them.
    user.open('/project/deployments/')
    user.find(pages.row_css(run.id)).find_element(By.PARTIAL_LINK_TEXT, 'Run Again').click()
    user.wait_for_page(f'/project/components/{demo_resources["mysql"]}/run/')
    labels = user.find('[name="input__labels"]').get_attribute('value')
    assert json.loads(labels) == {'x': PAYLOAD}
    _nothing_ran(user)
