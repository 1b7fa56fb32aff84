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

"""What render_panels.py serves its pages: a project's components, runs, an operation, an
archived run and a schedule (Heat's ids made from labels, so that every render is the same),
the URL it GETs of each route of the plugin (ROUTES), and the stand-ins of the API seam's
functions that serve them (STAND_INS).

Imported by render_panels.py once Django is set up: the API seam is the plugin's."""

import copy
import uuid

from heatclient import exc as heat_exc
from heatclient.v1 import resources as heat_resources
from heatclient.v1 import software_configs
from heatclient.v1 import software_deployments
from heatclient.v1 import stacks as heat_stacks

from heat_deploy_dashboard import api
from heat_deploy_runner.pruning import archive
from heat_deploy_runner import Run


def heat_id(label):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, 'render-panels/' + label))


# The data: a component made by stack "demo", deployed to two servers, one of its custom
# actions run on one of them, and a plain script config.
DB_1, DB_2 = heat_id('server db-1'), heat_id('server db-2')
SCHEDULE = 'hdd-' + heat_id('schedule nightly')
STACK = {'id': heat_id('stack demo'), 'stack_name': 'demo', 'stack_status': 'CREATE_COMPLETE'}
MYSQL = {
    'id': heat_id('config mysql'), 'name': 'demo-mysql-yy352j5ma4zz', 'group': 'component',
    'creation_time': '2026-11-22T03:20:17Z',
    'config': {'configs': [
        {'actions': ['CREATE'], 'tool': 'script', 'config': '#!/bin/sh\nmkdir -p data\n'},
        {'actions': ['BACKUP'], 'tool': 'script',
         'config': '#!/bin/sh\ntar -czf "$backup_dir/b.tgz" data\n'},
    ]},
    'inputs': [
        {'name': 'backup_dir', 'type': 'String', 'default': 'backups',
         'description': 'Directory for backup archives.'},
        {'name': 'retention_days', 'type': 'Number', 'default': 7},
        {'name': 'compress', 'type': 'Boolean', 'default': True},
        {'name': 'tables', 'type': 'CommaDelimitedList', 'default': ['users', 'posts']},
        {'name': 'labels', 'type': 'Json', 'default': {'schedule': 'manual'}},
    ],
    'outputs': [{'name': 'backup_file', 'type': 'String', 'error_output': False}],
    'options': {},
}
HELLO = {
    'id': heat_id('config hello'), 'name': 'hello', 'group': 'script',
    'creation_time': '2026-11-23T10:00:00Z',
    'config': '#!/bin/sh\necho "$greeting" > "$heat_outputs_path.result"\n',
    'inputs': [{'name': 'greeting', 'type': 'String', 'default': 'hello'}],
    'outputs': [{'name': 'result', 'type': 'String', 'error_output': False}],
    'options': {'timeout': 30},
}


# One Run Action on both servers: the backup runs below.
OPERATION = {'operation': heat_id('operation backup'), 'started_by': 'test_user',
             'started_at': '2026-11-22T09:00:00Z', 'source': MYSQL['id']}


def derived(source, label, server_id, action, name=None, operation=None):
    config = copy.deepcopy(source)
    if operation:
        config['options'] = dict(config['options'], heat_deploy_dashboard=operation)
    for declared in config['inputs']:
        declared['value'] = declared.get('default')
    config['inputs'] += [
        {'name': 'deploy_server_id', 'type': 'String', 'value': server_id},
        {'name': 'deploy_action', 'type': 'String', 'value': action},
        {'name': 'deploy_signal_transport', 'type': 'String', 'value': 'NO_SIGNAL'},
    ]
    config.update(id=heat_id(label), name=name or source['name'])
    return config


DERIVED = [derived(MYSQL, 'derived db-1', DB_1, 'CREATE'),
           derived(MYSQL, 'derived db-2', DB_2, 'CREATE'),
           derived(MYSQL, 'derived backup', DB_1, 'BACKUP', name='mysql-BACKUP',
                   operation=OPERATION),
           derived(MYSQL, 'derived running', DB_2, 'BACKUP', name='mysql-BACKUP'),
           derived(MYSQL, 'derived failed', DB_2, 'BACKUP', name='mysql-BACKUP',
                   operation=OPERATION)]
CONFIGS = [MYSQL, HELLO] + DERIVED


