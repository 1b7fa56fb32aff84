"""An in-memory Mistral: the environments, cron triggers, workflows and executions
python-mistralclient's v2 client manages, for one project, as schedules use them."""

import itertools
import json

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
    """The executions a test adds (fire), listed as Mistral filters them by workflow name
    and state ('in:a,b')."""

    def __init__(self, mistral):
        self.mistral = mistral
        self.rows = []

    def fire(self, workflow_name, workflow_input, state='RUNNING'):
        self.rows.append(_Row(id=f'ex-{next(self.mistral.ids)}', workflow_name=workflow_name,
                              state=state, input=json.dumps(workflow_input),
                              project_id=self.mistral.project_id))

    def create(self, workflow_id, workflow_input=None, description=''):
        [workflow] = [each for each in self.mistral.workflows.made if each.id == workflow_id]
        self.fire(workflow.name, workflow_input or {})
        self.rows[-1].description = description
        return self.rows[-1]

    def list(self, workflow_name=None, state=None, limit=None):
        def among(value, query):
            return query is None or value in query.removeprefix('in:').split(',')
        return [each for each in self.rows
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
