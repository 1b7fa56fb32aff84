"""Mistral (workflowv2) API calls: a rolling run is an execution of heat-deploy-runner's
rolling workflow, whose id is the operation's; an operation started at once is followed by
an execution of its follow workflow, made with the operation's id.

One function per client call, as api.heat. Mistral shows an admin every project's executions
and workflows by id; these answer only the working project's, as Heat's calls do.
"""

from horizon.utils.memoized import memoized
from mistralclient.api import base as mistral_base
from mistralclient.api import client as mistral_client
from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler

from heat_deploy_dashboard.api import pool
from heat_deploy_runner import executions
from heat_deploy_runner.executions import Execution
from heat_deploy_runner import followers
from heat_deploy_runner import orphans
from heat_deploy_runner import rolling
from heat_deploy_runner import schedules
from heat_deploy_runner import workflows

SERVICE_TYPE = 'workflowv2'


def is_available(request):
    """Whether the user's catalog has Mistral: rolling runs are offered only then."""
    return base.is_service_enabled(request, SERVICE_TYPE)


@memoized
def mistralclient(request):
    endpoint = base.url_for(request, SERVICE_TYPE)
    session = pool.token_session(request, endpoint)
    # mistral_url always: without it the client calls http://localhost:8989/v2.
    return mistral_client.client(mistral_url=endpoint, session=session)


@profiler.trace
def follow_start(request, started, server_names, link):
    """Follow the operation ``started`` (a runner.Started) made, with no page open
    (runner.followers)."""
    return followers.follow(mistralclient(request), request.user.project_id, started,
                            server_names, link)


@profiler.trace
def sweep_later(request, operation, action):
    """Have Mistral sweep what Heat may yet make for a start it left unanswered
    (runner.orphans.sweep_later)."""
    orphans.sweep_later(mistralclient(request), request.user.project_id, operation, action)


@profiler.trace
def rolling_start(request, workflow_input):
    """Start a rolling run (making the project's copy of the workflow on first use)."""
    client = mistralclient(request)
    workflow_id = workflows.ensure(client, request.user.project_id)
    return Execution(client.executions.create(workflow_id, workflow_input=workflow_input))


is_not_found = schedules.is_not_found


@profiler.trace
def execution_get(request, execution_id):
    """The working project's execution of an operation of this id (rolling, or its
    follower), or None."""
    return executions.get(mistralclient(request), request.user.project_id, execution_id)


@profiler.trace
def execution_cancel(request, execution_id):
    """Stop the rolling run: no batch starts after this (runs already started go on). Its
    description says who cancelled it, and when (runner.rolling.cancel)."""
    return Execution(rolling.cancel(mistralclient(request), execution_id,
                                    request.user.username))


# Schedules (runner.schedules): a cron trigger each, and an environment of the same name
# holding the schedule's record.
@profiler.trace
def schedule_records(request):
    """The project's schedules' records: Mistral environments, ``variables`` a dict."""
    return schedules.own(schedules.every_schedule(mistralclient(request).environments.list),
                         request.user.project_id)


@profiler.trace
def schedule_record_get(request, name):
    found = mistralclient(request).environments.get(name)
    if found.project_id != request.user.project_id:
        raise mistral_base.APIException(404, 'not found')
    return found


@profiler.trace
def schedule_record_save(request, name, variables, create=False):
    manager = mistralclient(request).environments
    if create:
        return manager.create(name=name, variables=variables, scope='private',
                              description='heat-deploy-dashboard schedule')
    return manager.update(name=name, variables=variables)


@profiler.trace
def schedule_record_delete(request, name):
    mistralclient(request).environments.delete(name)


@profiler.trace
def cron_triggers_list(request):
    return schedules.own(schedules.every_schedule(mistralclient(request).cron_triggers.list),
                         request.user.project_id)


@profiler.trace
def cron_trigger_create(request, name, workflow_input, pattern=None, first_time=None,
                        workflow=workflows.ROLLING_WORKFLOW):
    """A trigger of the project's copy of the workflow: Mistral makes a Keystone trust from
    the user to itself, and each firing runs through it."""
    client = mistralclient(request)
    workflow_id = workflows.ensure(client, request.user.project_id, workflow)
    return client.cron_triggers.create(name, workflow_id, workflow_input=workflow_input,
                                       pattern=pattern, first_time=first_time)


@profiler.trace
def cron_trigger_delete(request, name):
    """Delete the trigger (and Mistral its trust); one already gone is fine."""
    try:
        mistralclient(request).cron_triggers.delete(name)
    except mistral_base.APIException as error:
        if not is_not_found(error):
            raise


@profiler.trace
def firing(request, trigger):
    """Whether a firing of the project's cron trigger runs now."""
    found = mistralclient(request).executions.list(**schedules.RUNNING_OPERATIONS)
    return schedules.firing([(each.id, each.project_id, each.input) for each in found],
                            request.user.project_id, trigger)


@profiler.trace
def rolling_runs_list(request, limit):
    """The project's latest rolling runs, newest first."""
    found = mistralclient(request).executions.list(
        workflow_name='in:' + ','.join(workflows.ROLLING_WORKFLOWS), sort_keys='created_at',
        sort_dirs='desc',
        limit=limit, include_output=True)
    return [execution for execution in (executions.of_project(each, request.user.project_id)
                                        for each in found) if execution is not None]
