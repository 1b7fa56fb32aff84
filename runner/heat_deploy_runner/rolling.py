"""Start a run request in batches: an execution of the project's rolling workflow on
Mistral (workflows), whose id is the operation's. Its secret inputs are kept in the
project's Object Storage first (secret_store), never in Mistral.
"""

import dataclasses
import logging
import uuid

from heat_deploy_runner.cancel import cancelled_description
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message
from heat_deploy_runner.run_request import RunRequest
from heat_deploy_runner import secret_store
from heat_deploy_runner import workflows

LOG = logging.getLogger(__name__)

SECRETS_NEED_OBJECT_STORAGE = gettext_noop(
    'A secret input of a run in batches is kept in Object Storage, which is not in your '
    'service catalog (the workflow service would keep it in the clear). Run it without '
    'batches, or leave %(names)s empty.')


class SecretsNotKept(Exception):
    """Object Storage did not keep the secret inputs: nothing was started."""


def start(mistral, swift, project_id: str, request: RunRequest, started_by: str,
          server_names=None):
    """The rolling workflow's new execution (python-mistralclient's) for ``request``, made
    for ``started_by``; its notices name the servers by ``server_names`` ({id: name}).
    Raises InputError for secret inputs without Object Storage (``swift`` None),
    SecretsNotKept when Object Storage refuses them, and Mistral's error as it comes;
    nothing is left behind when either refuses.
    """
    plain, secret = secret_store.split(request.input_values)
    ref = None
    if secret:
        if swift is None:
            raise InputError(Message(SECRETS_NEED_OBJECT_STORAGE,
                                     {'names': ', '.join(sorted(secret))}))
        ref = f'run/{uuid.uuid4()}'
        try:
            secret_store.put(swift, ref, secret, secret_store.run_lifetime_seconds(
                len(request.server_ids), request.batch_size, request.timeout_minutes))
        except Exception as error:
            raise SecretsNotKept() from error
    try:
        workflow_id = workflows.ensure(mistral, project_id)
        return mistral.executions.create(workflow_id, workflow_input=dict(
            dataclasses.replace(request, input_values=plain).workflow_input(started_by, ref),
            server_names={server: name for server, name in (server_names or {}).items()
                          if server in request.server_ids}))
    except Exception:
        _forget(swift, ref)
        raise


def _forget(swift, ref):
    if not ref:
        return
    try:
        secret_store.forget(swift, ref)
    except Exception:
        # The caller says that nothing started; a leftover object is the project's own.
        LOG.warning('Could not remove the secret inputs kept in %s/%s',
                    secret_store.CONTAINER, ref, exc_info=True)


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
