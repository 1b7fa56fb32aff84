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

"""The latest operations among runs, as a list of operations shows them (a component's
Operations tab, `openstack software operation list`)."""

import dataclasses

from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running.operations import Operation

# This many of the latest, found among this many of the latest runs, however many runs
# there are.
RECENT_OPERATIONS = 10
RECENT_RUNS = 200


@dataclasses.dataclass
class Recent:
    """An operation as a list of operations shows it."""

    operation: Operation
    action: str
    # The shown status of each of its runs (cancel.shown_status).
    statuses: list

    @property
    def id(self):
        return self.operation.id


def recent(runs, count=RECENT_OPERATIONS, among=RECENT_RUNS):
    """The latest ``count`` operations (Recent) among the latest ``among`` of these runs,
    newest first; runs made outside the dashboard have none."""
    newest = sorted(runs, key=lambda run: (run.creation_time, run.id), reverse=True)[:among]
    found = {}
    for run in newest:
        operation = run.operation
        if operation:
            found.setdefault(operation.id, Recent(operation, run.action, []))
            found[operation.id].statuses.append(shown_status(run))
    return list(found.values())[:count]
