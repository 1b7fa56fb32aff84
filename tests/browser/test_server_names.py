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

"""Servers by name: a person tells demo-db-1 from demo-db-2 in the Servers list, the Run Action
form and the Deployments list, finds a server's runs by typing its name in the filter, and a
filter that matches nothing says so."""

from selenium.webdriver.common.by import By

from tests.browser import pages

NAMES = {'db_server_1': 'demo-db-1', 'db_server_2': 'demo-db-2', 'web_server': 'demo-web-1'}


def _server_cells(user, table):
    """The server names (or ids) of the table's rows a person can see."""
    return [cell.text for cell in user.find_all(
        f'table#{table} tbody td a[href^="/project/servers/"]') if cell.is_displayed()]


def test_servers_are_named_in_every_list_and_found_by_name(demo_user, demo_resources):
    user = demo_user
    user.open('/project/servers/')

    shown = _server_cells(user, 'servers')
    for resource, name in NAMES.items():
        assert name in shown, (name, shown)
        short = user.find(f'table#servers tbody a[href="/project/servers/'
                          f'{demo_resources[resource]}/"] + span').text
        assert short == demo_resources[resource][:8]

    # The Servers list filters as the name is typed (Horizon's own script).
    user.find('input[name="servers__filter__q"]').send_keys('demo-db-2')
    user.wait().until(lambda d: _server_cells(user, 'servers') == ['demo-db-2'])

    form = pages.open_run_action(user, 'mysql')
    labels = {box.get_attribute('value'): form.label_of(box).text
              for box in form.modal.find_elements(By.NAME, 'servers')}
    assert labels[demo_resources['db_server_1']].startswith('demo-db-1 (')

    user.open('/project/deployments/')
    try:
        pages.filter_table(user, 'deployments', 'server', 'demo-db-1')
        assert set(_server_cells(user, 'deployments')) == {'demo-db-1'}
        pages.filter_table(user, 'deployments', 'server', 'no-such-server')
        assert 'Nothing matches the filter.' in user.find('table#deployments tbody').text
    finally:
        # Horizon keeps a table's filter in the session: empty it for the next journeys.
        pages.filter_table(user, 'deployments', 'server', '')
