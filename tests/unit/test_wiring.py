"""A stack's wiring worked out from its resources and templates, on plain dicts."""

from heat_deploy_dashboard import linking
from heat_deploy_dashboard import wiring

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


def _component(name, *deployments):
    return linking.Component(
        id=f'{name}-config', name=f'demo-{name}-abcdefabcdef', creation_time=None,
        fingerprint=name, inputs=[], outputs=[], scripts=[], stack_name='demo',
        resource_name=name,
        deployments=[{'id': d, 'server_id': s, 'config_id': 'x', 'input_values': {},
                      'creation_time': '2026-01-01T00:00:00Z', 'status': 'COMPLETE',
                      'action': 'CREATE'} for d, s in deployments])


DEPLOYMENT = 'OS::Heat::SoftwareDeployment'

# The demo's shape: wordpress takes mysql_1's dsn; monitoring stands alone.
DEMO_RESOURCES = [
    _resource(ROOT, 'mysql_1', DEPLOYMENT, 'd-mysql-1', required_by=['wordpress_d']),
    _resource(ROOT, 'mysql_2', DEPLOYMENT, 'd-mysql-2'),
    _resource(ROOT, 'wordpress_d', DEPLOYMENT, 'd-wp'),
    _resource(ROOT, 'monitoring_d', DEPLOYMENT, 'd-mon'),
    _resource(ROOT, 'web', 'OS::Heat::DeployedServer', 'srv-web', required_by=['wordpress_d']),
]
DEMO_TEMPLATE = {'resources': {
    'mysql_1': {'type': DEPLOYMENT, 'properties': {'config': {'get_resource': 'mysql'}}},
    'mysql_2': {'type': DEPLOYMENT, 'properties': {}},
    'wordpress_d': {'type': DEPLOYMENT, 'properties': {'input_values': {
        'db_dsn': {'get_attr': ['mysql_1', 'dsn']}, 'cache_size_mb': 64}}},
    'monitoring_d': {'type': DEPLOYMENT, 'properties': {}},
}}


def _demo_components():
    return [_component('mysql', ('d-mysql-1', 'db-1'), ('d-mysql-2', 'db-2')),
            _component('wordpress', ('d-wp', 'web-1')),
            _component('monitoring', ('d-mon', 'mon-1'))]


def _edges(found):
    return sorted((e.source.component.resource_name, e.source.server_id, e.output, e.input,
                   e.target.component.resource_name, e.target.server_id)
                  for e in found.edges)


def _demo():
    asked = []

    def template_of(stack_id):
        asked.append(stack_id)
        return DEMO_TEMPLATE

    return wiring.wire('demo', DEMO_RESOURCES, template_of, _demo_components()), asked


def test_an_input_fed_by_get_attr_is_an_edge_labelled_with_both_names():
    found, asked = _demo()

    assert _edges(found) == [('mysql', 'db-1', 'dsn', 'db_dsn', 'wordpress', 'web-1')]
    assert {(n.component.resource_name, n.server_id) for n in found.nodes} == {
        ('mysql', 'db-1'), ('mysql', 'db-2'), ('wordpress', 'web-1'), ('monitoring', 'mon-1')}
    # One template however many deployments read it.
    assert asked == [ROOT]


def test_a_component_page_shows_what_feeds_it_and_what_it_feeds_only():
    found, _asked = _demo()

    around = found.around('mysql-config')

    assert {(n.component.resource_name, n.server_id) for n in around.nodes} == {
        ('mysql', 'db-1'), ('mysql', 'db-2'), ('wordpress', 'web-1')}
    assert [(c.resource_name, servers, pairs) for c, servers, pairs
            in found.dependents('mysql-config')] == [
        ('wordpress', ['web-1'], [('dsn', 'db_dsn')])]
    assert list(found.feeds('wordpress-config')) == ['db_dsn']
    assert found.dependents('wordpress-config') == []


def test_a_deployment_of_no_component_is_not_drawn():
    components = [c for c in _demo_components() if c.resource_name != 'mysql']

    found = wiring.wire('demo', DEMO_RESOURCES, lambda stack_id: DEMO_TEMPLATE, components)

    assert _edges(found) == []
    assert len(found.nodes) == 2


