"""Scope: every page, download, form and action of the plugin, asked for with the demo
project's ids by a user of another project (`other`) and by the cloud admin working in its own
project (`admin`), answers "not found" (a 404, or a redirect with a not-found message; the
servers' pages, which Heat cannot tell, say that they list nothing), never the demo project's
data, and changes nothing in Heat or Swift. The demo user itself is the positive control: the
same addresses show it its data.

What the demo project must never show to them (``Targets.secrets``): every id of its objects
other than those the request itself carries (a not-found answer may repeat the id it was
asked for), the names of its configs, the input values, stdout and outputs of its runs (they
all carry one random marker), a cancel's reason, the stack user's password in demo-mon-1's
metadata and the TempURL signatures in the demo servers' metadata, as heatclient reads them
as the demo user.

Each case is checked the same way: the demo project's deployments, configs and Swift
containers, the requester's own, and the status of the demo runs used as targets, before and
after, and what demo-db-1's agent runs (its resource metadata, where Heat writes every
deployment it finds for the server). A case that changed something is reported, what the
requester made is removed and the targets are made again, so that the next case starts from
the same state. The requester's own lists and Deploy form (of a config of its own) are asked
too: they answer 200 and show nothing of the demo project, and the form refuses a demo
server, by id or by name.
"""

import dataclasses
import json
import re
import uuid

from heatclient import client as heat_client
from heatclient import exc as heat_exc
import pytest
from swiftclient import client as swift_client

from devcloud import credentials
from devcloud.services import identity
import heat_deploy_runner as runner
from heat_deploy_runner import archive
from heat_deploy_runner import notices
from heat_deploy_runner import operations
from tests.integration import corpus
from tests.integration import waiting

# In every input value, stdout line and output of the demo runs made here.
MARK = 'scope' + uuid.uuid4().hex[:12]
# Where the runs that never finish are "deployed": Heat does not check a standalone
# deployment's server, and no agent reads this one.
NOWHERE = str(uuid.uuid4())


