"""Start a run request in batches: an execution of the project's rolling workflow on
Mistral (workflows), whose id is the operation's. Its secret inputs are kept in the
project's Object Storage first (secret_store), never in Mistral. One start over a calls seam
(``object_storage``, ``rolling_start(workflow_input)`` and secret_store's), with two
implementations: MistralCalls, the command line's, and the dashboard's, through its API seam.
"""

import dataclasses
import logging

from heat_deploy_runner.cancel import cancelled_description
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.run_request import RunRequest
from heat_deploy_runner import secret_store
from heat_deploy_runner import workflows

LOG = logging.getLogger(__name__)

# A request to more servers than this is handed to the workflow service where it is
# (hands_over): making a run costs about 0.08 s a server on the local cloud, which a web
# request cannot wait for at hundreds.
MAX_STARTED_HERE = 20


class MistralCalls(secret_store.SwiftCalls):
    """A run in batches' calls on python-mistralclient's v2 client and a swiftclient
    Connection (None without Object Storage), for one project."""

    def __init__(self, mistral, swift, project_id):
        super().__init__(swift)
        self.mistral = mistral
        self.project_id = project_id

    @property
    def object_storage(self):
        return self.swift is not None

    def rolling_start(self, workflow_input):
        workflow_id = workflows.ensure(self.mistral, self.project_id)
        return self.mistral.executions.create(workflow_id, workflow_input=workflow_input)


def hands_over(request: RunRequest, calls) -> bool:
    """Whether the workflow service starts the request's runs: runs in batches or with
    tries, which it alone runs; and, where it is (``calls``, None where it is not), a request
    to more than MAX_STARTED_HERE servers, as one batch of all, so that the submit ends at
    once and the runs are made behind it, appearing on the operation's page as they are.
    Secret inputs need Object Storage on the way (secret_store): without it, such a
    request's runs are made here."""
    if request.batch_size or request.retries:
        return True
    if calls is None or len(request.server_ids) <= MAX_STARTED_HERE:
        return False
    _plain, secret = secret_store.split(request.input_values)
    return not secret or calls.object_storage


def start(calls, request: RunRequest, started_by: str, server_names=None, link=None):
    """The rolling workflow's new execution for ``request``, as ``calls.rolling_start``
    gives it, made for ``started_by``; its notices name the servers by ``server_names``
    ({id: name}) and link to ``link``. Raises InputError for secret inputs without Object
    Storage, secret_store.NotKept when Object Storage refuses them, and Mistral's error as
    it comes; nothing is left behind when either refuses.
    """
    _plain, secret = secret_store.split(request.input_values)
    if secret and not calls.object_storage:
        raise InputError(secret_store.needs_object_storage(secret))
    plain, ref = secret_store.keep(calls, 'run', request.input_values,
                                   secret_store.run_lifetime_seconds(
                                       len(request.server_ids), request.batch_size,
                                       request.timeout_minutes))
    try:
        return calls.rolling_start(dict(
            dataclasses.replace(request, input_values=plain).workflow_input(started_by, ref),
            server_names={server: name for server, name in (server_names or {}).items()
                          if server in request.server_ids}, link=link))
    except Exception:
        secret_store.forget_kept(calls, ref)
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
