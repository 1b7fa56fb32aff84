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

"""An operation: one submit of Run Action or Deploy, on one server or many.

Each run an operation starts carries it in its deployment's input values, which Heat keeps
without acting on them (as it does a stack deployment's), never changes afterwards, and lists
with every deployment: seen by every Horizon host and kept across restarts, no other store is
needed, and a page finds an operation's runs among thousands without reading their configs.
Its derived config's options keep a copy, for whoever reads the config itself
(`openstack software config show`).

What is kept: the operation's id, shared by its runs, who started it and when, the config
its runs derive from (a component's, or a config deployed from the Configs panel), and what
follows it to its end when not a page (``FOLLOWED``: the Mistral execution of that id, a
rolling run's or a follower's). Runs made outside the dashboard (the CLI, stacks) have no
operation. A run of an operation that tries a failed
server again (runs in batches, schedules) also keeps which try it is, of how many.
"""

import dataclasses
from datetime import datetime
from datetime import timezone
import uuid

from heat_deploy_runner.configs import derived
from heat_deploy_runner import times

# Operation.runner of an operation a Mistral execution of its id follows: a rolling run (runs
# in batches, executed by Mistral), or one started at once and followed (followers.py).
FOLLOWED = 'mistral'


@dataclasses.dataclass(frozen=True)
class Operation:
    id: str
    started_by: str
    # ISO 8601, UTC, as Heat writes its own times.
    started_at: str
    source: str | None = None
    runner: str | None = None
    # Of the run that carries it: which try on its server (1 for the first), of how many.
    try_number: int | None = None
    tries: int | None = None

    @classmethod
    def new(cls, started_by: str, source: str, now: datetime | None = None,
            runner: str | None = None) -> 'Operation':
        moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
        return cls(str(uuid.uuid4()), started_by, times.utc_text(moment),
                   source, runner)

    def as_option(self) -> dict:
        kept = {'operation': self.id, 'started_by': self.started_by,
                'started_at': self.started_at, 'source': self.source}
        if self.runner:
            kept['runner'] = self.runner
        if self.tries:
            kept.update({'try': self.try_number, 'tries': self.tries})
        return kept

    @property
    def followed(self) -> bool:
        """Whether a Mistral execution follows it to its end: a page then only reads."""
        return self.runner == FOLLOWED


def as_input_values(operation: Operation | None) -> dict:
    """The deployment's input values that carry its operation (see operation_of_run)."""
    return {derived.OPERATION_OPTION: operation.as_option()} if operation else {}


def operation_of_run(run) -> Operation | None:
    """The operation that started this run (a Run, or heatclient's deployment), None for a
    run made outside the dashboard."""
    values = run.input_values
    return _kept(values.get(derived.OPERATION_OPTION) if isinstance(values, dict) else None)


def operation_of_config(config) -> Operation | None:
    """The operation a derived config's options keep a copy of (a heatclient config or a
    dict), None for a config no start of the dashboard made."""
    options = derived.as_dict(config).get('options')
    return _kept(options.get(derived.OPERATION_OPTION) if isinstance(options, dict) else None)


def _kept(kept) -> Operation | None:
    if not isinstance(kept, dict):
        return None
    values = [kept.get(key) for key in ('operation', 'started_by', 'started_at')]
    if not all(isinstance(value, str) and value for value in values):
        return None
    source, runner = kept.get('source'), kept.get('runner')
    try_number, tries = kept.get('try'), kept.get('tries')
    counted = all(isinstance(each, int) and not isinstance(each, bool) and each > 0
                  for each in (try_number, tries))
    return Operation(*values, source=source if isinstance(source, str) and source else None,
                     runner=runner if runner == FOLLOWED else None,
                     try_number=try_number if counted else None,
                     tries=tries if counted else None)