class Targets:
    """The demo project's objects the cases ask for, made (again, when a case removed or
    changed one) as the demo user."""

    def __init__(self, heat, swift, zaqar, find_transport, demo_resources):
        self.heat, self.swift, self.zaqar = heat, swift, zaqar
        self.find_transport = find_transport
        self.resources = demo_resources
        self.ids = {
            'component': demo_resources['mysql'],
            'db1': demo_resources['db_server_1'],
            'mon': demo_resources['monitor_server'],
            'stack_run': demo_resources['mysql_deployment_1'],
            'stack': heat.stacks.get('demo').id,
            'nowhere': NOWHERE,
        }
        self.expected = {}      # run name: (status, status_reason) it must keep
        self.made = []          # deployment ids, deleted at the end
        self.remade = []        # (case, what) for the report
        self.stdout = None

    # --- making them ---

    def _trigger(self, name, server, **inputs):
        """A run, as Run Action starts it: in an operation of its own (its id is
        ids[name + '_operation'])."""
        operation = runner.Operation.new(credentials.DEMO_USER, self.ids['component'])
        result = runner.start(
            self.heat, self.find_transport, runner.RunRequest(
                config_id=self.ids['component'], action='BACKUP', name='mysql',
                server_ids=[server],
                input_values=dict({'pause_seconds': 0, 'tables': 'users', 'retention_days': 3,
                                   'labels': {'scope': f'label-{MARK}'}}, **inputs),
                transport='TEMP_URL_SIGNAL'),
            operation=operation)
        assert result.failures == [], result.failures
        [run] = result.created
        self.made.append(run.id)
        self.ids[name] = run.id
        self.ids[name + '_operation'] = operation.id
        return run

    def make_run(self):
        run = self._trigger('run', self.ids['db1'], backup_dir=f'dir-{MARK}')
        done = waiting.finished(self.heat, run.id, timeout=90)
        assert done.status == 'COMPLETE', (done.status, done.status_reason)
        self.stdout = done.output_values['deploy_stdout']
        assert MARK in self.stdout
        self.ids['run_config'] = done.config_id
        self.expected['run'] = (done.status, done.status_reason)

    def make_cancelled(self):
        run = self._trigger('cancelled', NOWHERE, backup_dir=f'cancelled-{MARK}')
        cancelled = runner.cancel(self.heat, run.id, credentials.DEMO_USER,
                                  self.find_transport)
        assert runner.is_cancelled(cancelled)
        self.expected['cancelled'] = (cancelled.status, cancelled.status_reason)

    def make_running(self):
        run = self._trigger('running', NOWHERE, backup_dir=f'running-{MARK}')
        self.expected['running'] = ('IN_PROGRESS', run.status_reason)

    def make_unused(self):
        config = self.heat.software_configs.create(
            name=f'unused-{MARK}', group='script',
            config=f'#!/bin/sh\necho body-{MARK}\n',
            inputs=[{'name': 'scope_input', 'type': 'String',
                     'default': f'default-{MARK}'}],
            outputs=[{'name': 'scope_output'}], options={'scope': f'option-{MARK}'})
        self.ids['unused'] = config.id

    def make_archived(self):
        """A run as retention archives it in the project's Object Storage."""
        operation = runner.Operation.new(credentials.DEMO_USER, self.ids['component'])
        made = runner.Run(
            id=str(uuid.uuid4()), server_id=self.ids['db1'], config_id=str(uuid.uuid4()),
            # Now: the newest of the server's archived runs, on the first page of its tab.
            action='BACKUP', status='COMPLETE', creation_time=operation.started_at,
            input_values=operations.as_input_values(operation),
            output_values={'deploy_stdout': f'archived-{MARK}\n', 'deploy_status_code': 0},
            config={'name': 'mysql-BACKUP', 'group': 'component', 'outputs': [],
                    'inputs': [{'name': 'backup_dir', 'type': 'String',
                                'value': f'archived-dir-{MARK}'}]})
        archive.put(self.swift, made)
        self.ids['archived'] = made.id

    def make_subscription(self):
        """A notice of the component's failures, to an address that carries the marker."""
        made = notices.subscribe(self.zaqar, self.ids['component'], notices.ON_FAILURE,
                                 f'https://hooks.example.com/{MARK}')
        self.ids['subscription'] = made.id

    def make_all(self):
        self.make_run()
        self.make_cancelled()
        self.make_running()
        self.make_unused()
        self.make_archived()
        self.make_subscription()

    # --- keeping them as they were ---

    def _run_as_expected(self, name):
        try:
            found = self.heat.software_deployments.get(self.ids[name])
        except heat_exc.HTTPNotFound:
            return False
        return (found.status, found.status_reason) == self.expected[name]

    def _config_exists(self, name):
        try:
            self.heat.software_configs.get(self.ids[name])
            return True
        except heat_exc.HTTPNotFound:
            return False

    def damaged(self):
        """What is no longer as it was made: names of targets."""
        found = [name for name in ('run', 'cancelled', 'running')
                 if not self._run_as_expected(name)]
        found += [name for name in ('run_config', 'unused', 'component')
                  if not self._config_exists(name)]
        try:
            archive.get(self.swift, self.ids['archived'])
        except LookupError:
            found.append('archived')
        if self.ids['subscription'] not in {each.id for each in notices.subscriptions(
                self.zaqar, self.ids['component'])}:
            found.append('subscription')
        return found

    def repair(self, case, damaged=None):
        """Make again what a case removed or changed (all of it when ``damaged`` is None and
        something is)."""
        damaged = self.damaged() if damaged is None else damaged
        makers = {'run': self.make_run, 'run_config': self.make_run,
                  'cancelled': self.make_cancelled, 'running': self.make_running,
                  'unused': self.make_unused, 'archived': self.make_archived,
                  'subscription': self.make_subscription}
        for name in damaged:
            if name == 'component':
                pytest.fail('the demo stack\'s mysql component config is gone')
            old = self.ids.get(name)
            if name in ('run', 'cancelled', 'running'):
                try:
                    runner.delete(self.heat, old, self.find_transport)
                except heat_exc.HTTPException:
                    pass
            self.remade.append((case, name))
        for maker in dict.fromkeys(makers[name] for name in damaged):
            maker()
        if damaged:
            self._secrets = None

    # --- what must never show ---

    _secrets = None

    def secrets(self):
        """{text: what it is} of everything of the demo project no other project may see."""
        if self._secrets is None:
            self._secrets = self._read_secrets()
        return self._secrets

    def _read_secrets(self):
        found = {MARK: 'an input value, stdout line or output of a demo run'}
        for name, value in self.resources.items():
            found[value] = f'the id of the demo stack\'s {name}'
        for name in ('run', 'run_config', 'cancelled', 'running', 'unused', 'archived',
                     'subscription'):
            found[self.ids[name]] = f'the id of the demo {name}'
        component = self.heat.software_configs.get(self.ids['component'])
        found[component.name] = 'the name of the demo mysql component config'
        found['mysql-BACKUP'] = 'the name of a demo run\'s derived config'
        found[self.expected['cancelled'][1]] = 'the reason of the demo project\'s cancel'
        for server in ('mon', 'db1'):
            metadata = json.dumps(self.heat.software_deployments.metadata(
                server_id=self.ids[server]))
            for password in re.findall(r'"name": "deploy_password"[^}]*"value": "([^"]+)"',
                                       metadata):
                found[password] = f'the stack user\'s password in {server}\'s metadata'
            for signature in re.findall(r'temp_url_sig=([0-9a-f]{20,})', metadata):
                found[signature] = f'a TempURL signature in {server}\'s metadata'
        assert any('password' in what for what in found.values()), (
            'demo-mon-1\'s metadata should hold the stack user\'s password')
        return found

    def agent_reads(self):
        """The ids of the derived configs in demo-db-1's resource metadata: what its agent
        runs (Heat writes there every deployment it finds for the server)."""
        if not hasattr(self, '_stack'):
            stack = self.heat.stacks.get('demo')
            self._stack = f'{stack.stack_name}/{stack.id}'
        metadata = self.heat.resources.metadata(self._stack, 'db_server_1') or {}
        return frozenset(each.get('id') for each in metadata.get('deployments') or [])

    def delete_all(self):
        for deployment_id in self.made:
            try:
                runner.delete(self.heat, deployment_id, self.find_transport)
            except heat_exc.HTTPException:
                pass
        try:
            self.heat.software_configs.delete(self.ids['unused'])
        except heat_exc.HTTPException:
            pass
        archive.delete(self.swift, self.ids['archived'])
        notices.unsubscribe(self.zaqar, self.ids['component'], self.ids['subscription'])


