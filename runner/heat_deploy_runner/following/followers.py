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

"""An operation started at once (Run Action, Deploy, the command line) followed to its end
with no page open: an execution of the project's follow workflow (workflows/follow_v3.yaml)
on Mistral, made with the operation's id, watches its runs as a page's poll did (a Zaqar
result applied, a run past its deadline recorded as timed out, both in Heat), then records
the outcome as its output and posts the notices subscribed to it. Its runs carry
operations.FOLLOWED, so that pages only read them. start_and_follow starts and has it
followed (and hands Mistral the sweep of a start Heat left unanswered, orphans.sweep_later),
for the dashboard and the command line alike.

A run in batches needs none: its rolling execution follows its own runs.
"""

import json
import logging

from heat_deploy_runner.pruning import orphans
from heat_deploy_runner.running.operations import FOLLOWED
from heat_deploy_runner.running.operations import Operation
from heat_deploy_runner.running import starting
from heat_deploy_runner import workflows

LOG = logging.getLogger(__name__)


def follow_input(started, server_names=None, link=None) -> dict:
    """The follow workflow's input for a starting.Started whose runs carry its operation."""
    first = started.created[0] if started.created else None
    ends = [run.deadline for run in started.created if run.deadline]
    return {
        'config_id': started.operation.source,
        'action_name': first.action if first else None,
        'deployment_ids': [run.id for run in started.created],
        'refused': [[server, str(message)] for server, message in started.failures],
        'server_names': {server: name for server, name in (server_names or {}).items()
                         if server in {run.server_id for run in started.created}
                         or server in {each for each, _m in started.failures}},
        'link': link,
        # How long its trust must last (mistral.trusts).
        'until': max(ends).isoformat() if ends else None,
    }


def follow(mistral, project_id: str, started, server_names=None, link=None):
    """Mistral's execution (python-mistralclient's) following the runs ``started`` made, of
    the operation's id; none when nothing was started. Mistral's error comes as it is."""
    if not started.created:
        return None
    workflow_id = workflows.ensure(mistral, project_id, workflows.FOLLOW_WORKFLOW)
    # Mistral answers the execution of an id it has already: a retried call makes no second.
    # Private _create: the public create sends no id (its extra keywords go in "params").
    return mistral.executions._create('/executions', {
        'id': started.operation.id, 'workflow_id': workflow_id,
        'input': json.dumps(follow_input(started, server_names, link)),
        'description': 'heat-deploy-dashboard: follows operation ' + started.operation.id})


def start_and_follow(heat, find_transport, mistral, project_id, request, started_by,
                     source=None, server_names=None, link=None):
    """Start the run request now for ``started_by`` (starting.start: its Started), then,
    where the workflow service is (``mistral``, python-mistralclient's, or None), have it
    follow the runs (follow): they say so (operations.FOLLOWED), and pages only read them.
    Where it does not take them, they stand, the Started says so (not_followed) and why is
    logged. Where Heat left a create unanswered (starting.unanswered), it is handed the sweep
    of what Heat may yet make (orphans.sweep_later), before the start's error is raised as it
    came. ``server_names`` ({id: name}) name the servers in the failures' sentences and the
    notices, which link to ``link``."""
    operation = Operation.new(started_by, request.config_id,
                              runner=FOLLOWED if mistral is not None else None)
    try:
        started = starting.start(heat, find_transport, request, operation, source,
                                 server_names)
    except Exception as error:
        if mistral is not None and starting.unanswered(error):
            orphans.sweep_later(mistral, project_id, operation, request.action)
        raise
    if mistral is None:
        return started
    if started.unanswered:
        orphans.sweep_later(mistral, project_id, operation, request.action)
    try:
        follow(mistral, project_id, started, server_names, link)
    except Exception:
        LOG.warning('Mistral did not take operation %s to follow', operation.id,
                    exc_info=True)
        started.not_followed = True
    return started
