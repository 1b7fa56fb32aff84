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

"""The components map of a stack, read from the real cloud's Horizon: which component the
stack deploys on which server (the boxes) and what feeds what (the table under them).

The demo stack wires one deployment's output straight into another's input. The second
stack, made here, takes the paths Heat makes harder to follow: an output that leaves a
provider template's nested stack, a deployment group's members, and an order without data.
"""

import html
import json
import re
import time

from heatclient import exc as heat_exc
import pytest

STACK = 'map-test'
SCRIPT = {'actions': ['CREATE'], 'tool': 'script', 'config': '#!/bin/sh\necho ok\n'}
# NO_SIGNAL: no agent reads these servers, and the stack completes without one.
DB_TEMPLATE = {
    'heat_template_version': '2018-08-31',
    'parameters': {'server': {'type': 'string'}},
    'resources': {
        'db': {'type': 'OS::Heat::SoftwareComponent', 'properties': {
            'outputs': [{'name': 'dsn'}], 'configs': [SCRIPT]}},
        'db_deployment': {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
            'config': {'get_resource': 'db'}, 'server': {'get_param': 'server'},
            'signal_transport': 'NO_SIGNAL'}}},
    'outputs': {'dsn': {'value': {'get_attr': ['db_deployment', 'dsn']}}}}


def _server(name):
    return {'type': 'OS::Heat::DeployedServer',
            'properties': {'name': name, 'software_config_transport': 'POLL_TEMP_URL'}}


TEMPLATE = {
    'heat_template_version': '2018-08-31',
    'resources': {
        'db_server': _server('map-db'),
        'web_1': _server('map-web-1'),
        'web_2': _server('map-web-2'),
        'cache_server': _server('map-cache'),
        'db_stack': {'type': 'db.yaml',
                     'properties': {'server': {'get_resource': 'db_server'}}},
        'web': {'type': 'OS::Heat::SoftwareComponent', 'properties': {
            'inputs': [{'name': 'db_dsn'}], 'configs': [SCRIPT]}},
        'web_deployments': {'type': 'OS::Heat::SoftwareDeploymentGroup', 'properties': {
            'config': {'get_resource': 'web'},
            'servers': {'web1': {'get_resource': 'web_1'},
                        'web2': {'get_resource': 'web_2'}},
            'input_values': {'db_dsn': {'get_attr': ['db_stack', 'dsn']}},
            'signal_transport': 'NO_SIGNAL'}},
        'cache': {'type': 'OS::Heat::SoftwareComponent', 'properties': {
            'configs': [SCRIPT]}},
        'cache_deployment': {
            'type': 'OS::Heat::SoftwareDeployment', 'depends_on': ['web_deployments'],
            'properties': {'config': {'get_resource': 'cache'},
                           'server': {'get_resource': 'cache_server'},
                           'signal_transport': 'NO_SIGNAL'}}}}


def _wait_for_status(heat, stack_id, done, timeout=120):
    deadline = time.monotonic() + timeout
    while True:
        try:
            stack = heat.stacks.get(stack_id)
        except heat_exc.HTTPNotFound:
            return None
        if not stack.stack_status.endswith('_IN_PROGRESS') or time.monotonic() > deadline:
            assert stack.stack_status == done, (
                f'{stack.stack_name}: {stack.stack_status}: {stack.stack_status_reason}')
            return stack
        time.sleep(1)


@pytest.fixture(scope='module')
def map_stack(cloud, heat):
    stack_id = heat.stacks.create(stack_name=STACK, template=TEMPLATE,
                                  # Heat reads `files` as YAML, of which JSON is a part.
                                  files={'db.yaml': json.dumps(DB_TEMPLATE)})['stack']['id']
    try:
        _wait_for_status(heat, stack_id, 'CREATE_COMPLETE')
        yield heat.stacks.get(STACK)
    finally:
        heat.stacks.delete(stack_id)
        _wait_for_status(heat, stack_id, 'DELETE_COMPLETE')


def _text(cell):
    return html.unescape(re.sub(r'<[^>]+>|\s+', ' ', cell)).strip()


def nodes(page):
    """{"<component> on <server>"} of the map's boxes, without their status."""
    labels = re.findall(r'<a class="hdd-map-node[^"]*"[^>]*aria-label="([^"]*)"', page)
    return {html.unescape(label).rsplit(': ', 1)[0] for label in labels}


def edges(page):
    """[(from, output, input, to)] of the rows of the map's table."""
    table = re.search(r'<table class="table table-condensed hdd-map-edges">.*?<tbody>(.*?)'
                      r'</tbody>', page, re.S)
    assert table, 'the page has no map table'
    rows = re.findall(r'<tr>(.*?)</tr>', table.group(1), re.S)
    found = [tuple(_text(c) for c in re.findall(r'<td[^>]*>(.*?)</td>', row, re.S))
             for row in rows]
    return [row for row in found if len(row) == 4]


def _stack_map(user, stack_id):
    response = user.get(f'/project/components/stacks/{stack_id}/')
    assert response.status_code == 200
    return response.text


def test_the_demo_stacks_map_shows_each_component_on_its_servers_and_mysqls_dsn_feeding(
        user, demo_stack):
    page = _stack_map(user, demo_stack.id)

    assert nodes(page) == {'monitoring on demo-mon-1', 'mysql on demo-db-1',
                           'mysql on demo-db-2', 'wordpress on demo-web-1'}
    assert edges(page) == [('mysql on demo-db-1', 'dsn', 'db_dsn', 'wordpress on demo-web-1')]


def test_a_components_map_tab_shows_what_it_feeds_and_not_the_rest(user, demo_resources):
    page = user.get(f'/project/components/{demo_resources["mysql"]}/'
                    '?tab=component_details__map').text

    assert nodes(page) == {'mysql on demo-db-1', 'mysql on demo-db-2',
                           'wordpress on demo-web-1'}
    assert edges(page) == [('mysql on demo-db-1', 'dsn', 'db_dsn', 'wordpress on demo-web-1')]


def test_a_map_follows_nested_stacks_deployment_groups_and_orders(user, heat, map_stack):
    page = _stack_map(user, map_stack.id)
    # Another module's page may have read the project's server names before this stack made
    # its servers: the map then names them by id for a minute (server_names.NAMES_SECONDS).
    for resource in heat.resources.list(map_stack.id):
        server = TEMPLATE['resources'][resource.resource_name]['properties'].get('name')
        if resource.resource_type == 'OS::Heat::DeployedServer':
            page = page.replace(resource.physical_resource_id, server)

    assert nodes(page) == {'db on map-db', 'web on map-web-1', 'web on map-web-2',
                           'cache on map-cache'}
    assert sorted(edges(page)) == [
        ('db on map-db', 'dsn', 'db_dsn', 'web on map-web-1'),
        ('db on map-db', 'dsn', 'db_dsn', 'web on map-web-2'),
        ('web on map-web-1', '(order only)', '—', 'cache on map-cache'),
        ('web on map-web-2', '(order only)', '—', 'cache on map-cache')]