@pytest.fixture(scope='module')
def targets(heat, swift, zaqar, find_transport, demo_resources):
    made = Targets(heat, swift, zaqar, find_transport, demo_resources)
    made.make_all()
    yield made
    made.delete_all()


@dataclasses.dataclass
class Requester:
    name: str
    user: corpus.User
    heat: object
    swift: object
    own_config: str = None


@pytest.fixture(scope='module')
def requesters(cloud):
    """The three users, logged in to the dashboard, with their own Heat and Swift clients and
    a config of their own project."""
    found = {}
    for name, password, session in (
            ('demo', credentials.DEMO_PASSWORD, identity.user_session(cloud.layout)),
            ('other', credentials.OTHER_PASSWORD, identity.user_session(
                cloud.layout, credentials.OTHER_USER, credentials.OTHER_PASSWORD,
                credentials.OTHER_PROJECT)),
            ('admin', credentials.ADMIN_PASSWORD, identity.admin_session(cloud.layout))):
        swift = swift_client.Connection(session=session, retries=1, timeout=30)
        try:
            swift.get_account()
        except Exception:
            swift = None
        heat = heat_client.Client('1', session=session, auth=session.auth)
        found[name] = Requester(
            name, corpus.User(cloud.layout.dashboard_url, name, password), heat, swift,
            # A config of the requester's own project, to deploy.
            heat.software_configs.create(
                name=f'own-{name}', group='script', config='#!/bin/sh\necho own\n',
                inputs=[{'name': 'scope_input', 'type': 'String', 'default': 'x'}],
                outputs=[], options={}).id)
    yield found
    for requester in found.values():
        requester.heat.software_configs.delete(requester.own_config)


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
    ('operation-page', lambda t: [t.ids['run'], 'BACKUP on 1 server']),
    ('mon-reveal-form-post', lambda t: [p for p, what in t.secrets().items()
                                        if 'password' in what]),
]

_BY_LABEL = {case.label: case for case in CASES}
assert len(_BY_LABEL) == len(CASES)

SUCCESS_WORDS = ('Cancelled Run', 'Deleted Run', 'Started ',
                 'Created software config', 'Deleted software config')


def _snapshot(requester, targets):
    return (corpus.state(targets.heat, targets.swift),
            corpus.state(requester.heat, requester.swift), targets.agent_reads())


def _send(requester, case, ids):
    path, data = case.resolve(ids)
    return requester.user.request(case.method, path, data)


