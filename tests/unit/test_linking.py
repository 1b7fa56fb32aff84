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

"""Linking components to their stacks and servers, on plain dicts and the runs Heat lists."""

import copy

from heat_deploy_runner.components import linking
from tests.unit import components_data as data


def _summaries(configs):
    return [{key: c[key] for key in data.SUMMARY_KEYS} for c in configs]


class _Reader:
    """linking's ``read``: serves these configs, noting every id asked for."""

    def __init__(self, configs):
        self.configs = {c['id']: c for c in configs}
        self.asked = []

    def __call__(self, config_ids):
        self.asked.extend(config_ids)
        return {i: self.configs[i] for i in config_ids if i in self.configs}


def _link(configs=None, deployments=None, stack_names=('demo',), reader=None):
    configs = data.CONFIGS if configs is None else configs
    infos = data.DEPLOYMENTS if deployments is None else deployments
    return linking.link(_summaries(configs), [run for info in infos
                                              for run in data.deployments([info])],
                        stack_names, reader or _Reader(configs))


def _by_id(components):
    return {c.id: c for c in components}


def test_components_are_the_component_configs_that_are_not_derived():
    components = _link()

    assert [c.id for c in components] == [
        data.MYSQL_ID, data.WORDPRESS_ID, data.REPORT_ID]


def test_actions_are_split_into_custom_and_lifecycle():
    mysql = _by_id(_link())[data.MYSQL_ID]

    assert mysql.custom_actions == ['BACKUP', 'RESTORE']
    assert mysql.lifecycle_actions == ['CREATE']


def test_an_entry_without_actions_runs_on_create_and_update():
    config = dict(data.REPORT, config={'configs': [
        {'tool': 'script', 'config': 'echo hi'}]})

    (component,) = _link([config], [])

    assert component.lifecycle_actions == ['CREATE', 'UPDATE']
    assert component.custom_actions == []


def test_a_malformed_component_body_gives_no_scripts():
    for body in ('echo hi', {'configs': 'x'}, {'configs': [3]}, None):
        (component,) = _link([dict(data.REPORT, config=body)], [])
        assert component.scripts == []


def test_a_non_text_script_is_shown_as_json():
    config = dict(data.REPORT, config={'configs': [
        {'actions': ['X'], 'tool': 'puppet', 'config': {'b': 1, 'a': 2}}]})

    (component,) = _link([config], [])

    assert component.scripts[0].config == '{\n  "a": 2,\n  "b": 1\n}'


def test_servers_come_from_derived_configs_of_stack_and_trigger_alike():
    components = _by_id(_link())

    assert components[data.MYSQL_ID].server_ids == sorted(
        [data.DB_1, data.DB_2])
    assert components[data.WORDPRESS_ID].server_ids == [data.WEB]
    assert components[data.REPORT_ID].server_ids == []


def test_a_plain_script_deployment_belongs_to_no_component():
    components = _link()

    linked = {d.id for c in components for d in c.deployments}
    assert data.DEPLOYMENTS[4]['id'] not in linked
    assert len(linked) == 4


def test_the_latest_deployment_on_each_server_is_the_newest():
    mysql = _by_id(_link())[data.MYSQL_ID]

    latest = mysql.latest_deployments()

    assert [(d.server_id, d.action) for d in latest] == sorted(
        [(data.DB_1, 'BACKUP'), (data.DB_2, 'CREATE')])


def test_a_fingerprint_ignores_key_order_but_not_the_group():
    reordered = dict(data.MYSQL, config={'configs': [
        dict(reversed(list(entry.items())))
        for entry in data.MYSQL['config']['configs']]})

    assert linking.fingerprint(reordered) == linking.fingerprint(data.MYSQL)
    assert linking.fingerprint(dict(data.MYSQL, group='script')) != \
        linking.fingerprint(data.MYSQL)


def test_a_component_deployed_without_a_derived_config_counts():
    deployment = dict(data.DEPLOYMENTS[0], config_id=data.REPORT_ID,
                      server_id=data.WEB)

    (report,) = [c for c in _link(deployments=[deployment])
                 if c.id == data.REPORT_ID]

    assert report.server_ids == [data.WEB]


def test_a_config_deleted_since_the_listing_is_left_out():
    reader = _Reader([c for c in data.CONFIGS if c['id'] != data.MYSQL_ID])

    components = _link(reader=reader)

    assert data.MYSQL_ID not in _by_id(components)


# Stack and resource, from Heat's physical resource names.

def test_stack_and_resource_come_from_the_config_name():
    components = _by_id(_link())

    mysql = components[data.MYSQL_ID]
    assert (mysql.stack_name, mysql.resource_name) == ('demo', 'mysql')
    assert mysql.run_name == 'mysql'


def test_a_config_made_outside_a_stack_has_neither():
    report = _by_id(_link())[data.REPORT_ID]

    assert (report.stack_name, report.resource_name) == (None, None)
    assert report.run_name == 'nightly-report'


