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

"""An operation's Mistral execution (a run in batches, or the follower of one started at
once), one shape for the panels and the command line: python-mistralclient's execution
wrapped (as Horizon's APIResourceWrapper wraps an API's), read the same way by both.
"""

import json

from heat_deploy_runner.running.run_request import Asked
from heat_deploy_runner import workflows


def is_not_found(error):
    """Whether Mistral answered that there is no such thing (or none of the project's):
    python-mistralclient's APIException with its error_code."""
    return getattr(error, 'error_code', None) == 404


class Execution:
    """Its state (RUNNING, SUCCESS, ERROR, CANCELLED), why it stopped (state_info), what it
    was asked (asked, from its input), what it recorded (output, outcome), and who cancelled
    it (description)."""

    _attrs = ('id', 'state', 'state_info', 'created_at', 'updated_at', 'project_id',
              'workflow_name', 'description')

    def __init__(self, apiresource):
        self._apiresource = apiresource

    def __getattr__(self, name):
        if name in self._attrs:
            return getattr(self._apiresource, name, None)
        raise AttributeError(name)

    @property
    def rolling(self):
        """Whether it runs the operation in batches, rather than following it."""
        return self.workflow_name in workflows.ROLLING_WORKFLOWS

    @property
    def running(self):
        return self.state in workflows.RUNNING_STATES

    @property
    def workflow_input(self):
        return json.loads(self._apiresource.input or '{}')

    @property
    def asked(self) -> Asked:
        """What a run in batches was asked (its request, for whom, its schedule)."""
        return Asked.of(self.workflow_input)

    @property
    def output(self):
        """The workflow's variables once it ended (Mistral gives them on an error too); {}
        before, or where a listing left them out."""
        found = getattr(self._apiresource, 'output', None)
        if isinstance(found, str):
            found = json.loads(found or '{}')
        return found if isinstance(found, dict) else {}

    @property
    def outcome(self):
        """What it recorded once the operation's runs had all ended (runner.following.outcome), or
        None: before, or from a workflow that records none (rolling_v1)."""
        found = self.output.get('outcome')
        return found if isinstance(found, dict) else None

    @property
    def retired(self):
        """Whether it is a firing of a trigger its schedule no longer fired through (paused,
        changed or deleted while an earlier firing ran): it ran nothing."""
        return self.output.get('retired') is True


def of_project(found, project_id):
    """``found`` (python-mistralclient's execution) as an Execution when it is an operation
    of the project, else None: Mistral shows an admin every project's executions."""
    if found.project_id != project_id or found.workflow_name not in workflows.OPERATION_WORKFLOWS:
        return None
    return Execution(found)


def get(mistral, project_id, execution_id):
    """The project's execution of an operation of this id, or None."""
    try:
        found = mistral.executions.get(execution_id)
    except Exception as error:
        if is_not_found(error):
            return None
        raise
    return of_project(found, project_id)


def rolling(mistral, project_id, limit):
    """The project's latest rolling executions (as Execution), newest first: within
    Mistral's latest ``limit`` of every project's it shows."""
    found = mistral.executions.list(
        workflow_name='in:' + ','.join(workflows.ROLLING_WORKFLOWS), sort_keys='created_at',
        sort_dirs='desc', limit=limit, include_output=True)
    return [execution for execution in (of_project(each, project_id) for each in found)
            if execution is not None]
