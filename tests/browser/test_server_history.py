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

"""Journey 3: a server's page lists every run on it, with the inputs each used, and draws
them on a timeline."""

from selenium.webdriver.common.by import By

import heat_deploy_runner as runner
from heat_deploy_runner.running import runs
from tests.browser import pages
from tests.integration import waiting


def _input_texts(heat, run):
    """What the page should show for a run's inputs: name=value as a person reads it, the
    agent's own deploy_* inputs left out."""
    config = heat.software_configs.get(run.config_id)
    shown = set()
    for each in config.inputs:
        if each['name'].startswith('deploy_'):
            continue
        value = each.get('value', each.get('default'))
        shown.add(f"{each['name']}={runs.display_text(each.get('type'), value)}")
    return shown


def test_a_servers_page_lists_every_run_with_its_inputs_and_a_timeline(
        demo_user, heat, find_transport, demo_resources):
    user = demo_user
    server = demo_resources['db_server_1']
    # A run of a custom action with inputs of its own, beside the stack's CREATE.
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=[server],
            input_values={'retention_days': 13, 'tables': 'posts', 'pause_seconds': 0},
            transport='TEMP_URL_SIGNAL'))
    ours = result.created[0]
    waiting.finished(heat, ours.id)

    user.open('/project/deployments/')
    user.click_panel('Servers')
    user.find(f'table#servers tbody a[href="/project/servers/{server}/"]').click()
    user.wait_for_page(f'/project/servers/{server}/')
    runs = heat.software_deployments.list(server_id=server)

    assert ours.id in {run.id for run in runs}
    assert set(pages.row_ids(user)) == {run.id for run in runs}

    inputs_rows = user.find_all('table.hdd-run-inputs tbody tr')
    assert len(inputs_rows) == len(runs)
    by_run = {}
    for row in inputs_rows:
        link = row.find_element(By.CSS_SELECTOR, 'a[href^="/project/deployments/"]')
        run_id = link.get_attribute('href').rstrip('/').split('/')[-1]
        by_run[run_id] = {code.text for code in row.find_elements(By.CSS_SELECTOR,
                                                                  'code.hdd-run-input')}
    assert set(by_run) == {run.id for run in runs}
    for run in runs:
        assert by_run[run.id] == _input_texts(heat, run), run.id
    assert {'retention_days=13', 'tables=posts'} <= by_run[ours.id]

    # Titled by the server's name, on one line: not its whole id.
    assert user.find('.detail-title').text == 'Server demo-db-1'
    # This week's runs are drawn on the last 7 days, with the wider spans a click away.
    assert user.find('.hdd-timeline-spans strong').text == 'Last 7 days'
    assert [each.text for each in user.find_all('.hdd-timeline-spans a')] == [
        'Last day', 'Last 30 days', 'Every run of this page']

    timeline = user.find('svg.hdd-timeline')
    legend = {each.get_attribute('textContent').split(' (')[0]
              for each in timeline.find_elements(By.TAG_NAME, 'text')}
    # A cancelled run is counted as what it is, not as failed.
    assert {'Complete', 'Failed', 'Cancelled', 'In Progress'} <= legend, legend
    user.js('arguments[0].scrollIntoView()', timeline)
    assert timeline.is_displayed()
    box = user.js('var r = arguments[0].getBoundingClientRect(); return [r.width, r.height]',
                  timeline)
    assert box[0] > 300 and box[1] > 50, box
    bars = timeline.find_elements(By.CSS_SELECTOR, 'rect.hdd-timeline-run')
    assert len(bars) == len(runs)
    widths = user.js('return arguments[0].map(function (bar) {'
                     '  return bar.getBoundingClientRect().width; })', bars)
    assert all(width > 0 for width in widths), widths
    titles = [bar.find_element(By.TAG_NAME, 'title').get_attribute('textContent')
              for bar in bars]
    assert sum(title.startswith('mysql-BACKUP: BACKUP, Complete.') for title in titles) >= 1
    # Each bar leads to its run's page, and a keyboard reaches it.
    links = timeline.find_elements(By.CSS_SELECTOR, 'a.hdd-timeline-link')
    assert {link.get_dom_attribute('href').rstrip('/').split('/')[-1] for link in links} == {
        run.id for run in runs}
    user.js('arguments[0].focus()', links[0])
    assert user.js('return document.activeElement') == links[0]
