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

"""A run: one action on one server, as Heat keeps it (a deployment pointing at its derived
config), in the one shape every reader uses.

It is built once from heatclient's answer, where the answer arrives (the dashboard's API
seam, the runner's own calls), and carries Heat's keys under Heat's names, so code that reads
a deployment reads a Run alike. What the derived config tells of the run (its name, its
deadline, its transport, the operation that started it) is there once the config is read
(``described``); until then, or once the config is gone, those are None.
"""

import dataclasses
import functools

from heat_deploy_runner.configs import derived
from heat_deploy_runner.running import operations
from heat_deploy_runner.signalling import deadlines
from heat_deploy_runner.signalling import live

# The keys of Heat's software deployment, as its API names them.
HEAT_KEYS = ('id', 'server_id', 'config_id', 'action', 'status', 'status_reason',
             'creation_time', 'updated_time', 'input_values', 'output_values')


@dataclasses.dataclass(frozen=True, eq=False)
class Run:
    id: str
    server_id: str
    config_id: str
    action: str | None = None
    status: str | None = None
    # As Heat stores it: the text 'None' where it was told nothing (see ``reason``).
    status_reason: str | None = None
    # Heat's ISO 8601 UTC text; no updated_time before the first update.
    creation_time: str | None = None
    updated_time: str | None = None
    input_values: dict = dataclasses.field(default_factory=dict)
    output_values: dict = dataclasses.field(default_factory=dict)
    # The derived config (a dict), once read; None before, or when it is gone.
    config: dict | None = dataclasses.field(default=None, compare=False, repr=False)
    # Kept in the project's archive (archive.py), no longer in Heat.
    archived: bool = dataclasses.field(default=False, compare=False)

    @classmethod
    def from_heat(cls, deployment) -> 'Run':
        """The run of heatclient's SoftwareDeployment. Its instance attributes are the keys
        Heat sent: read there, a key Heat left out costs no second GET (heatclient's lazy
        loading would make one), and a listing's rows are not copied whole."""
        sent = vars(deployment)
        return cls(**{key: sent.get(key) for key in HEAT_KEYS[:8]},
                   input_values=sent.get('input_values') or {},
                   output_values=sent.get('output_values') or {})

    def described(self, config) -> 'Run':
        """The run with its derived config (a dict; None when it is gone)."""
        return dataclasses.replace(self, config=config)

    def changed(self, **heat_keys) -> 'Run':
        """The run with these of Heat's keys changed, its config kept."""
        return dataclasses.replace(self, **heat_keys)

    @property
    def reason(self) -> str:
        """Why the run is in its status, '' where Heat was told nothing: Heat stores a missing
        reason as the text 'None' (`openstack software deployment create` gives none)."""
        return '' if self.status_reason in (None, 'None') else str(self.status_reason)

    @property
    def name(self) -> str | None:
        return self.config['name'] if self.config else None

    @property
    def named_after(self) -> str | None:
        """What the run was named after (its name is NAME-ACTION): for a run of a
        component, the component's name as its stack knows it ("mysql")."""
        return self.name.removesuffix('-' + self.action) if self.name else None

    @functools.cached_property
    def operation(self) -> operations.Operation | None:
        return operations.operation_of_run(self)

    @functools.cached_property
    def deadline(self):
        """When the run times out (deadlines.deadline), None without one or its config."""
        return deadlines.deadline(self.config) if self.config else None

    @property
    def transport(self) -> str | None:
        """The signal transport its result comes back by."""
        if not self.config:
            return None
        return derived.derived_input_values(self.config).get(derived.SIGNAL_TRANSPORT)

    @property
    def live(self) -> bool:
        """Whether its server was given a live target (signalling/live.py)."""
        return bool(self.config) and live.is_live(derived.derived_input_values(self.config))

    @property
    def rerunnable(self) -> bool:
        """Whether Run Again can fill in the form it came from: a component's (its derived
        config keeps the component's group), or the config the Configs panel deployed."""
        return self.config is not None and (
            self.config.get('group') == derived.COMPONENT_GROUP
            or bool(self.operation and self.operation.source))
