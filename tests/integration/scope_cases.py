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

"""The addresses test_scope.py asks for (CASES): every page, download, form and action of the
plugin, each with how it must refuse another project's user and the cloud admin (its
kind); and what the demo user must see on some of them (POSITIVE)."""

import dataclasses

from tests.integration.scope_targets import MARK
from tests.integration.scope_targets import NEVER
from tests.integration.scope_targets import NOWHERE


@dataclasses.dataclass(frozen=True)
class Case:
    label: str
    path: str
    # page, server, status, table, form: must refuse (see _refusal); own-form: a form of the
    # requester's own config that must refuse the demo project's server with a form error;
    # list: the requester's own lists, which must answer 200 (and show nothing of demo's)
    kind: str
    method: str = 'GET'
    data: tuple = ()     # (name, value template) pairs; a value may be a list

    def resolve(self, ids):
        data = {}
        for name, value in self.data:
            if isinstance(value, list):
                data[name] = [each.format(**ids) for each in value]
            else:
                data[name] = value.format(**ids)
        return self.path.format(**ids), data

    def carried_ids(self, ids):
        """The ids the request itself holds: an answer may name them."""
        text = self.path + repr(self.data)
        return {value for name, value in ids.items() if '{' + name + '}' in text}


_RUN_FORM = (('action', 'BACKUP'), ('servers', ['{db1}']), ('transport', 'NO_SIGNAL'),
             ('timeout', '10'), ('input__pause_seconds', '0'), ('input__backup_dir', 'x'),
             ('input__retention_days', '1'), ('input__tables', 'users'),
             ('input__labels', '{{}}'), ('input__log_lines', '0'),
             ('input__backup_file', ''))
_COPY_FORM = (('name', 'intruder-copy'), ('group', 'script'), ('body_format', 'text'),
              ('config', '#!/bin/sh\necho intruder\n'), ('inputs', ''), ('outputs', ''),
              ('options', ''))
_DEPLOY_FORM = (('server', NOWHERE), ('action', 'CREATE'), ('name', 'intruder'),
                ('transport', 'NO_SIGNAL'), ('timeout', '10'), ('input__scope_input', 'x'))
