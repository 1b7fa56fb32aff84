"""Settling a running run: what every reader that may write does before showing it (the
dashboard's status poll, Mistral's wait), so that a run ends the same way whoever watches.

A result waiting where Heat does not look (a Zaqar signal) is applied, then a run still
running past its deadline is recorded as timed out. The two calls are the caller's own, made
on its clients: the dashboard's API seam, or a Mistral action's clients.
"""

from collections.abc import Callable
import logging

from heat_deploy_runner.expiry import is_overdue
from heat_deploy_runner.run import Run
from heat_deploy_runner.signals import IN_PROGRESS

LOG = logging.getLogger(__name__)


def settle(run: Run, collect: Callable[[Run], Run], expire: Callable[[Run], Run]) -> Run:
    """The run (with its derived config) after ``collect`` (results.collect) and, past its
    deadline, ``expire`` (expiry.expire); each given the run, answering it as it is after.

    A failure leaves the run as it was: the next look tries again, and a page or a workflow
    should not fail because the messaging service does. A run whose result could not be
    looked for is not timed out: its result may be waiting. Only a run past its deadline
    costs the second call.
    """
    if run.status != IN_PROGRESS or run.config is None:
        return run
    try:
        run = collect(run)
    except Exception:
        LOG.warning('Could not look for the result of deployment %s', run.id, exc_info=True)
        return run
    if not is_overdue(run, run.config):
        return run
    try:
        return expire(run)
    except Exception:
        LOG.warning('Could not mark deployment %s as timed out', run.id, exc_info=True)
        return run
