"""Mistral (workflowv2) API calls: a rolling run is an execution of heat-deploy-runner's
rolling workflow, whose id is the operation's.

One function per client call, as api.heat. Mistral shows an admin every project's executions
and workflows by id; these answer only the working project's, as Heat's calls do.
"""

import json

from django.conf import settings
from horizon.utils.memoized import memoized
from keystoneauth1 import session as ksa_session
from keystoneauth1 import token_endpoint
from mistralclient.api import base as mistral_base
from mistralclient.api import client as mistral_client
from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler

from heat_deploy_dashboard.api import pool
from heat_deploy_runner import workflows

SERVICE_TYPE = 'workflowv2'


def is_available(request):
    """Whether the user's catalog has Mistral: rolling runs are offered only then."""
    return base.is_service_enabled(request, SERVICE_TYPE)


@memoized
def mistralclient(request):
    endpoint = base.url_for(request, SERVICE_TYPE)
    verify = (False if settings.OPENSTACK_SSL_NO_VERIFY
              else settings.OPENSTACK_SSL_CACERT or True)
    session = ksa_session.Session(
        auth=token_endpoint.Token(endpoint, request.user.token.id),
        session=pool.session(), verify=verify, timeout=pool.timeout_seconds())
    # mistral_url always: without it the client calls http://localhost:8989/v2.
    return mistral_client.client(mistral_url=endpoint, session=session)


class Execution(base.APIResourceWrapper):
    """A rolling run: its state (RUNNING, SUCCESS, ERROR, CANCELLED), why it stopped
    (state_info), and what it was asked to do (workflow_input)."""

    _attrs = ['id', 'state', 'state_info', 'created_at', 'updated_at', 'project_id']

    @property
    def workflow_input(self):
        return json.loads(self._apiresource.input or '{}')

    @property
    def output(self):
        """The workflow's variables once it ended (Mistral gives them on an error too)."""
        return json.loads(self._apiresource.output or '{}')

    @property
    def running(self):
        return self.state in ('IDLE', 'RUNNING', 'PAUSED')


@profiler.trace
def rolling_start(request, workflow_input):
    """Start a rolling run (making the project's copy of the workflow on first use)."""
    client = mistralclient(request)
    workflow_id = workflows.ensure(client, request.user.project_id)
    return Execution(client.executions.create(workflow_id, workflow_input=workflow_input))


@profiler.trace
def execution_get(request, execution_id):
    """The working project's rolling run of this id, or None."""
    try:
        found = mistralclient(request).executions.get(execution_id)
    except mistral_base.APIException as error:
        if error.error_code == 404:
            return None
        raise
    if (found.project_id != request.user.project_id
            or found.workflow_name != workflows.ROLLING):
        return None
    return Execution(found)


@profiler.trace
def execution_cancel(request, execution_id):
    """Stop the rolling run: no batch starts after this (runs already started go on)."""
    return Execution(mistralclient(request).executions.update(execution_id, 'CANCELLED'))
