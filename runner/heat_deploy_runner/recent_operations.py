"""The latest operations among runs, as a list of operations shows them (a component's
Operations tab, `openstack software operation list`)."""

import dataclasses

from heat_deploy_runner.cancel import shown_status
from heat_deploy_runner.operations import Operation

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
