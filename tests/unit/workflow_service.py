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

"""The workflow service (Mistral) and Object Storage behind the dashboard's API seam, in
memory: api.mistral.mistralclient and api.swift.swift_connection answer the runner's fakes
(tests/unit/deploy), whose writes are recorded in order. For the panels' tests of schedules
and runs in batches: the runner makes every call to them, as it does on a real cloud."""

import json
from unittest import mock

from heat_deploy_dashboard import api
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows import secret_store
from tests.unit.deploy.fakes import FakeSwift
from tests.unit.deploy.mistral_fakes import FakeMistral

# The writes recorded: (a manager of the Mistral client, its method).
_MISTRAL_WRITES = (('environments', 'create'), ('environments', 'update'),
                   ('environments', 'delete'), ('cron_triggers', 'create'),
                   ('cron_triggers', 'delete'), ('executions', 'create'),
                   ('executions', '_create'))
_SWIFT_WRITES = ('put_object', 'delete_object')


class WorkflowService:
    """Started in a test's setUp (or by itself in a test), undone at its end."""

    def __init__(self, case, project_id='1'):
        self.mistral = FakeMistral(project_id)
        self.swift = FakeSwift()
        self.writes = mock.Mock()
        for manager, method in _MISTRAL_WRITES:
            self._record(getattr(self.mistral, manager), method,
                         f'{manager}_{method.lstrip("_")}')
        for method in _SWIFT_WRITES:
            self._record(self.swift, method, method)
        for patcher in (
                mock.patch.object(api.mistral, 'mistralclient', return_value=self.mistral),
                mock.patch.object(api.swift, 'swift_connection', return_value=self.swift)):
            patcher.start()
            case.addCleanup(patcher.stop)

    def _record(self, owner, method, name):
        spy = mock.Mock(wraps=getattr(owner, method))
        setattr(owner, method, spy)
        self.writes.attach_mock(spy, name)

    def written(self):
        """What was written, in order: environments_update, cron_triggers_delete..."""
        return [call[0] for call in self.writes.mock_calls]

    def keep(self, *records):
        """Mistral environments (test_schedules.record()), as the schedules' records of
        their project."""
        for each in records:
            self.mistral.environments.rows[each.name] = each

    def fire(self, trigger):
        """A firing of the cron trigger ``trigger`` that runs now."""
        self.mistral.executions.fire(workflows.ROLLING_WORKFLOW, {'trigger': trigger})

    def saved(self, name=None):
        """The variables last saved (made or updated), for the schedule ``name`` or any."""
        saves = [call for call in self.writes.mock_calls
                 if call[0] in ('environments_create', 'environments_update')
                 and name in (None, call.kwargs['name'])]
        return saves[-1].kwargs['variables'] if saves else None

    def triggers_made(self):
        """(name, workflow input, pattern, workflow name) of each cron trigger made."""
        workflow_names = {each.id: each.name for each in self.mistral.workflows.made}
        return [(call.args[0], call.kwargs['workflow_input'], call.kwargs['pattern'],
                 workflow_names[call.args[1]])
                for call in self.mistral.cron_triggers.create.call_args_list]

    def started(self):
        """The workflow input of each run in batches started."""
        return [call.kwargs['workflow_input']
                for call in self.mistral.executions.create.call_args_list]

    def secrets(self):
        """{reference: (values, X-Delete-After or None)} of the secret inputs kept now."""
        objects = self.swift.containers.get(secret_store.CONTAINER, {})
        return {ref: (json.loads(body), self.swift.object_headers[
            secret_store.CONTAINER, ref].get('X-Delete-After'))
            for ref, body in objects.items()}

    def secrets_forgotten(self):
        """The references of the secret inputs removed, in order."""
        return [call.args[1] for call in self.swift.delete_object.call_args_list
                if call.args[0] == secret_store.CONTAINER]
