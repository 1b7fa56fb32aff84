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

"""A project's components, linked to their runs (linking), read from Heat with the caller's
client: one listing each of configs, deployments and stacks, and the components' own configs.

Heat lists every project's configs, deployments and stacks to an admin; a config and a stack
say whose they are there, and a run counts only when its config is the project's (as the
dashboard's pages do).
"""

from heatclient import exc as heat_exc

from heat_deploy_runner.components import linking
from heat_deploy_runner.configs import derived
from heat_deploy_runner.running.run import Run


def _configs(heat, project_id):
    return [row for row in map(derived.as_dict, heat.software_configs.list())
            if row.get('project', project_id) == project_id]


def stacks(heat, project_id):
    """The project's stacks, nested ones too (a component in one is named after it, a server
    in one is found by it)."""
    return [stack for stack in heat.stacks.list(show_nested=True)
            if getattr(stack, 'project', project_id) == project_id]


def components(heat, project_id):
    """The project's components (linking.Component), sorted by name, each with its runs."""
    summaries = _configs(heat, project_id)
    stack_names = [stack.stack_name for stack in stacks(heat, project_id)]
    runs = [Run.from_heat(each) for each in heat.software_deployments.list()]
    return linking.link(summaries, runs, stack_names, lambda ids: _read(heat, ids))


def _read(heat, config_ids):
    found = {}
    for config_id in config_ids:
        try:
            found[config_id] = derived.as_dict(heat.software_configs.get(config_id))
        except heat_exc.HTTPNotFound:
            continue  # deleted since the listing
    return found


def find(found, wanted):
    """The component of ``found`` that ``wanted`` names: its id, its name as the dashboard
    shows it (the resource in its stack, "mysql"), or Heat's name; LookupError with a sentence
    when none or several do."""
    for matches in ([c for c in found if c.id == wanted],
                    [c for c in found if c.short_name == wanted or c.name == wanted]):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise LookupError(
                f'{len(matches)} components are named {wanted}: '
                f'give one of their ids ({", ".join(c.id for c in matches)}).')
    raise LookupError(f'No software component {wanted} in this project.')


def config(heat, project_id, config_id):
    """The project's config of this id, a dict; LookupError with a sentence when there is
    none (gone, or another project's: Heat shows an admin any project's)."""
    # Heat's show of a config says nothing of its project: the listing does.
    if not any(row['id'] == config_id for row in _configs(heat, project_id)):
        raise LookupError(f'No software config {config_id} in this project.')
    try:
        return derived.as_dict(heat.software_configs.get(config_id))
    except heat_exc.HTTPNotFound:
        raise LookupError(f'No software config {config_id} in this project.') from None


def runs(heat, project_id):
    """The project's runs (without their configs): those whose config is the project's."""
    ours = {row['id'] for row in _configs(heat, project_id)}
    return [each for each in map(Run.from_heat, heat.software_deployments.list())
            if each.config_id in ours]


def operation_runs(heat, project_id, operation_id):
    """The project's runs of this operation, each with its derived config, in server
    order."""
    found = [each for each in runs(heat, project_id)
             if each.operation and each.operation.id == operation_id]
    return described(heat, sorted(found, key=lambda each: (each.server_id, each.id)))


def described(heat, found):
    """The runs, each with its derived config (None where it is gone), one read a config."""
    configs = _read(heat, {each.config_id for each in found})
    return [each.described(configs.get(each.config_id)) for each in found]


def server_runs(heat, project_id, server_id):
    """The project's runs on this server (without their configs: see described). Heat lists
    another project's runs on a server to an admin: only the project's configs' count."""
    ours = {row['id'] for row in _configs(heat, project_id)}
    return [each for each in map(Run.from_heat,
                                 heat.software_deployments.list(server_id=server_id))
            if each.config_id in ours]


def run(heat, project_id, run_id):
    """The project's run of this id, with its derived config; LookupError with a sentence
    when there is none (gone, or another project's: Heat shows an admin any project's)."""
    try:
        found = Run.from_heat(heat.software_deployments.get(run_id))
    except heat_exc.HTTPNotFound:
        found = None
    ours = found is not None and any(
        row['id'] == found.config_id for row in _configs(heat, project_id))
    if not ours:
        raise LookupError(f'No run {run_id} in this project.')
    return found.described(_read(heat, [found.config_id]).get(found.config_id))
