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

"""Run Action's list of servers, made for fleets: above the checkboxes, a filter by name, by
stack and by how the chosen action last went on each server, and buttons that choose all,
none, or exactly the servers shown (run_action/_servers_field.html, server_choice.js; hidden
without scripts, when the list is the plain one). The rules are runner.components.choosing's, which
`component run --stack --last-status` follows."""

import json

from django.utils.translation import gettext_lazy as _
from horizon import forms

from heat_deploy_runner.components import choosing

# How the action's last run on a server went, as the filter offers it.
LAST_STATUS_LABELS = {
    'COMPLETE': _("Its last run completed"),
    'FAILED': _("Its last run failed"),
    'CANCELLED': _("Its last run was cancelled"),
    'IN_PROGRESS': _("Its last run is still running"),
    choosing.NEVER: _("It never ran"),
}


class ServerCheckboxes(forms.ThemableCheckboxSelectMultiple):
    """Each server's checkbox says which stacks hold it and the last status of each action
    on it; ``stacks`` ({server id: stack names}) and ``last`` ({server id: {action:
    status}}) are set by the form."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.stacks, self.last = {}, {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        server_id = str(value)
        option['attrs'].update({
            'data-hdd-stacks': ' '.join(self.stacks.get(server_id, ())),
            'data-hdd-last': json.dumps(self.last.get(server_id, {}), sort_keys=True)})
        return option

    @property
    def choosers(self):
        """What the filters offer: the stacks of the servers listed, and the statuses."""
        listed = {str(value) for value, _label in self.choices}
        return {
            'stacks': sorted({each for server_id, held in self.stacks.items()
                              if server_id in listed for each in held}),
            'statuses': [(each, LAST_STATUS_LABELS[each]) for each in choosing.LAST_STATUSES]}
