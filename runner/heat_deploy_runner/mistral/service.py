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

"""Mistral's own API, called from inside an action on the action's session (the firing's
trust): one function per call, on keystoneauth alone, as a Mistral host need not have
python-mistralclient."""

import json

from keystoneauth1 import exceptions as ks_exc

from heat_deploy_runner.scheduling import schedules

_WORKFLOW_SERVICE = {'service_type': 'workflowv2', 'interface': 'public'}
# Mistral's API restarts (an upgrade, a host moved) while its engine fires a schedule: a
# firing whose first step met the API down for two seconds ended at once (make test's
# restart of mistral-api met a cron minute). A call that could not connect reached nothing,
# so it is made again, after 0.5, 1, 2, 4 and 8 s (keystoneauth's connect_retries).
CONNECT_RETRIES = 5
_CALL = {'endpoint_filter': _WORKFLOW_SERVICE, 'connect_retries': CONNECT_RETRIES}


def environment(session, name):
    """The variables of the project's environment of this name, or None when it has none."""
    try:
        found = session.get(f'/environments/{name}', **_CALL)
    except ks_exc.NotFound:
        return None
    variables = found.json().get('variables') or '{}'
    return json.loads(variables) if isinstance(variables, str) else variables


def running_operations(session):
    """(id, project id, input as JSON) of the project's rolling executions that have not
    ended (schedules.firing reads them)."""
    found = session.get('/executions', params=schedules.RUNNING_OPERATIONS, **_CALL)
    return [(each['id'], each.get('project_id'), each.get('input'))
            for each in found.json().get('executions', [])]


def cron_trigger_delete(session, name):
    """Delete the trigger, and with it (Mistral does) its trust; one already gone is fine."""
    try:
        session.delete(f'/cron_triggers/{name}', **_CALL)
    except ks_exc.NotFound:
        pass


def action_attempts(session, task_execution_id):
    """How many times the task's action has been run, this time included: more than one
    after Mistral ran it again (its executor was lost mid-action, and the task's retry
    policy ran it once more)."""
    found = session.get(f'/tasks/{task_execution_id}/action_executions', **_CALL)
    return len(found.json().get('action_executions', []))


def run_again(session, context):
    """Whether Mistral runs this action again, after an earlier run of it was cut short."""
    return action_attempts(session, context.execution.task_execution_id) > 1