def deployment_info(label, config, status, created, updated=None, outputs=None):
    info = {'id': heat_id(label), 'config_id': config['id'],
            'server_id': next(each['value'] for each in config['inputs']
                              if each['name'] == 'deploy_server_id'),
            # A run started here carries its operation, as its derived config does.
            'input_values': {key: value for key, value in config['options'].items()
                             if key == 'heat_deploy_dashboard'},
            'output_values': outputs,
            'action': next(each['value'] for each in config['inputs']
                           if each['name'] == 'deploy_action'),
            'status': status, 'status_reason': 'Outputs received',
            'creation_time': created}
    if updated:
        info['updated_time'] = updated
    return info


BACKUP_RUN = deployment_info(
    'run backup', DERIVED[2], 'COMPLETE', '2026-11-22T09:00:00Z', '2026-11-22T09:02:10Z',
    outputs={'deploy_stdout': 'backed up\n', 'deploy_stderr': '', 'deploy_status_code': 0,
             'backup_file': 'backups/b.tgz'})
RUNNING = deployment_info('run running', DERIVED[3], 'IN_PROGRESS', '2026-11-22T11:00:00Z')
DEPLOYMENTS = [
    deployment_info('run db-1', DERIVED[0], 'COMPLETE', '2026-11-22T03:20:17Z',
                    '2026-11-22T03:20:21Z'),
    deployment_info('run db-2', DERIVED[1], 'COMPLETE', '2026-11-22T03:20:17Z',
                    '2026-11-22T03:20:21Z'),
    BACKUP_RUN, RUNNING,
    deployment_info('run failed', DERIVED[4], 'FAILED', '2026-11-22T09:00:01Z',
                    '2026-11-22T09:00:09Z', outputs={'deploy_stdout': '',
                                                     'deploy_stderr': 'no such table\n',
                                                     'deploy_status_code': 3}),
]
TEMPLATE = {'heat_template_version': '2018-08-31',
            'resources': {'mysql': {'type': 'OS::Heat::SoftwareComponent',
                                    'properties': {'inputs': MYSQL['inputs']}}}}


def _config(config):
    return software_configs.SoftwareConfig(None, copy.deepcopy(config), loaded=True)


def _deployment(info):
    return Run.from_heat(
        software_deployments.SoftwareDeployment(None, copy.deepcopy(info), loaded=True))


# A run retention archived: the failed BACKUP on db-2, read back from the archive.
ARCHIVED = archive.run_of(archive.record(_deployment(DEPLOYMENTS[4]).described(DERIVED[4])))

# Which URL of each route to GET, by route name; a route missing here fails the run, so that
# a new page is not left out unnoticed.
ROUTES = {
    'components:index': {},
    'components:detail': {'component_id': MYSQL['id']},
    'components:run': {'component_id': MYSQL['id']},
    'components:stack': {'stack_id': STACK['id']},
    'deployments:index': {},
    'deployments:status': {'query': '?id=' + RUNNING['id']},
    'deployments:detail': {'deployment_id': BACKUP_RUN['id']},
    'deployments:rerun': {'deployment_id': BACKUP_RUN['id'],
                          'lands_on': 'horizon:project:components:run'},
    'deployments:output': {'deployment_id': BACKUP_RUN['id'], 'output_name': 'deploy_stdout'},
    'deployments:operation': {'operation_id': OPERATION['operation']},
    'deployments:operation_results': {'operation_id': OPERATION['operation'],
                                      'query': '?q=backup'},
    'deployments:operation_results_download': {'operation_id': OPERATION['operation'],
                                               'kind': 'csv'},
    'deployments:diff': {'deployment_id': BACKUP_RUN['id']},
    'deployments:operation_rerun': {'operation_id': OPERATION['operation'],
                                    'lands_on': 'horizon:project:components:run'},
    'deployments:archived_index': {},
    'deployments:archived': {'run_id': ARCHIVED.id},
    'deployments:archived_output': {'run_id': ARCHIVED.id, 'output_name': 'deploy_stderr'},
    'deployments:archived_rerun': {'run_id': ARCHIVED.id,
                                   'lands_on': 'horizon:project:components:run'},
    'servers:index': {},
    'servers:detail': {'server_id': DB_1},
    'servers:reveal_metadata': {'server_id': DB_1},
    'servers:results': {'server_id': DB_1, 'query': '?q=backup'},
    'servers:results_download': {'server_id': DB_1, 'kind': 'json'},
    'configs:index': {},
    'configs:create': {},
    'configs:detail': {'config_id': HELLO['id']},
    'configs:copy': {'config_id': HELLO['id']},
    'configs:delete': {'config_id': HELLO['id']},
    'configs:deploy': {'config_id': HELLO['id']},
    'schedules:index': {},
    'schedules:preview': {'query': '?pattern=0+2+*+*+*'},
    'schedules:change': {'schedule_id': SCHEDULE},
    'deployments:notices': {'kind': 'schedule', 'subject_id': SCHEDULE},
    'deployments:notice_subscribe': {'kind': 'operation',
                                     'subject_id': OPERATION['operation']},
    # A GET removes nothing: it goes to the subject's page.
    'deployments:notice_remove': {'kind': 'operation', 'subject_id': OPERATION['operation'],
                                  'subscription_id': '5f0c2a7b1d4c3e9f601a2b3c',
                                  'lands_on': 'horizon:project:deployments:operation'},
}


