"""The clients a run in batches (rolling.start) and a schedule's changes (schedules) are made
on, for one project and user: the command line makes them from its session (osc), the
dashboard from the request (its api.mistral), and both call the same functions with them."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class WorkflowClients:
    mistral: object  # python-mistralclient's v2 client
    swift: object  # a swiftclient Connection; None where the project has no Object Storage
    project_id: str
    username: str  # who starts, makes or changes: the runs and the schedules' history say