def test_the_longest_stack_name_wins_so_nested_stacks_get_theirs():
    assert linking.stack_and_resource(
        'demo-group-abcdefghijkl-db-mnopqrstuv23',
        ['demo', 'demo-group-abcdefghijkl']) == (
            'demo-group-abcdefghijkl', 'db')


def test_a_resource_name_may_hold_hyphens():
    assert linking.stack_and_resource(
        'prod-db-backup-abcdefghijkl', ['prod']) == ('prod', 'db-backup')


def test_a_shorter_stack_is_tried_when_the_longer_does_not_fit():
    assert linking.stack_and_resource(
        'demo-mysql-abcdefghijkl', ['demo', 'demo-mysql']) == (
            'demo', 'mysql')


def test_names_without_heats_short_id_are_not_taken_apart():
    for name in ('demo-mysql',  # no short id
                 'demo-mysql-ABCDEFGHIJKL',  # Heat's are lowercase
                 'demo-mysql-abcdefghijk',  # 11 characters
                 'demo--abcdefghijkl',  # no resource
                 'other-mysql-abcdefghijkl'):  # no such stack
        assert linking.stack_and_resource(name, ['demo']) == (None, None)


# Identical components: two stacks made from one template.

def _twin_stacks():
    twin = copy.deepcopy(data.MYSQL)
    twin.update(id='twin-mysql', name='staging-mysql-zzzzzzzzzzzz')
    twin_stack_derived = data.derived(twin, 'twin-derived', 'staging-db',
                                      'CREATE')
    configs = [data.MYSQL, twin] + data.DERIVED[:2] + [twin_stack_derived]
    deployments = data.DEPLOYMENTS[:2] + [
        dict(data.DEPLOYMENTS[0], id='twin-deployment',
             config_id='twin-derived', server_id='staging-db')]
    return configs, deployments


def test_identical_components_are_told_apart_by_the_derived_name():
    configs, deployments = _twin_stacks()

    components = _by_id(_link(configs, deployments, ['demo', 'staging']))

    assert components[data.MYSQL_ID].server_ids == sorted(
        [data.DB_1, data.DB_2])
    assert components['twin-mysql'].server_ids == ['staging-db']


def test_a_component_is_named_alone_unless_another_has_its_name():
    configs, deployments = _twin_stacks()

    alone = _by_id(_link())
    twins = _by_id(_link(configs, deployments, ['demo', 'staging']))

    assert alone[data.MYSQL_ID].named_alone and alone[data.WORDPRESS_ID].named_alone
    # Both are "mysql" in their stacks: the command line needs their ids.
    assert not twins[data.MYSQL_ID].named_alone and not twins['twin-mysql'].named_alone


def test_a_trigger_on_twins_goes_to_the_one_on_its_server():
    configs, deployments = _twin_stacks()
    # Both twins have the run name "mysql": only the server tells.
    backup = data.derived(data.MYSQL, 'backup-derived', 'staging-db',
                          'BACKUP', name='mysql-BACKUP')
    deployments.append(dict(data.DEPLOYMENTS[3], id='backup-deployment',
                            config_id='backup-derived',
                            server_id='staging-db'))

    components = _by_id(_link(configs + [backup], deployments,
                              ['demo', 'staging']))

    assert 'backup-deployment' in {
        d.id for d in components['twin-mysql'].deployments}
    assert 'backup-deployment' not in {
        d.id for d in components[data.MYSQL_ID].deployments}


def test_a_run_no_data_can_attribute_is_credited_to_no_twin():
    configs, deployments = _twin_stacks()
    backup = data.derived(data.MYSQL, 'backup-derived', 'new-server',
                          'BACKUP', name='mysql-BACKUP')
    deployments.append(dict(data.DEPLOYMENTS[3], id='backup-deployment',
                            config_id='backup-derived',
                            server_id='new-server'))

    components = _link(configs + [backup], deployments, ['demo', 'staging'])

    assert all('new-server' not in c.server_ids for c in components)


def _replaced_mysql():
    """mysql after a stack update changed its BACKUP script: Heat made a new config (a new
    physical name, same stack and resource) and, with no UPDATE entry, left the servers'
    deployments on derived configs of the old one."""
    new = copy.deepcopy(data.MYSQL)
    new['config']['configs'][1]['config'] += '\necho changed\n'
    new.update(id='99999999-0000-4000-8000-00000000aaaa', name='demo-mysql-zzzzzzzzzzzz')
    return new


def test_after_a_stack_update_replaced_a_component_its_servers_still_count():
    configs = [_replaced_mysql() if c is data.MYSQL else c for c in data.CONFIGS]

    components = _by_id(_link(configs))

    new = components['99999999-0000-4000-8000-00000000aaaa']
    assert new.server_ids == sorted([data.DB_1, data.DB_2])
    # The BACKUP run named mysql-BACKUP is the same component's too.
    assert any(d.action == 'BACKUP' for d in new.deployments)


