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

"""A user runs a component's custom action from the dashboard, on the real local cloud."""

import re

import pytest

from tests.integration import dashboard
from tests.integration import waiting


def _runs_named(heat, name):
    return {c.id for c in heat.software_configs.list(limit=1000) if c.name == name}


def _containers(swift):
    return {c['name'] for c in swift.get_account(full_listing=True)[1]}


def test_login_lands_on_the_deployments_panel(cloud):
    landing = dashboard.Dashboard(cloud.layout.dashboard_url).login()
    assert landing.status_code == 200
    assert landing.url.endswith('/project/deployments/')


def test_components_page_lists_the_demo_components_with_their_actions(user):
    page = user.get('/project/components/').text
    for expected in ('mysql', 'wordpress', 'BACKUP', 'RESTORE', 'TAIL_LOG', 'ROTATE_KEYS',
                     'FLUSH_CACHE'):
        assert expected in page


def test_run_backup_from_the_form_on_two_servers_until_both_complete(user, heat,
                                                                     demo_resources):
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]
    before = _runs_named(heat, 'mysql-BACKUP')
    form = f'/project/components/{demo_resources["mysql"]}/run/'
    assert user.get(form).status_code == 200

    response = user.post(form, {
        'action': 'BACKUP', 'servers': servers, 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '30', 'input__backup_dir': 'from-dashboard', 'input__retention_days': '5',
        'input__tables': 'users', 'input__labels': '{"via": "dashboard"}',
        'input__pause_seconds': '1', 'input__backup_file': ''})

    assert '/project/deployments/operations/' in response.url
    assert 'Started BACKUP on 2 servers.' in dashboard.messages(response.text)
    new_configs = _runs_named(heat, 'mysql-BACKUP') - before
    runs = [d for d in heat.software_deployments.list() if d.config_id in new_configs]
    assert sorted(d.server_id for d in runs) == sorted(servers)
    # The page it leads to lists the runs of that submit, and only them.
    shown = set(re.findall(r'<tr[^>]*data-object-id="([^"]+)"', response.text))
    assert shown == {d.id for d in runs}

    ids = [d.id for d in runs]

    def both_reported():
        reply = user.get('/project/deployments/status/', params={'id': ids}).json()
        return reply if not reply['running'] else None

    reply = waiting.wait_for('both runs to report through the dashboard', both_reported)
    for deployment_id in ids:
        assert 'data-status="COMPLETE"' in reply['rows'][deployment_id]
    detail = user.get(f'/project/deployments/{ids[0]}/?tab=deployment_details__outputs').text
    # compress was left unticked: the script saw false.
    assert ('backup_dir=from-dashboard retention_days=5 compress=false tables=users'
            in detail)
    assert 'labels={&quot;via&quot;: &quot;dashboard&quot;}' in detail


@pytest.mark.parametrize('field, bad_value', [
    ('input__retention_days', 'seven'),
    ('input__labels', '{not json'),
])
def test_bad_input_shows_an_error_and_creates_nothing(user, heat, swift, demo_resources,
                                                      field, bad_value):
    configs_before = _runs_named(heat, 'mysql-BACKUP')
    containers_before = _containers(swift)
    deployments_before = {d.id for d in heat.software_deployments.list()}
    data = {'action': 'BACKUP', 'servers': [demo_resources['db_server_1']],
            'transport': 'TEMP_URL_SIGNAL', 'timeout': '30', 'input__backup_dir': 'x',
            'input__retention_days': '3', 'input__tables': 'users',
            'input__labels': '{}', 'input__pause_seconds': '0', 'input__backup_file': ''}
    data[field] = bad_value

    response = user.post(f'/project/components/{demo_resources["mysql"]}/run/', data)

    assert response.status_code == 200
    assert 'has-error' in response.text
    assert _runs_named(heat, 'mysql-BACKUP') == configs_before
    assert _containers(swift) == containers_before
    assert {d.id for d in heat.software_deployments.list()} == deployments_before
