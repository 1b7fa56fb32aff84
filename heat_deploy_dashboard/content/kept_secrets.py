"""Secret inputs of the runs Mistral starts, kept in the project's Object Storage rather than
in Mistral (heat_deploy_runner.secret_store says why and how). Each keeping gets an object of
its own: a schedule changed keeps its old secrets until its new trigger stands."""

import logging
import uuid

from heat_deploy_dashboard import api
from heat_deploy_runner import secret_store

LOG = logging.getLogger(__name__)


class NotKept(Exception):
    """Object Storage did not keep them: nothing was started or scheduled."""


def keep(request, owner, input_values, lifetime_seconds=None):
    """(the input values Mistral may hold, the reference of the secret ones kept in Object
    Storage, or None when there are none). ``owner`` names what they belong to (a schedule,
    a run in batches) in the object's name, for an operator who looks."""
    plain, secret = secret_store.split(input_values)
    if not secret:
        return plain, None
    ref = f'{owner}/{uuid.uuid4()}'
    try:
        api.swift.secrets_put(request, ref, secret, lifetime_seconds)
    except Exception as error:
        raise NotKept() from error
    return plain, ref


def forget(request, ref):
    """Remove kept secrets that nothing will read any more; a failure is logged (they are
    the project's own object), not shown."""
    if not ref:
        return
    try:
        api.swift.secrets_forget(request, ref)
    except Exception:
        LOG.warning('Could not remove the secret inputs kept in %s/%s',
                    secret_store.CONTAINER, ref, exc_info=True)


def read(request, ref):
    """The secret values kept under ``ref``; {} for none."""
    return api.swift.secrets_get(request, ref) if ref else {}