def _refusal(case, response, requested):
    """None when the response refuses the way a case of this kind must; else why not."""
    status = response.status_code
    if case.kind == 'list':
        return None if status == 200 else f'the requester\'s own page answered {status}'
    if status in (404, 403) or '/auth/login/' in response.url:
        return None
    if status >= 500:
        return f'server error {status}'
    page = response.text
    if case.kind == 'status':
        try:
            answer = response.json()
        except ValueError:
            return 'the status poll did not answer JSON'
        if status == 400:
            return None
        if answer.get('rows') or answer.get('running'):
            return 'the status poll answered with rows for the demo project\'s runs'
        if not set(requested) <= set(answer.get('gone') or ()):
            return 'the status poll did not report the runs as gone'
        return None
    if status != 200:
        return f'unexpected status {status}'
    successes = [text for level, text in corpus.alerts(page)
                 if level == 'success' or any(word in text for word in SUCCESS_WORDS)]
    if successes:
        return f'it reported success: {successes}'
    if case.kind == 'own-form':
        return None if corpus.form_errors(page) else 'the form took the demo project\'s server'
    if case.kind == 'table':
        # Horizon sends an action on a row it does not list back to the list.
        return None if response.history else 'the table action did not answer'
    if response.history and corpus.says_not_found(response):
        return None
    if case.kind == 'server' and (
            'Heat lists no deployments on this server' in page
            or 'Heat sends this server no deployments' in page):
        return None
    return 'it answered 200 with a page, not "not found"'


def _leaks(response, secrets, carried):
    shown = [response.text, response.url] + [
        r.headers.get('Location', '') for r in response.history]
    shown = '\n'.join(shown)
    return sorted({what for text, what in secrets.items()
                   if text and text not in carried and corpus.appears(text, shown)})


@pytest.mark.parametrize('requester_name', ['other', 'admin'])
@pytest.mark.parametrize('label', [case.label for case in CASES])
def test_another_project_gets_nothing(requesters, targets, requester_name, label):
    case, requester = _BY_LABEL[label], requesters[requester_name]
    secrets = targets.secrets()
    ids = dict(targets.ids, own_config=requester.own_config)
    before = _snapshot(requester, targets)

    response = _send(requester, case, ids)

    after = _snapshot(requester, targets)
    problems = []
    requested = [each for each in ids.values() if each in case.resolve(ids)[0]
                 or each in repr(case.resolve(ids)[1])]
    refusal = _refusal(case, response, requested)
    if refusal:
        problems.append(refusal)
    leaks = _leaks(response, secrets, case.carried_ids(ids))
    if leaks:
        problems.append(f'it shows {leaks}')
    demo_changes = before[0].changes(after[0])
    own_changes = before[1].changes(after[1])
    damaged = targets.damaged()
    if demo_changes:
        problems.append(f'the demo project changed: {demo_changes}')
    if own_changes:
        problems.append(f'{requester_name}\'s own project changed: {own_changes}')
    if before[2] != after[2]:
        problems.append(f'what demo-db-1\'s agent runs changed: added '
                        f'{sorted(after[2] - before[2])}, removed {sorted(before[2] - after[2])}')
    if damaged:
        problems.append(f'demo targets changed or gone: {damaged}')
    if own_changes:
        corpus.undo(requester.heat, requester.swift, before[1], after[1])
    if demo_changes:
        corpus.undo(targets.heat, targets.swift, before[0], after[0])
    if damaged:
        targets.repair(f'after {requester_name}-{label}', damaged)
    assert not problems, f'{"; ".join(problems)} -- {corpus.describe(response)}'


@pytest.mark.parametrize('label', [label for label, _expected in POSITIVE])
def test_the_demo_user_sees_its_own_data(requesters, targets, label):
    """The control: the same addresses, asked by the demo user, answer 200 with the data."""
    case, demo = _BY_LABEL[label], requesters['demo']
    expected = dict(POSITIVE)[label](targets)
    before = corpus.state(targets.heat, targets.swift)

    response = _send(demo, case, dict(targets.ids))
    if label == 'mon-reveal-form-post' and response.status_code == 404:
        # A dashboard without the reveal form shows the secrets on ?reveal=1.
        response = _send(demo, _BY_LABEL['mon-metadata-reveal'], dict(targets.ids))

    assert response.status_code == 200, corpus.describe(response)
    missing = [text[:80] for text in expected if not corpus.appears(text, response.text)]
    assert not missing, f'missing {missing} -- {corpus.describe(response)}'
    assert before.changes(corpus.state(targets.heat, targets.swift)) == {}
    if case.kind == 'status':
        assert set(response.json()['rows']) >= {targets.ids['run'], targets.ids['running']}


def test_the_targets_still_exist_as_the_demo_user_made_them(targets):
    """Run last in the module: the demo config and runs are still there, unchanged (a case
    that removed or changed one failed, and they were made again after it)."""
    assert targets.damaged() == []
    assert targets.heat.software_configs.get(targets.ids['component'])
    assert targets.heat.software_deployments.get(targets.ids['run']).status == 'COMPLETE'