_DETAIL = '/project/deployments/{run}/'
_ARCHIVED = '/project/deployments/archived/{archived}/'
_NOTICES = '/project/deployments/notices/'
_SUBSCRIBE_FORM = (('subscriber', 'https://intruder.example.com/'), ('when', 'always'))
_SCHEDULES = '/project/schedules/'
CASES = [
    # A run's page, each tab, and the other runs' pages.
    Case('run-detail', _DETAIL, 'page'),
    Case('run-detail-overview-tab', _DETAIL + '?tab=deployment_details__overview', 'page'),
    Case('run-detail-outputs-tab', _DETAIL + '?tab=deployment_details__outputs', 'page'),
    Case('run-detail-config-tab', _DETAIL + '?tab=deployment_details__config', 'page'),
    Case('cancelled-run-outputs-tab',
         '/project/deployments/{cancelled}/?tab=deployment_details__outputs', 'page'),
    Case('running-run-detail', '/project/deployments/{running}/', 'page'),
    Case('stack-deployment-outputs-tab',
         '/project/deployments/{stack_run}/?tab=deployment_details__outputs', 'page'),
    # Output downloads and Run Again.
    Case('run-output-stdout', _DETAIL + 'outputs/deploy_stdout/', 'page'),
    Case('run-output-backup_file', _DETAIL + 'outputs/backup_file/', 'page'),
    Case('stack-deployment-output-dsn', '/project/deployments/{stack_run}/outputs/dsn/',
         'page'),
    Case('run-rerun', _DETAIL + 'rerun/', 'page'),
    # An operation's page, Run Again on Failed and Cancel All Running.
    Case('operation-page', '/project/deployments/operations/{run_operation}/', 'page'),
    # Its results: searched, downloaded; a run's output compared with another's.
    Case('operation-results', '/project/deployments/operations/{run_operation}/results/',
         'page'),
    # A search for a word the demo run printed (the marker in the address would be shown).
    Case('operation-results-search',
         '/project/deployments/operations/{run_operation}/results/?q=backup_dir', 'page'),
    Case('operation-results-csv',
         '/project/deployments/operations/{run_operation}/results.csv', 'page'),
    Case('operation-results-json',
         '/project/deployments/operations/{run_operation}/results.json', 'page'),
    Case('run-diff-previous', _DETAIL + 'diff/', 'page'),
    Case('run-diff-other', _DETAIL + 'diff/?other={cancelled}', 'page'),
    Case('cancelled-operation-rerun-failed',
         '/project/deployments/operations/{cancelled_operation}/rerun/', 'page'),
    Case('operation-cancel-all', '/project/deployments/operations/{running_operation}/',
         'table', 'POST', (('action', 'operation__cancel_all'),)),
    Case('operation-cancel-row', '/project/deployments/operations/{running_operation}/',
         'table', 'POST', (('action', 'operation__cancel__{running}'),)),
    # The live status poll.
    Case('status-poll-post', '/project/deployments/status/', 'status', 'POST',
         (('id', ['{run}', '{cancelled}', '{running}', '{stack_run}']),)),
    Case('status-poll-get', '/project/deployments/status/?id={running}&id={run}', 'status'),
    Case('status-poll-operation-rows', '/project/deployments/status/', 'status', 'POST',
         (('id', ['{run}', '{running}']), ('table', 'operation'))),
    # A run page's poll of its live output (an operation page's carries its last lines).
    Case('status-poll-live', '/project/deployments/status/', 'status', 'POST',
         (('id', ['{run}', '{running}']), ('live', '{running}'), ('stdout_bytes', '0'))),
    # The deployments table's actions, as a row's button and as the table's batch button
    # post them, on the deployments list and on a server's page.
    Case('table-cancel-row', '/project/deployments/', 'table', 'POST',
         (('action', 'deployments__cancel__{running}'),)),
    Case('table-delete-row', '/project/deployments/', 'table', 'POST',
         (('action', 'deployments__delete__{run}'),)),
    Case('table-cancel-batch', '/project/deployments/', 'table', 'POST',
         (('action', 'deployments__cancel'), ('object_ids', ['{running}']))),
    Case('table-delete-batch', '/project/deployments/', 'table', 'POST',
         (('action', 'deployments__delete'), ('object_ids', ['{cancelled}']))),
    Case('server-table-cancel-row', '/project/servers/{nowhere}/', 'table', 'POST',
         (('action', 'deployments__cancel__{running}'),)),
    Case('server-table-delete-row', '/project/servers/{db1}/', 'table', 'POST',
         (('action', 'deployments__delete__{run}'),)),
    # Configs: page and tabs, copy, deploy, delete.
    Case('derived-config-detail', '/project/configs/{run_config}/', 'page'),
    Case('unused-config-detail', '/project/configs/{unused}/', 'page'),
    Case('unused-config-body-tab', '/project/configs/{unused}/?tab=config_details__body',
         'page'),
    Case('component-config-deployments-tab',
         '/project/configs/{component}/?tab=config_details__deployments', 'page'),
    Case('config-copy-get', '/project/configs/{unused}/copy/', 'page'),
    Case('config-copy-post', '/project/configs/{unused}/copy/', 'form', 'POST', _COPY_FORM),
    Case('config-deploy-get', '/project/configs/{unused}/deploy/', 'page'),
    Case('config-deploy-post', '/project/configs/{unused}/deploy/', 'form', 'POST',
         _DEPLOY_FORM),
    Case('component-config-deploy-get', '/project/configs/{component}/deploy/', 'page'),
    Case('config-delete-get', '/project/configs/{unused}/delete/', 'page'),
    Case('config-delete-post', '/project/configs/{unused}/delete/', 'form', 'POST'),
    Case('derived-config-delete-post', '/project/configs/{run_config}/delete/', 'form',
         'POST'),
    # Components: page, tabs, Run Action.
    Case('component-detail', '/project/components/{component}/', 'page'),
    Case('component-servers-tab',
         '/project/components/{component}/?tab=component_details__servers', 'page'),
    Case('component-run-get', '/project/components/{component}/run/', 'page'),
    Case('component-map-tab', '/project/components/{component}/?tab=component_details__map',
         'page'),
    Case('stack-map', '/project/components/stacks/{stack}/', 'page'),
    Case('component-run-get-prefilled',
         '/project/components/{component}/run/?action=BACKUP&server={db1}'
         '&input__backup_dir=x', 'page'),
    Case('component-run-post', '/project/components/{component}/run/', 'form', 'POST',
         _RUN_FORM),
    # Servers: history, metadata, secrets shown.
    Case('server-detail', '/project/servers/{db1}/', 'server'),
    Case('server-metadata-tab', '/project/servers/{db1}/?tab=server_details__metadata',
         'server'),
    Case('server-metadata-reveal',
         '/project/servers/{db1}/?tab=server_details__metadata&reveal=1', 'server'),
    Case('mon-metadata-reveal',
         '/project/servers/{mon}/?tab=server_details__metadata&reveal=1', 'server'),
    Case('mon-metadata-tab-post-reveal', '/project/servers/{mon}/?tab=server_details__metadata',
         'server', 'POST', (('reveal', '1'),)),
    # The reveal form: a GET asks to confirm, the POST shows the secrets.
    Case('server-reveal-form-get', '/project/servers/{db1}/metadata/reveal/', 'server'),
    Case('server-reveal-form-post', '/project/servers/{db1}/metadata/reveal/', 'server',
         'POST'),
    Case('mon-reveal-form-get', '/project/servers/{mon}/metadata/reveal/', 'server'),
    Case('mon-reveal-form-post', '/project/servers/{mon}/metadata/reveal/', 'server',
         'POST'),
    Case('nowhere-server-detail', '/project/servers/{nowhere}/', 'server'),
    Case('server-results', '/project/servers/{db1}/results/?q=backup_dir', 'server'),
    Case('server-results-csv', '/project/servers/{db1}/results.csv', 'page'),
    Case('server-results-json', '/project/servers/{db1}/results.json', 'page'),
    # An archived run: its page, outputs, Run Again, Delete, a server's Archived tab.
    Case('archived-detail', _ARCHIVED, 'page'),
    Case('archived-outputs-tab', _ARCHIVED + '?tab=deployment_details__outputs', 'page'),
    Case('archived-output-stdout', _ARCHIVED + 'outputs/deploy_stdout/', 'page'),
    Case('archived-rerun', _ARCHIVED + 'rerun/', 'page'),
    Case('archived-table-delete-row', '/project/deployments/archived/', 'table', 'POST',
         (('action', 'archived__delete__{archived}'),)),
    Case('server-archived-tab', '/project/servers/{db1}/?tab=server_details__archived',
         'server'),
    # Notices: subscribing to the demo project's component and operation, and removing its
    # subscription.
    Case('notice-component-subscribe-get', _NOTICES + 'component/{component}/subscribe/',
         'page'),
    Case('notice-component-subscribe-post', _NOTICES + 'component/{component}/subscribe/',
         'form', 'POST', _SUBSCRIBE_FORM),
    Case('notice-operation-subscribe-get', _NOTICES + 'operation/{run_operation}/subscribe/',
         'page'),
    Case('notice-operation-subscribe-post',
         _NOTICES + 'operation/{run_operation}/subscribe/', 'form', 'POST', _SUBSCRIBE_FORM),
    Case('notice-component-remove',
         _NOTICES + 'component/{component}/{subscription}/remove/', 'form', 'POST'),
    # Schedules: the demo project's, changed through its form or its row's actions; and a
    # Mistral environment of the demo project that is no schedule (not named as one).
    Case('schedule-change-get', _SCHEDULES + '{schedule}/change/', 'page'),
    Case('schedule-change-post', _SCHEDULES + '{schedule}/change/', 'form', 'POST',
         _RUN_FORM + (('repeat', NEVER),)),
    Case('schedule-table-pause', _SCHEDULES, 'table', 'POST',
         (('action', 'schedules__pause__{schedule}'),)),
    Case('schedule-table-delete', _SCHEDULES, 'table', 'POST',
         (('action', 'schedules__delete__{schedule}'),)),
    Case('notice-schedule-subscribe-get', _NOTICES + 'schedule/{schedule}/subscribe/', 'page'),
    Case('environment-change-get', _SCHEDULES + '{environment}/change/', 'page'),
    Case('environment-table-pause', _SCHEDULES, 'table', 'POST',
         (('action', 'schedules__pause__{environment}'),)),
    Case('environment-table-delete', _SCHEDULES, 'table', 'POST',
         (('action', 'schedules__delete__{environment}'),)),
    # The requester's own config deployed to a demo server, by its id or by its name: only
    # the project's own servers are taken.
    Case('own-config-deploy-form-get', '/project/configs/{own_config}/deploy/', 'list'),
    Case('own-config-deploy-to-demo-server-id', '/project/configs/{own_config}/deploy/',
         'own-form', 'POST', _DEPLOY_FORM[1:] + (('server', '{db1}'),)),
    Case('own-config-deploy-to-demo-server-name', '/project/configs/{own_config}/deploy/',
         'own-form', 'POST', _DEPLOY_FORM[1:] + (('server', 'demo-db-1'),)),
    # The requester's own lists, and their filters asked for the demo project's objects
    # (last: a filter stays in the session).
    Case('deployments-list', '/project/deployments/', 'list'),
    Case('archived-list', '/project/deployments/archived/', 'list'),
    Case('configs-list', '/project/configs/', 'list'),
    Case('servers-list', '/project/servers/', 'list'),
    Case('components-list', '/project/components/', 'list'),
    Case('configs-filter-demo-name', '/project/configs/', 'list', 'POST',
         (('configs__filter__q_field', 'name'), ('configs__filter__q', 'unused-'))),
    Case('deployments-filter-demo-server', '/project/deployments/', 'list', 'POST',
         (('deployments__filter__q_field', 'server'), ('deployments__filter__q', '{db1}'))),
    Case('deployments-filter-demo-operation', '/project/deployments/', 'list', 'POST',
         (('deployments__filter__q_field', 'operation'),
          ('deployments__filter__q', '{run_operation}'))),
]
# The demo user on some of the same addresses: each must show these.
POSITIVE = [
    ('run-detail-overview-tab', lambda t: [f'dir-{MARK}']),
    ('run-detail-outputs-tab', lambda t: [f'backup_dir=dir-{MARK}']),
    ('run-output-stdout', lambda t: [t.stdout]),
    ('archived-detail', lambda t: [f'archived-dir-{MARK}', f'archived-{MARK}']),
    ('archived-output-stdout', lambda t: [f'archived-{MARK}']),
    ('server-archived-tab', lambda t: [t.ids['archived']]),
    ('unused-config-detail', lambda t: [f'unused-{MARK}', f'default-{MARK}']),
    ('component-detail', lambda t: [t.heat.software_configs.get(t.ids['component']).name,
                                    f'https://hooks.example.com/{MARK}']),
    ('status-poll-post', lambda t: [t.ids['run'], t.ids['running']]),
    ('status-poll-live', lambda t: [f'live-{MARK}']),
    ('status-poll-operation-rows', lambda t: [f'"{t.ids["running"]}": "live-{MARK}"']),
    ('schedule-change-get', lambda t: [f'schedule-dir-{MARK}']),
    ('operation-page', lambda t: [t.ids['run'], 'BACKUP on 1 server']),
    ('operation-results-search', lambda t: [t.ids['run'], '<mark>backup_dir</mark>',
                                            f'dir-{MARK}']),
    ('operation-results-csv', lambda t: [t.ids['run'], MARK]),
    ('server-results', lambda t: [t.ids['run'], '<mark>backup_dir</mark>', f'dir-{MARK}']),
    ('mon-reveal-form-post', lambda t: [p for p, what in t.secrets().items()
                                        if 'password' in what]),
]
BY_LABEL = {case.label: case for case in CASES}
assert len(BY_LABEL) == len(CASES)