def test_depends_on_without_data_is_an_order_edge():
    resources = [_resource(ROOT, 'a_d', DEPLOYMENT, 'd-a', required_by=['b_d']),
                 _resource(ROOT, 'b_d', DEPLOYMENT, 'd-b')]
    template = {'resources': {'a_d': {'properties': {}},
                              'b_d': {'depends_on': ['a_d'], 'properties': {}}}}
    components = [_component('a', ('d-a', 's-1')), _component('b', ('d-b', 's-2'))]

    found = wiring.wire('demo', resources, lambda stack_id: template, components)

    assert _edges(found) == [('a', 's-1', None, None, 'b', 's-2')]


def test_an_output_reaches_through_a_nested_stack_and_a_deployment_group():
    # db.yaml holds db's deployment and gives its dsn as an output; a group deploys web on two
    # servers with that output, and the group's members are defined by the group.
    resources = [
        _resource(ROOT, 'db_stack', 'db.yaml', 'nested-id', required_by=['web_group'],
                  nested=NESTED),
        _resource(NESTED, 'db_d', DEPLOYMENT, 'd-db'),
        _resource(ROOT, 'web_group', 'OS::Heat::SoftwareDeploymentGroup', GROUP,
                  nested=GROUP),
        _resource(GROUP, 'web1', DEPLOYMENT, 'd-web-1'),
        _resource(GROUP, 'web2', DEPLOYMENT, 'd-web-2'),
    ]
    templates = {
        ROOT: {'resources': {
            'db_stack': {'type': 'db.yaml', 'properties': {'server': 'srv'}},
            'web_group': {'type': 'OS::Heat::SoftwareDeploymentGroup', 'properties': {
                'input_values': {'db_dsn': {'str_replace': {
                    'template': 'x=$dsn',
                    'params': {'$dsn': {'get_attr': ['db_stack', 'dsn']}}}}}}},
        }},
        NESTED: {'resources': {'db_d': {'properties': {}}},
                 'outputs': {'dsn': {'value': {'get_attr': ['db_d', 'dsn']}}}},
    }
    asked = []

    def template_of(stack_id):
        asked.append(stack_id)
        return templates[stack_id]

    components = [_component('db', ('d-db', 'db')),
                  _component('web', ('d-web-1', 'w-1'), ('d-web-2', 'w-2'))]

    found = wiring.wire('demo', resources, template_of, components)

    assert _edges(found) == [('db', 'db', 'dsn', 'db_dsn', 'web', 'w-1'),
                             ('db', 'db', 'dsn', 'db_dsn', 'web', 'w-2')]
    # The group's own generated template is never needed.
    assert sorted(asked) == [NESTED, ROOT]


def test_a_nested_stack_input_from_its_parent_goes_through_the_parameter():
    resources = [
        _resource(ROOT, 'db_d', DEPLOYMENT, 'd-db', required_by=['app']),
        _resource(ROOT, 'app', 'app.yaml', 'nested-id', nested=NESTED),
        _resource(NESTED, 'app_d', DEPLOYMENT, 'd-app'),
    ]
    templates = {
        ROOT: {'resources': {'db_d': {'properties': {}}, 'app': {'properties': {
            'dsn': {'get_attr': ['db_d', 'dsn']}}}}},
        NESTED: {'resources': {'app_d': {'properties': {'input_values': {
            'db_dsn': {'get_param': 'dsn'}}}}}},
    }
    components = [_component('db', ('d-db', 'db')), _component('app', ('d-app', 'a'))]

    found = wiring.wire('demo', resources, templates.get, components)

    assert _edges(found) == [('db', 'db', 'dsn', 'db_dsn', 'app', 'a')]


def test_a_template_that_is_not_what_heat_writes_gives_no_edge_and_no_error():
    resources = [_resource(ROOT, 'a_d', DEPLOYMENT, 'd-a'),
                 _resource(ROOT, 'b_d', DEPLOYMENT, 'd-b')]
    components = [_component('a', ('d-a', 's-1')), _component('b', ('d-b', 's-2'))]
    for template in (None, [], {'resources': []}, {'resources': {'b_d': {'properties': {
            'input_values': {'x': {'get_attr': 'a_d'}, 'y': {'get_param': ['p']},
                             'z': [{'get_attr': [1, 2]}]}}}}}):
        found = wiring.wire('demo', resources, lambda stack_id, t=template: t, components)

        assert _edges(found) == []
