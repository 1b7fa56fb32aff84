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

"""An in-memory Mistral: the environments, cron triggers, workflows and executions
python-mistralclient's v2 client manages, for one project, as schedules, runs in batches and
followers use them."""

import itertools
import json
import uuid

from mistralclient.api import base as mistral_base


class _Row:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def _not_found():
    return mistral_base.APIException(404, 'not found')


class _Named:
    """A manager of named rows (environments, cron triggers)."""

    def __init__(self, mistral):
        self.mistral = mistral
        self.rows = {}

    def get(self, name):
        if name not in self.rows:
            raise _not_found()
        return self.rows[name]

    def delete(self, name):
        if self.rows.pop(name, None) is None:
            raise _not_found()

    def list(self, limit=None, sort_keys=None, sort_dirs=None, name=None):
        after = name.removeprefix('gt:') if name else ''
        return [self.rows[each] for each in sorted(self.rows) if each > after][:limit]


class _Environments(_Named):
    def create(self, name, variables, scope, description):
        if name in self.rows:
            raise mistral_base.APIException(409, 'exists')
        self.rows[name] = _Row(name=name, variables=variables,
                               project_id=self.mistral.project_id)
        return self.rows[name]

    def update(self, name, variables):
        self.get(name).variables = variables
        return self.rows[name]


class _CronTriggers(_Named):
    def create(self, name, workflow_id, workflow_input, pattern=None, first_time=None):
        if self.mistral.refuse_triggers:
            raise mistral_base.APIException(403, 'refused')
        self.rows[name] = _Row(name=name, workflow_id=workflow_id,
                               workflow_input=workflow_input, pattern=pattern,
                               first_time=first_time, next_execution_time='2026-11-27 02:00:00',
                               project_id=self.mistral.project_id)
        return self.rows[name]


class _Workflows:
    def __init__(self, mistral):
        self.mistral = mistral
        self.made = []

    def list(self, name=None):
        return [each for each in self.made if each.name == name]

    def create(self, definition, scope):
        # The name a definition gives its workflow: its one top-level key but "version".
        name = next(line.rstrip(':') for line in definition.splitlines()
                    if line.endswith(':') and not line.startswith((' ', 'version')))
        made = _Row(id=f'wf-{next(self.mistral.ids)}', name=name,
                    project_id=self.mistral.project_id)
        self.made.append(made)
        return [made]


class _Executions:
    """python-mistralclient's executions: made (create, as rolling.start makes them; with
    an id, _create, as followers.follow does), read, cancelled, and listed as Mistral filters
    them by workflow name and state ('in:a,b'). A test adds others (add, fire) and refuses
    to make any (refusal)."""

    def __init__(self, mistral):
        self.mistral = mistral
        self.rows = {}
        self.refusal = None
        self.updated = []

    def _workflow_name(self, workflow_id):
        if self.refusal is not None:
            raise self.refusal
        [workflow] = [each for each in self.mistral.workflows.made if each.id == workflow_id]
        return workflow.name

    def _create(self, url, data, **kwargs):
        workflow_name = self._workflow_name(data['workflow_id'])
        # Mistral answers the execution of that id when it exists already.
        return self.rows.setdefault(data['id'], _Row(
            id=data['id'], workflow_name=workflow_name, input=data['input'], output='{}',
            state='RUNNING', project_id=self.mistral.project_id,
            description=data['description']))

    def create(self, workflow_id, workflow_input=None, description=''):
        # Its id is a UUID, as an operation's.
        made = self.add(str(uuid.uuid4()), self._workflow_name(workflow_id),
                        **(workflow_input or {}))
        made.description = description
        return made

    def add(self, execution_id, workflow_name, state='RUNNING', output=None, **asked):
        self.rows[execution_id] = _Row(
            id=execution_id, workflow_name=workflow_name, input=json.dumps(asked),
            output=json.dumps(output or {}), state=state, project_id=self.mistral.project_id)
        return self.rows[execution_id]

    def fire(self, workflow_name, workflow_input, state='RUNNING'):
        """A firing of a schedule's trigger (``workflow_input`` as workflows.schedule_input
        makes it)."""
        return self.add(f'ex-{next(self.mistral.ids)}', workflow_name, state, **workflow_input)

    def get(self, execution_id):
        if execution_id not in self.rows:
            raise _not_found()
        return self.rows[execution_id]

    def update(self, execution_id, state, description=None):
        if state and description:
            # As Mistral's API answers (its executions controller's put).
            raise mistral_base.APIException(
                400, 'The property description must be updated separately from state.')
        self.updated.append((execution_id, state))
        if state:
            self.rows[execution_id].state = state
        if description:
            self.rows[execution_id].description = description

    def list(self, workflow_name=None, state=None, limit=None, **sorted_as):
        def among(value, query):
            return query is None or value in query.removeprefix('in:').split(',')
        return [each for each in self.rows.values()
                if among(each.workflow_name, workflow_name) and among(each.state, state)][:limit]


class FakeMistral:
    def __init__(self, project_id):
        self.project_id = project_id
        self.ids = itertools.count(1)
        self.refuse_triggers = False
        self.environments = _Environments(self)
        self.cron_triggers = _CronTriggers(self)
        self.workflows = _Workflows(self)
        self.executions = _Executions(self)