def schedule_record_get(request, name):
    return {'component_id': MYSQL['id'], 'component_name': 'mysql', 'run_name': 'mysql',
            'action': 'BACKUP', 'server_ids': [DB_1], 'input_values': {'retention_days': 14},
            'transport': 'TEMP_URL_SIGNAL', 'timeout_minutes': 60, 'batch_size': 0,
            'max_failures': 0, 'pattern': '0 2 * * *', 'once_at': None, 'owner': 'test_user',
            'paused': False}


def _found_archived(run_id):
    if run_id != ARCHIVED.id:
        raise LookupError(run_id)
    return ARCHIVED


def _find(items, item_id, what):
    for item in items:
        if item['id'] == item_id:
            return item
    raise heat_exc.HTTPNotFound(f'{what} {item_id} not found')


def configs_list(request, limit=None, marker=None):
    rows = sorted(({key: config[key] for key in ('id', 'name', 'group', 'creation_time')}
                   for config in CONFIGS), key=lambda row: row['creation_time'], reverse=True)
    if marker:
        rows = rows[[row['id'] for row in rows].index(marker) + 1:]
    return [_config(row) for row in rows[:limit]]


def server_metadata(request, server_id):
    return [dict(copy.deepcopy(config), inputs=config['inputs'] + [
        {'name': 'deploy_password', 'type': 'String', 'value': 'stack-user-secret'}])
        for config in DERIVED if any(each['value'] == server_id for each in config['inputs'])]


def resources_list(request, stack, resource_type=None, nested_depth=0, with_detail=False):
    if resource_type != 'OS::Heat::DeployedServer':
        return []
    return [heat_resources.Resource(None, {
        'resource_name': name, 'resource_type': resource_type, 'physical_resource_id': server,
        'attributes': {'name': 'demo-' + name}}, loaded=True)
        for name, server in (('db-1', DB_1), ('db-2', DB_2))]


KEEP = object()  # the real function: it makes no call

# The stand-ins, by module and function name.
STAND_INS = {
    api.heat: {
        'deployments_list': lambda request, server_id=None: [
            _deployment(info) for info in DEPLOYMENTS
            if server_id in (None, info['server_id'])],
        'deployment_get': lambda request, deployment_id: _deployment(
            _find(DEPLOYMENTS, deployment_id, 'Software deployment')),
        'config_get': lambda request, config_id: _config(
            _find(CONFIGS, config_id, 'Software config')),
        'configs_list': configs_list,
        'foreign_config_ids': lambda request, config_ids: set(),
        'stacks_list': lambda request: [heat_stacks.Stack(None, dict(STACK), loaded=True)],
        'stack_template': lambda request, stack_name: copy.deepcopy(TEMPLATE),
        'server_metadata': server_metadata,
        'resources_list': resources_list,
    },
    api.deploy: {
        'required_service': KEEP,
        'late_result': lambda request, deployment: None,
        'may_have_results': lambda request, configs, map_=map: set(),
        'collect_result': lambda request, run: run,
    },
    api.mistral: {
        'is_available': KEEP,
        'execution_get': lambda request, execution_id: None,
        'schedule_records': lambda request: [],
        'schedule_record_get': schedule_record_get,
        'cron_triggers_list': lambda request: [],
        'rolling_runs_list': lambda request, limit: [],
    },
    api.swift: {
        'is_available': KEEP,
        'archive_page': lambda request, prefix, size, marker=None, backwards=False: (
            archive.Page([ARCHIVED], False, False)),
        'archived_run': lambda request, run_id: _found_archived(run_id),
    },
    api.zaqar: {
        'notice_subscriptions': lambda request, subject_id: [],
    },
}
