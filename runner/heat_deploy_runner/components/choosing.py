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

"""Choosing a component's servers as operators ask for them across a fleet: by the stack that
holds them, and by how an action last went on them ("every server where BACKUP last failed").
The Run Action form (its server list's choosers, server_choice.js) and `component run
--stack/--last-status` follow the same rules."""

from heat_deploy_runner.running.cancel import shown_status

# The last status of a server the action has never run on.
NEVER = 'NEVER'
LAST_STATUSES = ('COMPLETE', 'FAILED', 'CANCELLED', 'IN_PROGRESS', NEVER)


def last_statuses(component) -> dict:
    """{server id: {action: the shown status of its newest run of that action}} of the
    component's servers."""
    found = {server_id: {} for server_id in component.server_ids}
    # Heat writes creation times in one fixed-width UTC format: the strings sort in time order.
    for run in sorted(component.deployments, key=lambda run: run.creation_time or ''):
        if run.action:
            found[run.server_id][run.action] = shown_status(run)
    return found


def chosen(component, among, *, action, stacks, stack=None, last_status=None) -> list:
    """Those of the server ids ``among`` (in their order) held by the stack named ``stack``
    (by ``stacks``, {server id: names of the stacks that hold it}: a nested stack's server
    is its top-level stack's too) whose last run of ``action`` is ``last_status``; a
    criterion left None chooses every server."""
    statuses = last_statuses(component) if last_status else {}
    return [server_id for server_id in among
            if (stack is None or stack in stacks.get(server_id, ()))
            and (last_status is None
                 or statuses.get(server_id, {}).get(action, NEVER) == last_status)]
