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

"""Start a run request in batches: an execution of the project's rolling workflow on
Mistral (workflows), whose id is the operation's. Its secret inputs are kept in the
project's Object Storage first (secret_store), never in Mistral. One start, on the clients
the command line and the dashboard each make (workflow_clients).
"""

import dataclasses
import logging

from heat_deploy_runner.running.cancel import cancelled_description
from heat_deploy_runner.running.run_request import RunRequest
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows import secret_store

LOG = logging.getLogger(__name__)

# A request to more servers than this is handed to the workflow service where it is
# (hands_over): making a run costs about 0.08 s a server on the local cloud, which a web
# request cannot wait for at hundreds.
MAX_STARTED_HERE = 20


def hands_over(request: RunRequest, workflow_service: bool, object_storage: bool) -> bool:
    """Whether the workflow service starts the request's runs: runs in batches or with
    tries, which it alone runs; and, where it is in the catalog (``workflow_service``), a
    request to more than MAX_STARTED_HERE servers, as one batch of all, so that the submit
    ends at once and the runs are made behind it, appearing on the operation's page as they
    are. Secret inputs need Object Storage on the way (secret_store): without it, such a
    request's runs are made here."""
    if request.batch_size or request.retries:
        return True
    if not workflow_service or len(request.server_ids) <= MAX_STARTED_HERE:
        return False
    _plain, secret = secret_store.split(request.input_values)
    return not secret or object_storage


def start(clients, request: RunRequest, server_names=None, link=None):
    """The rolling workflow's new execution (python-mistralclient's) for ``request``, made on
    ``clients`` (a WorkflowClients) for their user; its notices name the servers by
    ``server_names`` ({id: name}) and link to ``link``. Raises InputError for secret inputs
    without Object Storage, secret_store.NotKept when Object Storage refuses them, and
    Mistral's error as it comes; nothing is left behind when either refuses.
    """
    plain, ref = secret_store.keep(clients.swift, 'run', request.input_values,
                                   secret_store.run_lifetime_seconds(
                                       len(request.server_ids), request.batch_size,
                                       request.timeout_minutes))
    try:
        workflow_id = workflows.ensure(clients.mistral, clients.project_id)
        return clients.mistral.executions.create(workflow_id, workflow_input=dict(
            dataclasses.replace(request, input_values=plain).workflow_input(
                clients.username, ref),
            server_names={server: name for server, name in (server_names or {}).items()
                          if server in request.server_ids}, link=link))
    except Exception:
        secret_store.forget_kept(clients.swift, ref)
        raise


def cancel(mistral, execution_id: str, user: str):
    """Stop the rolling run (no batch starts after this; runs already started go on), then
    say in its execution's description who cancelled it, and when
    (cancel.cancelled_description): Mistral takes the two in separate updates. The execution
    as it is after the stop."""
    stopped = mistral.executions.update(execution_id, 'CANCELLED')
    try:
        mistral.executions.update(execution_id, None,
                                  description=cancelled_description(user))
    except Exception:
        # Stopped all the same; the page then says only that it was cancelled.
        LOG.warning('Could not record who cancelled execution %s', execution_id,
                    exc_info=True)
    return stopped