def test_two_components_with_one_resource_name_are_told_apart_by_the_server():
    other_stack = copy.deepcopy(_replaced_mysql())
    other_stack.update(id='99999999-0000-4000-8000-00000000bbbb',
                       name='prod-mysql-yyyyyyyyyyyy')
    configs = [_replaced_mysql() if c is data.MYSQL else c for c in data.CONFIGS]
    reader = _Reader(configs + [other_stack])

    components = _by_id(_link(configs + [other_stack], stack_names=('demo', 'prod'),
                              reader=reader))

    # mysql-BACKUP ran on a server of demo's mysql; prod's is on none.
    assert any(d.action == 'BACKUP'
               for d in components['99999999-0000-4000-8000-00000000aaaa'].deployments)
    assert components['99999999-0000-4000-8000-00000000bbbb'].deployments == []
    assert not set(reader.asked) & {c['id'] for c in data.DERIVED}


# What is read: the components, and only the runs whose names tell nothing.

def test_runs_of_stacks_and_triggers_are_linked_without_reading_their_configs():
    reader = _Reader(data.CONFIGS)

    components = _by_id(_link(reader=reader))

    assert sorted(reader.asked) == sorted([data.MYSQL_ID, data.WORDPRESS_ID, data.REPORT_ID])
    assert len(components[data.MYSQL_ID].deployments) == 3


def _backup(config_id, server_id, name, source=data.MYSQL):
    run = data.derived(source, config_id, server_id, 'BACKUP', name=name)
    deployment = dict(data.DEPLOYMENTS[3], id=f'{config_id}-deployment', config_id=config_id,
                      server_id=server_id)
    return run, deployment


def test_a_run_named_by_hand_is_linked_by_reading_its_config():
    run, deployment = _backup('renamed-derived', data.DB_2, 'nightly-db-dump')
    reader = _Reader(data.CONFIGS + [run])

    components = _by_id(_link(data.CONFIGS + [run], data.DEPLOYMENTS + [deployment],
                              reader=reader))

    assert deployment['id'] in {d.id for d in components[data.MYSQL_ID].deployments}
    assert reader.asked.count('renamed-derived') == 1
    assert not set(reader.asked) & {c['id'] for c in data.DERIVED}


def test_a_run_on_a_server_both_same_named_components_are_on_is_read():
    configs, deployments = _twin_stacks()
    # staging's mysql is on DB_1 too: the name and the server both fit both twins.
    deployments.append(dict(deployments[-1], id='twin-on-db-1', server_id=data.DB_1))
    run, deployment = _backup('shared-derived', data.DB_1, 'mysql-BACKUP')
    reader = _Reader(configs + [run])

    components = _by_id(_link(configs + [run], deployments + [deployment],
                              ['demo', 'staging'], reader))

    assert reader.asked.count('shared-derived') == 1
    # Read, its body fits both twins too: neither is credited rather than a wrong one.
    assert all(deployment['id'] not in {d.id for d in c.deployments}
               for c in components.values())


def test_a_nested_stacks_component_gets_its_stack_runs_and_triggered_runs_by_name():
    nested = 'demo-web-abcdefghijkl'
    cache = copy.deepcopy(data.REPORT)
    cache.update(id='cache-id', name=f'{nested}-cache-mnopqrstuv23')
    stack_run = data.derived(cache, 'cache-create', data.WEB, 'CREATE')
    flush, flush_deployment = _backup('cache-flush', data.WEB, 'cache-FLUSH', source=cache)
    runs = [dict(data.DEPLOYMENTS[0], id='cache-create-deployment', config_id='cache-create',
                 server_id=data.WEB), dict(flush_deployment, action='FLUSH')]
    reader = _Reader([cache, stack_run, flush])

    (component,) = _link([cache, stack_run, flush], runs, ['demo', nested], reader)

    assert (component.stack_name, component.resource_name) == (nested, 'cache')
    assert [d.id for d in component.deployments] == [
        'cache-create-deployment', 'cache-flush-deployment']
    assert reader.asked == ['cache-id']


def test_only_the_template_tells_a_required_input_from_an_empty_default():
    stored = [{'name': 'db_dsn', 'type': 'String', 'default': ''},
              {'name': 'suffix', 'type': 'String', 'default': ''},
              {'name': 'port', 'type': 'Number', 'default': 5432}]
    template = [{'name': 'db_dsn', 'type': 'String'},
                {'name': 'suffix', 'type': 'String', 'default': ''},
                {'name': 'port', 'type': 'Number', 'default': 5432}]

    inputs = linking.with_declared_defaults(stored, template)

    assert 'default' not in inputs[0]
    assert inputs[1]['default'] == '' and inputs[2]['default'] == 5432
    assert linking.with_declared_defaults(stored, None)[0]['default'] == ''
