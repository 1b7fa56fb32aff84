"""Mistral's own API, called from inside an action on the action's session (the firing's
trust): one function per call, on keystoneauth alone, as a Mistral host need not have
python-mistralclient."""

import json

from keystoneauth1 import exceptions as ks_exc

from heat_deploy_runner import schedules

_WORKFLOW_SERVICE = {'service_type': 'workflowv2', 'interface': 'public'}


def environment(session, name):
    """The variables of the project's environment of this name, or None when it has none."""
    try:
        found = session.get(f'/environments/{name}', endpoint_filter=_WORKFLOW_SERVICE)
    except ks_exc.NotFound:
        return None
    variables = found.json().get('variables') or '{}'
    return json.loads(variables) if isinstance(variables, str) else variables


def running_operations(session):
    """(id, project id, input as JSON) of the project's rolling executions that have not
    ended (schedules.firing reads them)."""
    found = session.get('/executions', endpoint_filter=_WORKFLOW_SERVICE,
                        params=schedules.RUNNING_OPERATIONS)
    return [(each['id'], each.get('project_id'), each.get('input'))
            for each in found.json().get('executions', [])]


def cron_trigger_delete(session, name):
    """Delete the trigger, and with it (Mistral does) its trust; one already gone is fine."""
    try:
        session.delete(f'/cron_triggers/{name}', endpoint_filter=_WORKFLOW_SERVICE)
    except ks_exc.NotFound:
        pass


def action_attempts(session, task_execution_id):
    """How many times the task's action has been run, this time included: more than one
    after Mistral ran it again (its executor was lost mid-action, and the task's retry
    policy ran it once more)."""
    found = session.get(f'/tasks/{task_execution_id}/action_executions',
                        endpoint_filter=_WORKFLOW_SERVICE)
    return len(found.json().get('action_executions', []))
