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

"""Heat data for the Servers panel: two demo db servers and the web server with their runs,
the derived configs of those runs, and what Heat's metadata call returns for a server.

Plain dicts, turned into heatclient resources by the functions below, so a test can change
a copy before serving it.
"""

import copy
import uuid

from heatclient import exc as heat_exc
from heatclient.v1 import software_configs
from heatclient.v1 import software_deployments

from heat_deploy_runner import Run

DB_1 = '30748cec-6559-436b-9a4d-f58e39b1ccf2'
DB_2 = '9597145b-0a95-4428-85b8-d52e98ecf8a2'
WEB = '7202197c-dd83-4dc3-a27b-139242e05af6'

TEMP_URL_SIG = '6f1b3c9d2e4a5b7c8d9e0f1a2b3c4d5e6f7a8b9c'
SIGNAL_URL = ('http://swift.example.com:8080/v1/AUTH_p/mysql-BACKUP-1/1'
              '?temp_url_sig=' + TEMP_URL_SIG + '&temp_url_expires=2147483646')
DB_PASSWORD = 'correct-horse-battery'
STACK_USER_PASSWORD = 'Zq8-stack-user-secret'


def heat_id(label):
    """The id Heat would have given the object this data calls ``label``: a UUID."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, label))


def _config(label, name, **inputs):
    return {
        'id': heat_id(label), 'name': name, 'group': 'component', 'config': {'configs': []},
        'inputs': [{'name': key, 'type': 'String', 'value': value}
                   for key, value in inputs.items()] + [
            {'name': 'deploy_server_id', 'type': 'String', 'value': DB_1},
            {'name': 'deploy_signal_transport', 'type': 'String',
             'value': 'TEMP_URL_SIGNAL'},
            {'name': 'deploy_signal_id', 'type': 'String', 'value': SIGNAL_URL}],
        'outputs': [], 'options': {}, 'creation_time': '2026-11-22T03:20:17Z',
    }


CONFIGS = {
    'c-create': _config('c-create', 'demo-mysql_deployment_1-ab12cd34ef56'),
    'c-backup': _config('c-backup', 'mysql-BACKUP', retention_days=14,
                        tables=['users', 'posts'], db_password=DB_PASSWORD),
    'c-restore': _config('c-restore', 'mysql-RESTORE', backup_file='backups/b.tgz'),
    'c-backup-2': _config('c-backup-2', 'mysql-BACKUP', retention_days=7),
    'c-db2': _config('c-db2', 'demo-mysql_deployment_2-ab12cd34ef57'),
    'c-web': _config('c-web', 'demo-wordpress_deployment-ab12cd34ef58'),
}


def _deployment(label, server_id, config_label, action, status, created,
                updated=None):
    info = {'id': heat_id(label), 'server_id': server_id, 'config_id': heat_id(config_label),
            'action': action, 'status': status, 'status_reason': '',
            'input_values': {}, 'output_values': {}, 'creation_time': created}
    # Heat leaves updated_time out until the first update.
    if updated:
        info['updated_time'] = updated
    return info


# On DB_1, oldest first: the stack's CREATE, a BACKUP, a failed RESTORE, a running BACKUP.
CREATE = _deployment('d-create', DB_1, 'c-create', 'CREATE', 'COMPLETE',
                     '2026-11-22T03:20:17Z', '2026-11-22T03:20:21Z')
BACKUP = _deployment('d-backup', DB_1, 'c-backup', 'BACKUP', 'COMPLETE',
                     '2026-11-22T09:00:00Z', '2026-11-22T09:02:10Z')
RESTORE = _deployment('d-restore', DB_1, 'c-restore', 'RESTORE', 'FAILED',
                      '2026-11-22T10:00:00Z', '2026-11-22T10:01:05Z')
RUNNING = _deployment('d-running', DB_1, 'c-backup-2', 'BACKUP', 'IN_PROGRESS',
                      '2026-11-22T11:00:00Z')
DB_1_RUNS = [BACKUP, RUNNING, CREATE, RESTORE]
OTHERS = [
    _deployment('d-db2', DB_2, 'c-db2', 'CREATE', 'COMPLETE',
                '2026-11-22T03:20:17Z', '2026-11-22T03:20:21Z'),
    _deployment('d-web', WEB, 'c-web', 'CREATE', 'FAILED',
                '2026-11-22T03:20:21Z', '2026-11-22T03:20:24Z'),
]

# What Heat's metadata call returns for DB_1 (heat.engine.api.format_software_config of
# each deployment's config), with the stack user's password of a HEAT signal.
METADATA = [
    dict(CONFIGS['c-backup'], inputs=CONFIGS['c-backup']['inputs'] + [
        {'name': 'deploy_password', 'type': 'String', 'value': STACK_USER_PASSWORD}]),
]


def deployments(infos=None):
    return [Run.from_heat(software_deployments.SoftwareDeployment(
        None, copy.deepcopy(info), loaded=True))
            for info in (DB_1_RUNS + OTHERS if infos is None else infos)]


def config_getter(configs=None):
    """A stand-in for api.heat.config_get over ``configs`` (CONFIGS by default)."""
    by_id = {config['id']: config for config in (CONFIGS if configs is None else configs).values()}

    def config_get(request, config_id):
        if config_id not in by_id:
            raise heat_exc.HTTPNotFound()
        return software_configs.SoftwareConfig(None, copy.deepcopy(by_id[config_id]),
                                               loaded=True)

    return config_get


def metadata():
    return copy.deepcopy(METADATA)
