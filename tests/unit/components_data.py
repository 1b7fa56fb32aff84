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

"""Heat data for the Components panel, shaped like what Heat returns for the
demo stack (devcloud/demo/demo-stack.yaml): two components made by stack
"demo", one made by hand, their derived configs and deployments.

Plain dicts, turned into heatclient resources by the functions below, so a
test can change a copy before serving it.
"""

import copy

from heatclient import exc as heat_exc
from heatclient.v1 import resources
from heatclient.v1 import software_configs
from heatclient.v1 import software_deployments
from heatclient.v1 import stacks

from heat_deploy_runner import Run


DB_1 = '30748cec-6559-436b-9a4d-f58e39b1ccf2'
DB_2 = '9597145b-0a95-4428-85b8-d52e98ecf8a2'
WEB = '7202197c-dd83-4dc3-a27b-139242e05af6'

MYSQL_ID = 'd202f465-95da-40b6-9430-558dd7914718'
WORDPRESS_ID = '36ad127d-ba79-4dbc-9f29-8840bbadee9f'
REPORT_ID = '5e7c0c11-0d55-4b0c-8f42-3f0d2d6f0a01'

MYSQL = {
    'id': MYSQL_ID,
    'name': 'demo-mysql-yy352j5ma4zz',
    'group': 'component',
    'creation_time': '2026-11-22T03:20:17Z',
    'config': {'configs': [
        {'actions': ['CREATE'], 'tool': 'script',
         'config': '#!/bin/sh\nmkdir -p mysql/data\n'},
        {'actions': ['BACKUP'], 'tool': 'script',
         'config': '#!/bin/sh\ntar -czf "$backup_dir/b.tgz" mysql/data\n'},
        {'actions': ['RESTORE'], 'tool': 'script',
         'config': '#!/bin/sh\ntar -xf "$backup_file"\n'},
    ]},
    'inputs': [
        {'name': 'backup_dir', 'type': 'String', 'default': 'backups',
         'description': 'Directory for backup archives.'},
        {'name': 'retention_days', 'type': 'Number', 'default': 7,
         'description': 'Backups older than this many days are removed.'},
        {'name': 'compress', 'type': 'Boolean', 'default': True,
         'description': 'Compress the archive with gzip.'},
        {'name': 'tables', 'type': 'CommaDelimitedList',
         'default': ['users', 'posts'],
         'description': 'Tables to include in the backup.'},
        {'name': 'labels', 'type': 'Json', 'default': {'schedule': 'manual'},
         'description': 'Labels stored with the backup.'},
        {'name': 'backup_file', 'type': 'String', 'default': '',
         'description': 'For RESTORE, the archive to restore.'},
    ],
    'outputs': [
        {'name': 'dsn', 'type': 'String', 'error_output': False,
         'description': 'How to reach the database.'},
        {'name': 'backup_file', 'type': 'String', 'error_output': False,
         'description': 'The archive a BACKUP wrote.'},
    ],
    'options': {},
}

WORDPRESS = {
    'id': WORDPRESS_ID,
    'name': 'demo-wordpress-yhya4rfoh66z',
    'group': 'component',
    'creation_time': '2026-11-22T03:20:18Z',
    'config': {'configs': [
        {'actions': ['CREATE'], 'tool': 'script',
         'config': '#!/bin/sh\necho installed\n'},
        {'actions': ['ROTATE_KEYS'], 'tool': 'script',
         'config': '#!/bin/sh\necho rotated\n'},
        {'actions': ['FLUSH_CACHE'], 'tool': 'script',
         'config': '#!/bin/sh\necho flushed\n'},
    ]},
    'inputs': [
        # As Heat stores an input declared without a default.
        {'name': 'db_dsn', 'type': 'String', 'default': '',
         'description': "The database wordpress uses (mysql's dsn)."},
        {'name': 'cache_size_mb', 'type': 'Number', 'default': 64,
         'description': 'Size of the page cache.'},
    ],
    'outputs': [{'name': 'url', 'type': 'String', 'error_output': False,
                 'description': 'Where the site answers.'}],
    'options': {},
}

