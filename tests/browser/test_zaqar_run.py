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

"""Journey: run the monitoring CHECK with its result sent back through a Zaqar queue, watch it
finish live, and find the transport and its masked signed URL on the run's page."""

from tests.browser import pages

ZAQAR = 'ZAQAR_SIGNED_URL_SIGNAL'


def test_run_check_over_zaqar_and_watch_it_complete_live(demo_user, heat, demo_resources):
    user = demo_user
    server = demo_resources['monitor_server']
    user.open('/project/deployments/')
    user.require_scripts()

    form = pages.open_run_action(user, 'monitoring')
    form.choose_action('CHECK')
    form.tick_servers({server})
    form.choose_transport(ZAQAR)
    form.type('pause_seconds', '3')
    runs = []
    with pages.new_deployments(heat, runs):
        form.submit()

    user.js('window.__noReload = 1')
    [run] = runs
    assert pages.row_status(user, run.id, 'operation') == 'IN_PROGRESS'
    pages.wait_until_statuses(user, [run.id], 'COMPLETE', timeout=60, table='operation')
    assert user.js('return window.__noReload') == 1, 'the page reloaded'

    user.find(pages.row_css(run.id, 'operation') + ' a[href*="/project/deployments/"]').click()
    user.wait_for_page(f'/project/deployments/{run.id}/')
    # How the result came back is under Advanced, on the run's summary.
    user.click_tab('Overview')
    user.find('details.hdd-advanced summary').click()
    page = user.text()
    assert ZAQAR in page
    assert '/v2/queues/monitoring-CHECK-' in page
    signature = heat.software_configs.get(run.config_id).inputs
    secret = next(i['value'] for i in signature if i['name'] == 'deploy_zaqar_signature')
    assert secret not in user.js('return document.documentElement.outerHTML')
    assert '********' in page
    user.click_tab('Outputs')
    assert user.visible('pre[data-output="report"]').text.startswith('disk ')
