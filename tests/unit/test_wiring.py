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

"""A stack's wiring worked out from its resources and templates, on plain dicts and the runs
Heat lists."""

from heat_deploy_dashboard import wiring
from heat_deploy_runner import Run

ROOT = 'root-id'
NESTED = 'nested-id'
GROUP = 'group-id'


def _resource(stack, name, kind, physical='', required_by=(), nested=None):
    links = [{'rel': 'self', 'href': f'http://h/v1/p/stacks/s-{stack}/{stack}/resources/{name}'},
             {'rel': 'stack', 'href': f'http://h/v1/p/stacks/s-{stack}/{stack}'}]
    if nested:
        links.append({'rel': 'nested', 'href': f'http://h/v1/p/stacks/s-{nested}/{nested}'})
    return {'resource_name': name, 'resource_type': kind, 'physical_resource_id': physical,
            'required_by': list(required_by), 'links': links}


def _deployments(*pairs):
    """{id: run} for (deployment id, server id) pairs."""
    return {d: Run(d, s, f'config-of-{d}') for d, s in pairs}


def _component(stack, name):
    """A component resource: its config id is "<name>-config"."""
    return _resource(stack, name, COMPONENT, f'{name}-config')


def _uses(name, **properties):
    """A deployment's definition, of the component resource ``name``."""
    return {'properties': dict(properties, config={'get_resource': name})}


COMPONENT = 'OS::Heat::SoftwareComponent'
DEPLOYMENT = 'OS::Heat::SoftwareDeployment'

# The demo's shape: wordpress takes mysql_1's dsn; monitoring stands alone.
DEMO_RESOURCES = [
    _resource(ROOT, 'mysql_1', DEPLOYMENT, 'd-mysql-1', required_by=['wordpress_d']),
    _resource(ROOT, 'mysql_2', DEPLOYMENT, 'd-mysql-2'),
    _resource(ROOT, 'wordpress_d', DEPLOYMENT, 'd-wp'),
    _resource(ROOT, 'monitoring_d', DEPLOYMENT, 'd-mon'),
    _resource(ROOT, 'web', 'OS::Heat::DeployedServer', 'srv-web', required_by=['wordpress_d']),
    _component(ROOT, 'mysql'), _component(ROOT, 'wordpress'), _component(ROOT, 'monitoring'),
]
DEMO_TEMPLATE = {'resources': {
    'mysql_1': _uses('mysql'),
    'mysql_2': _uses('mysql'),
    'wordpress_d': _uses('wordpress', input_values={
        'db_dsn': {'get_attr': ['mysql_1', 'dsn']}, 'cache_size_mb': 64}),
    'monitoring_d': _uses('monitoring'),
}}
DEMO_DEPLOYMENTS = _deployments(('d-mysql-1', 'db-1'), ('d-mysql-2', 'db-2'),
                                ('d-wp', 'web-1'), ('d-mon', 'mon-1'))


def _edges(found):
    return sorted((e.source.component_name, e.source.server_id, e.output, e.input,
                   e.target.component_name, e.target.server_id)
                  for e in found.edges)


def _demo():
    asked = []

    def template_of(stack_id):
        asked.append(stack_id)
        return DEMO_TEMPLATE

    return wiring.wire(ROOT, DEMO_RESOURCES, template_of, DEMO_DEPLOYMENTS), asked


def test_an_input_fed_by_get_attr_is_an_edge_labelled_with_both_names():
    found, asked = _demo()

    assert _edges(found) == [('mysql', 'db-1', 'dsn', 'db_dsn', 'wordpress', 'web-1')]
    assert found.stack_name == 's-root-id'
    assert {(n.component_id, n.server_id) for n in found.nodes} == {
        ('mysql-config', 'db-1'), ('mysql-config', 'db-2'), ('wordpress-config', 'web-1'),
        ('monitoring-config', 'mon-1')}
    # One template however many deployments read it.
    assert asked == [ROOT]


def test_a_component_page_shows_what_feeds_it_and_what_it_feeds_only():
    found, _asked = _demo()

    around = found.around('mysql-config')

    assert {(n.component_name, n.server_id) for n in around.nodes} == {
        ('mysql', 'db-1'), ('mysql', 'db-2'), ('wordpress', 'web-1')}
    assert found.dependents('mysql-config') == [
        wiring.Dependent('wordpress-config', 'wordpress', ['web-1'], [('dsn', 'db_dsn')])]
    assert list(found.feeds('wordpress-config')) == ['db_dsn']
    assert found.dependents('wordpress-config') == []


def test_a_deployment_of_no_component_is_not_drawn():
    # mysql's config is a plain software config here, and a deployment Heat no longer lists
    # (deleted meanwhile) is left out too.
    resources = [dict(each, resource_type='OS::Heat::SoftwareConfig')
                 if each['resource_name'] == 'mysql' else each for each in DEMO_RESOURCES]
    deployments = {k: v for k, v in DEMO_DEPLOYMENTS.items() if k != 'd-mon'}

    found = wiring.wire(ROOT, resources, lambda stack_id: DEMO_TEMPLATE, deployments)

    assert _edges(found) == []
    assert [n.component_name for n in found.nodes] == ['wordpress']


