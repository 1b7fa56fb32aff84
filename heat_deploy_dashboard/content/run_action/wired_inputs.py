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

"""What Run Action takes from a component's stack wiring: the inputs the stack fed from another
component's output, with the value the stack gave them and a newer one when the source has
produced it since."""

import dataclasses

from heat_deploy_runner.configs import inputs as heat_inputs


@dataclasses.dataclass(frozen=True)
class WiredInput:
    name: str
    # "mysql.dsn", as the stack's wiring names it.
    source: str
    source_server: str
    # The value the stack gave the input: the same on every server, else None.
    value: str | None
    # {server id: value} when the servers were given different values.
    by_server: dict
    # The source's output as its newest run that wrote it left it, when it differs.
    newer: str | None
    newer_action: str | None


def _newest_output(component, server_id, output):
    """(text, action) of the output as the newest run of the component on the server that
    wrote it left it, or (None, None)."""
    runs = sorted((run for run in component.deployments if run.server_id == server_id),
                  key=lambda run: run.creation_time or '', reverse=True)
    for run in runs:
        value = run.output_values.get(output)
        if value is not None:
            return heat_inputs.as_text(None, value), run.action
    return None, None


def wired_inputs(wiring, component, components, server_names):
    """[WiredInput] of the component's inputs its stack fed from another deployment's output,
    in the order the component declares them; ``components``: the project's, for the runs of
    the sources."""
    if wiring is None:
        return []
    types = {each.get('name'): each.get('type') for each in component.inputs}
    found = []
    for name, edges in wiring.feeds(component.id).items():
        if name not in types:
            continue
        edge = edges[0]
        given = {e.target.server_id: heat_inputs.as_text(types[name],
                                                         e.target.input_values.get(name))
                 for e in edges}
        values = set(given.values())
        value = values.pop() if len(values) == 1 else None
        source = next((c for c in components if c.id == edge.source.component_id), None)
        newer, action = (_newest_output(source, edge.source.server_id, edge.output)
                         if source else (None, None))
        if newer == value or value is None:
            newer = action = None
        found.append(WiredInput(
            name=name, source=f'{edge.source.component_name}.{edge.output}',
            source_server=server_names.get(edge.source.server_id, edge.source.server_id),
            value=value,
            by_server={} if value is not None else {
                server_names.get(s, s): text for s, text in sorted(given.items())},
            newer=newer, newer_action=action))
    order = list(types)
    return sorted(found, key=lambda each: order.index(each.name))
