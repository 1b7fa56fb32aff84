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

"""The action of the sweep workflow (workflows/sweep_v1.yaml): the derived configs Heat made
for a start it had left unanswered, deleted (orphans.py)."""

from datetime import datetime
from datetime import timezone

from mistral_lib import actions

from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner.mistral import following
from heat_deploy_runner.pruning import orphans


class SweepAction(actions.Action):
    """The operation's configs of ``action_name`` that no run uses, deleted with the place
    for their result: the ids of those deleted, and what was left behind. Safe to run
    again: a config already gone is not found."""

    def __init__(self, operation_id, action_name, trust_id=None):
        super().__init__()
        self.operation_id = operation_id
        self.action_name = action_name
        self.trust_id = trust_id

    @clients_mod.stops_where_trust_refused
    @following.waits_out_a_moment
    def run(self, context):
        clients = clients_mod.clients_for(context.security, self.trust_id)
        done = orphans.sweep(clients.heat, clients.find_transport, clients.project_id,
                             datetime.now(timezone.utc), self.operation_id, self.action_name)
        return {'swept': [config['id'] for config in done.configs],
                'left': [str(message) for message in done.leftovers]}
