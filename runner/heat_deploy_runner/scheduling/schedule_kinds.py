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

"""What a schedule runs, each kind with all that tells it apart from the others, so that the
code of schedules (making, pausing, changing, listing, showing, telling of) never asks which
kind it holds.

RUN: a component's action on servers, what Run Action's Repeat makes; its firings are
operations (followed, told of), and Run Action's form changes it. RETENTION: the project's
runs past the bound archived and taken out of Heat (retention.py); it runs on no server, its
bound is the dashboard's settings as they were when it was made or last resumed, and it is
changed by changing them, then pausing and resuming it. A record names its
kind (``kind``); one without is a RUN, as every record made before kinds.
"""

import abc
import dataclasses

from heat_deploy_runner.pruning import retention
from heat_deploy_runner import workflows


@dataclasses.dataclass(frozen=True)
class Kind(abc.ABC):
    name: str
    workflow: str
    # Whether its firings run on servers: operations a page follows and notices tell of,
    # and a schedule Run Action's form makes and changes.
    runs_on_servers: bool
    # Why a form does not change it, or None: it does.
    unchangeable: str | None

    @abc.abstractmethod
    def trigger_input(self, record, name, owner):
        """The workflow's input for a firing of the schedule ``name`` of this record, acting
        for ``owner``."""

    def resumed(self, record, retention_settings=None):
        """The record a schedule resumes with, given the dashboard's retention settings (the
        bound, the pattern) where the caller has them."""
        return record

    @abc.abstractmethod
    def component(self, record):
        """What the command line shows in the schedule's component column."""

    @abc.abstractmethod
    def action(self, record):
        """What the command line shows in the schedule's action column."""


class _Run(Kind):
    def trigger_input(self, record, name, owner):
        return workflows.schedule_input(record, name, owner)

    def component(self, record):
        return record.get('component_name') or record.get('component_id')

    def action(self, record):
        return record.get('action')


class _Retention(Kind):
    def trigger_input(self, record, name, owner):
        return dict(record['input_values'])

    def component(self, record):
        return '(retention)'

    def action(self, record):
        return 'archive runs past the bound'

    def resumed(self, record, retention_settings=None):
        # The settings of now: an operator who changed the bound pauses and resumes it.
        return dict(record, **self.record(*retention_settings)) if retention_settings \
            else record

    def record(self, policy: retention.Policy, pattern=retention.PATTERN):
        """The record of a retention schedule that prunes to ``policy`` at ``pattern``."""
        return {'kind': self.name, 'pattern': pattern,
                'input_values': dataclasses.asdict(policy)}


RUN = _Run('run', workflows.ROLLING_WORKFLOW, runs_on_servers=True, unchangeable=None)
RETENTION = _Retention(
    'retention', workflows.RETENTION_WORKFLOW, runs_on_servers=False,
    unchangeable="The retention schedule takes its bound from the dashboard's settings when "
                 "it is resumed: to apply changed settings, pause and resume it; it is not "
                 "changed here.")
_KINDS = {kind.name: kind for kind in (RUN, RETENTION)}


def kind_of(record):
    """The Kind of a schedule's record."""
    return _KINDS.get(record.get('kind'), RUN)