# Made with the API, outside any stack, and deployed nowhere.
REPORT = {
    'id': REPORT_ID,
    'name': 'nightly-report',
    'group': 'component',
    'creation_time': '2026-11-21T08:00:00Z',
    'config': {'configs': [{'actions': ['REPORT'], 'tool': 'ansible',
                            'config': '- hosts: all\n'}]},
    'inputs': [],
    'outputs': [],
    'options': {},
}


def derived(source, config_id, server_id, action, name=None):
    """A derived config as Heat's stack deployments and triggers make it."""
    config = copy.deepcopy(source)
    for declared in config['inputs']:
        declared['value'] = declared.get('default')
    config['inputs'] += [
        {'name': 'deploy_server_id', 'type': 'String', 'value': server_id},
        {'name': 'deploy_action', 'type': 'String', 'value': action},
        {'name': 'deploy_signal_transport', 'type': 'String',
         'value': 'TEMP_URL_SIGNAL'},
    ]
    config.update(id=config_id, name=name or source['name'])
    return config


DERIVED = [
    # The stack's deployments: named like their component.
    derived(MYSQL, '716abb5b-36c5-461b-903d-5ef05e55a88e', DB_1, 'CREATE'),
    derived(MYSQL, '678b8fc5-6548-4e6c-9903-9b624c66d924', DB_2, 'CREATE'),
    derived(WORDPRESS, '23a39a95-5775-4a42-80e2-556b3a5e5066', WEB,
            'CREATE'),
    # A BACKUP triggered from the dashboard on the first db server.
    derived(MYSQL, 'aa11bb22-0000-4000-8000-000000000001', DB_1, 'BACKUP',
            name='mysql-BACKUP'),
]

# A plain software config (not a component) and its deployment.
SCRIPT_CONFIG = {
    'id': 'bb22cc33-0000-4000-8000-000000000002',
    'name': 'demo-hostname-abcdefghijkl',
    'group': 'script',
    'creation_time': '2026-11-22T03:20:15Z',
    'config': '#!/bin/sh\nhostname\n',
    'inputs': [{'name': 'deploy_server_id', 'type': 'String',
                'value': WEB}],
    'outputs': [],
    'options': {},
}

CONFIGS = [MYSQL, WORDPRESS, REPORT, SCRIPT_CONFIG] + DERIVED


def _deployment(deployment_id, config, action, status, created,
                updated=None, reason='Outputs received'):
    info = {
        'id': deployment_id,
        'config_id': config['id'],
        'server_id': next(d['value'] for d in config['inputs']
                          if d['name'] == 'deploy_server_id'),
        'input_values': {},
        'output_values': None,
        'action': action,
        'status': status,
        'status_reason': reason,
        'creation_time': created,
    }
    if updated:
        info['updated_time'] = updated
    return info


DSN = 'mysql://db-1/demo'
DEPLOYMENTS = [
    dict(_deployment('ff660c29-26af-4129-b8d0-b90ef9cce98d', DERIVED[0], 'CREATE',
                     'COMPLETE', '2026-11-22T03:20:17Z', '2026-11-22T03:20:21Z'),
         output_values={'dsn': DSN, 'deploy_status_code': 0}),
    _deployment('bce72708-ab85-4b2e-a133-44107a25ff72', DERIVED[1], 'CREATE',
                'COMPLETE', '2026-11-22T03:20:17Z', '2026-11-22T03:20:21Z'),
    dict(_deployment('0ed02a65-027e-4bd2-b4f6-aed81bf6ac0e', DERIVED[2], 'CREATE',
                     'COMPLETE', '2026-11-22T03:20:21Z', '2026-11-22T03:20:24Z'),
         input_values={'db_dsn': DSN}),
    _deployment('1c9d5e44-0000-4000-8000-000000000003', DERIVED[3], 'BACKUP',
                'IN_PROGRESS', '2026-11-22T04:00:00Z', reason=''),
    _deployment('2d0e6f55-0000-4000-8000-000000000004', SCRIPT_CONFIG,
                'CREATE', 'COMPLETE', '2026-11-22T03:20:16Z'),
]


def _as_declared(inputs, without_default=()):
    return [{key: value for key, value in each.items()
             if not (key == 'default' and each['name'] in without_default)}
            for each in inputs]


