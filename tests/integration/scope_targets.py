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

"""What test_scope.py asks other users for: the demo project's objects (Targets), each
carrying one random marker, made before its cases and after any case that changed them.

What the demo project must never show to them (``Targets.secrets``): every id of its objects
other than those the request itself carries (a not-found answer may repeat the id it was
asked for), the names of its configs, the input values, stdout and outputs of its runs (they
all carry one random marker), a cancel's reason, the stack user's password in demo-mon-1's
metadata and the TempURL signatures in the demo servers' metadata, as heatclient reads them
as the demo user."""

import json
import re
import uuid

from heatclient import exc as heat_exc
import pytest

from devcloud import credentials
import heat_deploy_runner as runner
from heat_deploy_runner.following import notices
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.running import operations
from heat_deploy_runner.scheduling import schedules
from heat_deploy_runner.signalling import live
from heat_deploy_runner.signalling.tempurl import signal_location
from tests.integration import waiting


# In every input value, stdout line and output of the demo runs made here.
MARK = 'scope' + uuid.uuid4().hex[:12]
# Where the runs that never finish are "deployed": Heat does not check a standalone
# deployment's server, and no agent reads this one.
NOWHERE = str(uuid.uuid4())
# When the demo schedule fires: never while a test runs.
NEVER = '0 3 1 1 *'


class Targets:
    """The demo project's objects the cases ask for, made (again, when a case removed or
    changed one) as the demo user."""

    def __init__(self, heat, swift, zaqar, find_transport, demo_resources, workflow):
        self.heat, self.swift, self.zaqar = heat, swift, zaqar
        # The demo user's Mistral (with its Object Storage): runner.workflows.workflow_clients.
        self.workflow = workflow
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

    def _trigger(self, name, server, live=False, **inputs):
        """A run, as Run Action starts it: in an operation of its own (its id is
        ids[name + '_operation'])."""
        operation = runner.Operation.new(credentials.DEMO_USER, self.ids['component'])
        result = runner.start(
            self.heat, self.find_transport, runner.RunRequest(
                config_id=self.ids['component'], action='BACKUP', name='mysql',
                server_ids=[server],
                input_values=dict({'pause_seconds': 0, 'tables': 'users', 'retention_days': 3,
                                   'labels': {'scope': f'label-{MARK}'}}, **inputs),
                transport='TEMP_URL_SIGNAL', live=live),
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
        """A run no agent reads, with live output: a snapshot in its live object, as
        heat-deploy-script-hook PUTs it (signalling/live.py)."""
        run = self._trigger('running', NOWHERE, live=True, backup_dir=f'running-{MARK}')
        self.expected['running'] = ('IN_PROGRESS', run.status_reason)
        container, signal_object = signal_location(runner.derived_input_values(run.config))
        line = f'live-{MARK}'
        self.swift.put_object(container, live.object_name(signal_object), json.dumps({
            'seq': 1, 'final': False, 'status_code': None, 'stdout': line + '\n',
            'stderr': '', 'stdout_bytes': len(line) + 1, 'stderr_bytes': 0}),
            content_type='application/json; line=' + line)

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

    def make_schedule(self):
        """A schedule of BACKUP on demo-db-1, as Run Action's Repeat makes it."""
        request = runner.RunRequest(
            config_id=self.ids['component'], action='BACKUP', name='mysql',
            server_ids=(self.ids['db1'],), transport='NO_SIGNAL', input_values={
                'backup_dir': f'schedule-dir-{MARK}', 'pause_seconds': 0})
        self.ids['schedule'] = schedules.create(self.workflow, dict(
            request.record(), component_name='mysql', pattern=NEVER, once_at=None))

    def make_environment(self):
        """A Mistral environment of the demo project that is no schedule (not named as one),
        holding what a schedule's record holds."""
        name = f'scope-environment-{uuid.uuid4().hex[:12]}'
        self.workflow.mistral.environments.create(
            name=name, scope='private', variables=dict(schedules.record_get(
                self.workflow.mistral, self.workflow.project_id, self.ids['schedule']),
                pattern=NEVER))
        self.ids['environment'] = name

    def make_all(self):
        self.make_run()
        self.make_cancelled()
        self.make_running()
        self.make_unused()
        self.make_archived()
        self.make_subscription()
        self.make_schedule()
        self.make_environment()

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
        return found + self._workflow_damaged()

    def _workflow_damaged(self):
        found = []
        try:
            record = schedules.record_get(self.workflow.mistral, self.workflow.project_id,
                                          self.ids['schedule'])
            if record.get('paused') or not {each.name for each in schedules.triggers(
                    self.workflow.mistral, self.workflow.project_id)} & {
                    schedules.trigger_of(self.ids['schedule'], record)}:
                found.append('schedule')
        except LookupError:
            found.append('schedule')
        try:
            if self.workflow.mistral.environments.get(self.ids['environment']).variables.get(
                    'pattern') != NEVER:
                found.append('environment')
        except Exception:
            found.append('environment')
        return found

    def repair(self, case, damaged=None):
        """Make again what a case removed or changed (all of it when ``damaged`` is None and
        something is)."""
        damaged = self.damaged() if damaged is None else damaged
        makers = {'run': self.make_run, 'run_config': self.make_run,
                  'cancelled': self.make_cancelled, 'running': self.make_running,
                  'unused': self.make_unused, 'archived': self.make_archived,
                  'subscription': self.make_subscription, 'schedule': self.make_schedule,
                  'environment': self.make_environment}
        for name in damaged:
            if name == 'component':
                pytest.fail('the demo stack\'s mysql component config is gone')
            old = self.ids.get(name)
            if name in ('run', 'cancelled', 'running'):
                try:
                    runner.delete(self.heat, old, self.find_transport)
                except heat_exc.HTTPException:
                    pass
            elif name in ('schedule', 'environment'):
                self._delete_workflow_target(name)
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
                     'subscription', 'schedule', 'environment'):
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
        for name in ('schedule', 'environment'):
            self._delete_workflow_target(name)

    def _delete_workflow_target(self, name):
        try:
            if name == 'schedule':
                schedules.delete(self.workflow, self.ids['schedule'])
            else:
                self.workflow.mistral.environments.delete(self.ids['environment'])
        except Exception:
            pass  # a case removed it