def test_depends_on_without_data_is_an_order_edge():
    resources = [_resource(ROOT, 'a_d', DEPLOYMENT, 'd-a', required_by=['b_d']),
                 _resource(ROOT, 'b_d', DEPLOYMENT, 'd-b'),
                 _component(ROOT, 'a'), _component(ROOT, 'b')]
    template = {'resources': {'a_d': _uses('a'), 'b_d': dict(_uses('b'), depends_on=['a_d'])}}

    found = wiring.wire(ROOT, resources, lambda stack_id: template,
                        _deployments(('d-a', 's-1'), ('d-b', 's-2')))

    assert _edges(found) == [('a', 's-1', None, None, 'b', 's-2')]


def test_an_output_reaches_through_a_nested_stack_and_a_deployment_group():
    # db.yaml holds db's deployment and gives its dsn as an output; a group deploys web on two
    # servers with that output, and the group's members are defined by the group.
    resources = [
        _resource(ROOT, 'db_stack', 'db.yaml', 'nested-id', required_by=['web_group'],
                  nested=NESTED),
        _resource(NESTED, 'db_d', DEPLOYMENT, 'd-db'),
        _component(NESTED, 'db'), _component(ROOT, 'web'),
        _resource(ROOT, 'web_group', 'OS::Heat::SoftwareDeploymentGroup', GROUP,
                  nested=GROUP),
        _resource(GROUP, 'web1', DEPLOYMENT, 'd-web-1'),
        _resource(GROUP, 'web2', DEPLOYMENT, 'd-web-2'),
    ]
    templates = {
        ROOT: {'resources': {
            'db_stack': {'type': 'db.yaml', 'properties': {'server': 'srv'}},
            'web_group': {'type': 'OS::Heat::SoftwareDeploymentGroup', 'properties': {
                'config': {'get_resource': 'web'},
                'input_values': {'db_dsn': {'str_replace': {
                    'template': 'x=$dsn',
                    'params': {'$dsn': {'get_attr': ['db_stack', 'dsn']}}}}}}},
        }},
        NESTED: {'resources': {'db_d': _uses('db')},
                 'outputs': {'dsn': {'value': {'get_attr': ['db_d', 'dsn']}}}},
    }
    asked = []

    def template_of(stack_id):
        asked.append(stack_id)
        return templates[stack_id]

    found = wiring.wire(ROOT, resources, template_of, _deployments(
        ('d-db', 'db'), ('d-web-1', 'w-1'), ('d-web-2', 'w-2')))

    assert _edges(found) == [('db', 'db', 'dsn', 'db_dsn', 'web', 'w-1'),
                             ('db', 'db', 'dsn', 'db_dsn', 'web', 'w-2')]
    # The group's own generated template is never needed.
    assert sorted(asked) == [NESTED, ROOT]


def test_a_nested_stack_input_from_its_parent_goes_through_the_parameter():
    resources = [
        _resource(ROOT, 'db_d', DEPLOYMENT, 'd-db', required_by=['app']),
        _resource(ROOT, 'app', 'app.yaml', 'nested-id', nested=NESTED),
        _resource(NESTED, 'app_d', DEPLOYMENT, 'd-app'),
        _component(ROOT, 'db'), _component(ROOT, 'app'),
    ]
    templates = {
        # The app component itself is handed down to the nested stack as a parameter.
        ROOT: {'resources': {'db_d': _uses('db'), 'app': {'properties': {
            'dsn': {'get_attr': ['db_d', 'dsn']}, 'component': {'get_resource': 'app'}}}}},
        NESTED: {'resources': {'app_d': {'properties': {
            'config': {'get_param': 'component'},
            'input_values': {'db_dsn': {'get_param': 'dsn'}}}}}},
    }

    found = wiring.wire(ROOT, resources, templates.get,
                        _deployments(('d-db', 'db'), ('d-app', 'a')))

    assert _edges(found) == [('db', 'db', 'dsn', 'db_dsn', 'app', 'a')]


def test_a_template_that_is_not_what_heat_writes_gives_no_edge_and_no_error():
    resources = [_resource(ROOT, 'a_d', DEPLOYMENT, 'd-a'),
                 _resource(ROOT, 'b_d', DEPLOYMENT, 'd-b'),
                 _component(ROOT, 'a'), _component(ROOT, 'b')]
    deployments = _deployments(('d-a', 's-1'), ('d-b', 's-2'))
    for template in (None, [], {'resources': []}, {'resources': {
            'a_d': _uses('a'),
            'b_d': _uses('b', input_values={'x': {'get_attr': 'a_d'}, 'y': {'get_param': ['p']},
                                            'z': [{'get_attr': [1, 2]}]})}}):
        found = wiring.wire(ROOT, resources, lambda stack_id, t=template: t, deployments)

        assert _edges(found) == []
