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

"""Mistral (workflowv2) API calls: a rolling run is an execution of heat-deploy-runner's
rolling workflow, whose id is the operation's; an operation started at once is followed by
an execution of its follow workflow, made with the operation's id.

One function per thing done, as api.heat: each makes the request's clients (traced, pooled)
and calls the runner, which holds every call to Mistral, and to Object Storage for the secret
inputs Mistral must not hold (runner.workflows.workflow_clients). Mistral shows an admin every
project's executions and workflows by id; these answer only the working project's, as Heat's
calls do.
"""

from horizon.utils.memoized import memoized
from mistralclient.api import client as mistral_client
from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler

from heat_deploy_dashboard.api import pool
from heat_deploy_dashboard.api import swift
from heat_deploy_runner.scheduling import schedules
from heat_deploy_runner.workflows import executions
from heat_deploy_runner.workflows.executions import Execution
from heat_deploy_runner.workflows import rolling
from heat_deploy_runner.workflows.workflow_clients import WorkflowClients

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


def _workflow_clients(request):
    """Mistral's client, and Object Storage's where the catalog has it, for the request's
    project and user."""
    return WorkflowClients(
        mistralclient(request),
        swift.swift_connection(request) if swift.is_available(request) else None,
        request.user.project_id, request.user.username)


@profiler.trace
def rolling_start(request, run_request, server_names=None, link=None):
    """Start the runner.RunRequest in batches (runner.workflows.rolling.start): the execution whose
    id is the operation's. Raises runner.InputError for secret inputs without Object Storage,
    secret_store.NotKept when Object Storage refuses them, and Mistral's error as it comes."""
    return rolling.start(_workflow_clients(request), run_request, server_names, link)


@profiler.trace
def execution_get(request, execution_id):
    """The working project's execution of an operation of this id (rolling, or its
    follower), or None."""
    return executions.get(mistralclient(request), request.user.project_id, execution_id)


@profiler.trace
def execution_cancel(request, execution_id):
    """Stop the rolling run: no batch starts after this (runs already started go on). Its
    description says who cancelled it, and when (runner.workflows.rolling.cancel)."""
    return Execution(rolling.cancel(mistralclient(request), execution_id,
                                    request.user.username))


# Schedules (runner.scheduling.schedules): a cron trigger each, and an environment of the same name
# holding the schedule's record.
@profiler.trace
def schedule_records(request):
    """The project's schedules' records: Mistral environments, ``variables`` a dict."""
    return schedules.records(mistralclient(request), request.user.project_id)


@profiler.trace
def schedule_record_get(request, name):
    """The record (a dict) of the project's schedule of this name; LookupError for none."""
    return schedules.record_get(mistralclient(request), request.user.project_id, name)


@profiler.trace
def cron_triggers_list(request):
    return schedules.triggers(mistralclient(request), request.user.project_id)


@profiler.trace
def schedule_create(request, record):
    """Make a schedule of the record, acting for the user; its name."""
    return schedules.create(_workflow_clients(request), record)


@profiler.trace
def schedule_pause(request, name):
    """Whether the firing that runs now goes on."""
    return schedules.pause(_workflow_clients(request), name)


@profiler.trace
def schedule_resume(request, name, retention_settings):
    schedules.resume(_workflow_clients(request), name, retention_settings)


@profiler.trace
def schedule_change(request, name, record):
    """Whether a firing of its old trigger goes on."""
    return schedules.change(_workflow_clients(request), name, record)


@profiler.trace
def schedule_delete(request, name):
    """Whether the firing that runs now goes on."""
    return schedules.delete(_workflow_clients(request), name)


@profiler.trace
def retention_keep(request, policy, pattern):
    """Make the project's retention schedule unless it has one; whether it was made."""
    return schedules.keep_retention(_workflow_clients(request), policy, pattern)


@profiler.trace
def rolling_runs_list(request, limit):
    """The project's latest rolling runs, newest first."""
    return executions.rolling(mistralclient(request), request.user.project_id, limit)