# The demo stack's template, as `stacks.template` gives it: it says which inputs declare a
# default, which Heat's stored configs cannot.
STACK_TEMPLATE = {
    'heat_template_version': '2018-08-31',
    'resources': {
        'mysql': {'type': 'OS::Heat::SoftwareComponent',
                  'properties': {'inputs': _as_declared(MYSQL['inputs'])}},
        'wordpress': {'type': 'OS::Heat::SoftwareComponent',
                      'properties': {'inputs': _as_declared(WORDPRESS['inputs'],
                                                            without_default={'db_dsn'})}},
        'mysql_deployment_1': {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
            'config': {'get_resource': 'mysql'}, 'server': {'get_resource': 'db_server_1'}}},
        'mysql_deployment_2': {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
            'config': {'get_resource': 'mysql'}, 'server': {'get_resource': 'db_server_2'}}},
        'wordpress_deployment': {'type': 'OS::Heat::SoftwareDeployment', 'properties': {
            'config': {'get_resource': 'wordpress'}, 'server': {'get_resource': 'web_server'},
            'input_values': {'db_dsn': {'get_attr': ['mysql_deployment_1', 'dsn']}}}},
    },
}

STACK_ID = '884465b2-dc23-444b-a9aa-a0af68430dd3'
STACKS = [
    {'id': STACK_ID, 'stack_name': 'demo',
     'stack_status': 'CREATE_COMPLETE'},
]


def _resource(name, kind, physical_id, required_by=()):
    stack = f'http://heat/v1/p/stacks/demo/{STACK_ID}'
    return {'resource_name': name, 'resource_type': kind, 'physical_resource_id': physical_id,
            'required_by': list(required_by),
            'links': [{'rel': 'self', 'href': f'{stack}/resources/{name}'},
                      {'rel': 'stack', 'href': stack}]}


# The demo stack's resources, as the map lists them (nested stacks included).
RESOURCES = [
    _resource('mysql', 'OS::Heat::SoftwareComponent', MYSQL_ID,
              ['mysql_deployment_1', 'mysql_deployment_2']),
    _resource('wordpress', 'OS::Heat::SoftwareComponent', WORDPRESS_ID,
              ['wordpress_deployment']),
    _resource('mysql_deployment_1', 'OS::Heat::SoftwareDeployment', DEPLOYMENTS[0]['id'],
              ['wordpress_deployment']),
    _resource('mysql_deployment_2', 'OS::Heat::SoftwareDeployment', DEPLOYMENTS[1]['id']),
    _resource('wordpress_deployment', 'OS::Heat::SoftwareDeployment', DEPLOYMENTS[2]['id']),
]

SUMMARY_KEYS = ('id', 'name', 'group', 'creation_time')


def summaries(configs=None):
    """The config listing: summary rows only, newest first as Heat gives
    them."""
    rows = [{key: config[key] for key in SUMMARY_KEYS}
            for config in configs or CONFIGS]
    rows.sort(key=lambda row: row['creation_time'], reverse=True)
    return [software_configs.SoftwareConfig(None, row, loaded=True)
            for row in rows]


def config_getter(configs=None):
    """A side effect for api.heat.config_get serving these configs."""
    by_id = {config['id']: config for config in configs or CONFIGS}

    def config_get(request, config_id):
        if config_id not in by_id:
            raise heat_exc.HTTPNotFound()
        return software_configs.SoftwareConfig(
            None, copy.deepcopy(by_id[config_id]), loaded=True)
    return config_get


def deployments(infos=None):
    return [Run.from_heat(software_deployments.SoftwareDeployment(
        None, copy.deepcopy(info), loaded=True))
        for info in infos or DEPLOYMENTS]


def triggered(infos):
    """The runs a trigger answers: each with its derived config (from CONFIGS by id, else
    made up with that id and the name 'mysql-BACKUP')."""
    configs = {config['id']: config for config in CONFIGS}
    return [run.described(copy.deepcopy(configs.get(run.config_id)) or dict(
        DERIVED[3], id=run.config_id, name='mysql-BACKUP')) for run in deployments(infos)]


def resource_list(infos=None):
    return [resources.Resource(None, copy.deepcopy(info), loaded=True)
            for info in infos or RESOURCES]


def stack_list(infos=None):
    return [stacks.Stack(None, copy.deepcopy(info), loaded=True)
            for info in infos or STACKS]
