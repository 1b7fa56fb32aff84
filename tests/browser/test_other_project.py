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

"""Journey 6: a user of another project sees nothing of the demo project's components,
deployments and servers, and its pages' addresses answer "not found", never a server error."""

import pytest

from tests.browser import pages


def _no_server_error(user):
    source = user.driver.page_source
    assert 'Traceback' not in source and 'Server error' not in user.driver.title, user.path()


# The pages of the demo project's objects answer 404, as they must; Chromium logs that.
@pytest.mark.console_allows(
    r'/project/(deployments|components)/[0-9a-f-]{36}/(run/)? - Failed to load resource: '
    r'the server responded with a status of 404 \(Not Found\)$')
def test_another_projects_user_sees_nothing_of_the_demo_project(other_user, heat,
                                                                demo_resources):
    user = other_user
    components = [demo_resources['mysql'], demo_resources['wordpress']]
    servers = [demo_resources[name] for name in ('db_server_1', 'db_server_2', 'web_server')]
    deployments = [d.id for d in heat.software_deployments.list()]
    a_deployment = demo_resources['mysql_deployment_1']
    assert a_deployment in deployments

    user.open('/project/deployments/')
    for panel, theirs in (('Components', components), ('Deployments', deployments),
                          ('Servers', servers)):
        user.click_panel(panel)
        assert user.http_status() == 200, panel
        source = user.driver.page_source
        assert [each for each in theirs if each in source] == [], panel
        _no_server_error(user)

    for path in (f'/project/deployments/{a_deployment}/',
                 f'/project/components/{components[0]}/',
                 f'/project/components/{components[0]}/run/'):
        user.open(path)
        assert user.http_status() == 404, path
        assert pages.NOT_FOUND_HEADING in user.text(), path
        _no_server_error(user)

    # Heat answers another project's server with an empty list: the page cannot say "not
    # found", but it must show none of the demo project's runs.
    user.open(f'/project/servers/{servers[0]}/')
    assert user.http_status() == 200
    source = user.driver.page_source
    assert [each for each in deployments if each in source] == []
    assert pages.row_ids(user) == []
    assert not user.find_all('svg.hdd-timeline rect.hdd-timeline-run')
    assert 'Inputs each run used' not in user.text()
    assert 'Heat lists no deployments on this server for your project' in user.text()
    _no_server_error(user)
