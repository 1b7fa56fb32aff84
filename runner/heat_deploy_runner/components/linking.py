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

"""A project's software components, their stacks and their servers.

Heat links none of these for a caller: a deployment points at a *derived*
config, not at the component it came from, and a config does not say which
stack made it. Everything here is worked out from three listings (configs,
deployments, stacks) plus the full configs of the components, which never
change and so are fetched once (the dashboard caches them): a page or a command
costs the same few Heat calls however many components, servers and runs there
are.

- Heat names a stack resource's config "<stack>-<resource>-<short id>"
  (Resource.physical_resource_name; short_id.get_id gives 12 lowercase
  characters), so the stack listing gives the stack and resource back.
- A stack deployment's derived config is named like its component; a run
  started by our trigger or the CLI "<component or resource>-<ACTION>". The
  config listing gives these names, so a run is linked without reading its
  config.
- Only a run whose name tells nothing (named by hand on the CLI) has its
  derived config read: it keeps the group and config body of its source, so
  the two share a fingerprint.

No Django here: the dashboard's pages and the command line (listing.py) use it,
and it is tested on plain dicts and Runs.
"""

import collections
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
import json
import re

from heat_deploy_runner.configs.derived import COMPONENT_GROUP
from heat_deploy_runner.configs.derived import SERVER_ID

# The resource actions Heat itself runs a component's entries for; any
# other action in an entry is a custom one, run only when someone asks.
LIFECYCLE_ACTIONS = ('CREATE', 'UPDATE', 'DELETE', 'SUSPEND', 'RESUME')

# OS::Heat::SoftwareComponent's default for an entry without actions.
DEFAULT_ACTIONS = ('CREATE', 'UPDATE')

_RESOURCE_AND_SHORT_ID = re.compile(r'(?P<resource>.+)-[a-z0-9]{12}')


@dataclass(frozen=True)
class Script:
    """One entry of a component: what runs for these actions, with what."""

    actions: tuple
    tool: str
    config: str


@dataclass
class Component:
    id: str
    name: str
    creation_time: str | None
    fingerprint: str
    inputs: list
    outputs: list
    scripts: list
    stack_name: str | None = None
    resource_name: str | None = None
    # Every run of the component (or of a config derived from it):
    # heat_deploy_runner.running.run.Run.
    deployments: list = field(default_factory=list)
    # Whether its short name names no other component of the project (listing.find takes it).
    named_alone: bool = False

    @property
    def actions(self):
        seen = {}
        for script in self.scripts:
            seen.update(dict.fromkeys(script.actions))
        return list(seen)

    @property
    def custom_actions(self):
        return [a for a in self.actions if a not in LIFECYCLE_ACTIONS]

    @property
    def lifecycle_actions(self):
        return [a for a in self.actions if a in LIFECYCLE_ACTIONS]

    @property
    def short_name(self):
        """The name a person knows the component by: its resource's in its stack ("mysql"),
        else Heat's (a stack's is "demo-mysql-wsddc3qmqnyi")."""
        return self.resource_name or self.name

    @property
    def run_name(self):
        """What a trigger's derived configs are named after."""
        return self.short_name

    @property
    def server_ids(self):
        return sorted({run.server_id for run in self.deployments})

    def latest_deployments(self):
        """The newest deployment on each server, in server id order."""
        latest = {}
        # Heat writes creation times in one fixed-width UTC format, so the
        # strings sort in time order.
        for run in sorted(self.deployments, key=lambda run: run.creation_time or ''):
            latest[run.server_id] = run
        return [latest[server_id] for server_id in sorted(latest)]


def fingerprint(config):
    """What a derived config shares with its source: group and body."""
    return json.dumps([config.get('group'), config.get('config')],
                      sort_keys=True, separators=(',', ':'))


def is_derived(config):
    # Heat's stack deployments, the CLI and our triggers all add this input.
    return any(declared.get('name') == SERVER_ID
               for declared in config.get('inputs') or [])


def stack_and_resource(config_name, stack_names):
    """(stack name, resource name) a config name was made from, else
    (None, None). The longest stack name wins, so a component of a nested
    stack is given to it rather than to its parent."""
    for stack in sorted(set(stack_names), key=len, reverse=True):
        prefix = stack + '-'
        if config_name.startswith(prefix):
            match = _RESOURCE_AND_SHORT_ID.fullmatch(config_name[len(prefix):])
            if match:
                return stack, match.group('resource')
    return None, None


def scripts_of(config):
    """The entries of a component's config body, read defensively: a
    config made by hand with group "component" may hold anything."""
    body = config.get('config')
    entries = body.get('configs') if isinstance(body, dict) else None
    scripts = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        text = entry.get('config')
        if not isinstance(text, str):
            text = json.dumps(text, indent=2, sort_keys=True)
        scripts.append(Script(
            actions=tuple(str(a) for a in entry.get('actions')
                          or DEFAULT_ACTIONS),
            tool=str(entry.get('tool') or ''),
            config=text))
    return scripts


def component_from(config, stack_names):
    stack_name, resource_name = stack_and_resource(config.get('name') or '',
                                                   stack_names)
    return Component(
        id=config['id'], name=config.get('name') or '',
        creation_time=config.get('creation_time'),
        fingerprint=fingerprint(config),
        inputs=list(config.get('inputs') or []),
        outputs=list(config.get('outputs') or []),
        scripts=scripts_of(config),
        stack_name=stack_name, resource_name=resource_name)


def link(summaries, deployments, stack_names, read):
    """The project's components, sorted by name, each with its deployments.

    ``summaries``: rows of the config listing (id, name, group), dicts; ``deployments``: the
    runs Heat lists (heat_deploy_runner.running.run.Run); ``stack_names``: every stack's name.
    ``read(config_ids)`` gives {id: full config} for the ids it could read (one deleted since
    the listing, or left for later, is missing). It is asked for the configs no run points
    at (the components; read once, they are cached for good), then only for the runs whose
    names do not tell their component (_attach_by_name): thousands of runs made by a stack,
    a trigger or the CLI cost no read.
    """
    listed = {row['id']: row for row in summaries if row.get('group') == COMPONENT_GROUP}
    runs = [run for run in deployments if run.config_id in listed]
    pointed_at = {run.config_id for run in runs}
    components = _components(read([config_id for config_id in listed
                                   if config_id not in pointed_at]), stack_names)
    unnamed = _attach_by_name(components, runs, listed, stack_names)
    if unnamed:
        configs = read(sorted({run.config_id for run in unnamed}))
        # A component deployed as it is, without a derived copy, is pointed at by its runs.
        components.update(_components(configs, stack_names))
        _attach_by_config(components, configs, unnamed)
    names = collections.Counter(name for each in components.values()
                                for name in {each.short_name, each.name})
    for each in components.values():
        each.named_alone = names[each.short_name] == 1
    return sorted(components.values(), key=lambda c: (c.name, c.id))


def _components(configs, stack_names):
    return {config_id: component_from(config, stack_names)
            for config_id, config in configs.items() if not is_derived(config)}


def _named(components, run_name, action, stack_names):
    """The components a run's derived config name may come from.

    - A stack's deployment: its derived config is named like its component,
      "<stack>-<resource>-<short id>". After a stack update replaced the component
      (a new short id), the stack and resource still name it.
    - Our trigger's and the CLI's: "<component's name or resource>-<ACTION>".
    """
    stack, resource = stack_and_resource(run_name, stack_names)
    if stack:
        return [c for c in components.values()
                if (c.stack_name, c.resource_name) == (stack, resource)]
    return [c for c in components.values()
            if run_name == c.name or (action and run_name in (f'{c.name}-{action}',
                                                              f'{c.run_name}-{action}'))]


def _attach_by_name(components, runs, listed, stack_names):
    """Credits each run its name decides; the runs left need their config read."""
    shared = []
    unnamed = []
    for deployment in runs:
        config_id = deployment.config_id
        if config_id in components:
            components[config_id].deployments.append(deployment)
            continue
        named = _named(components, listed[config_id].get('name') or '',
                       deployment.action, stack_names)
        if len(named) == 1:
            named[0].deployments.append(deployment)
        elif named:
            shared.append((deployment, named))
        else:
            unnamed.append(deployment)
    # Two stacks from one template both have a "mysql": Run Action runs a component on its
    # own servers only, so the one already on the run's server is the one.
    servers = {c.id: set(c.server_ids) for c in components.values()}
    for deployment, named in shared:
        on_server = [c for c in named if deployment.server_id in servers[c.id]]
        if len(on_server) == 1:
            on_server[0].deployments.append(deployment)
        else:
            unnamed.append(deployment)
    return unnamed


def _attach_by_config(components, configs, runs):
    """Credits runs by their derived config's body, which keeps its component's group and
    config (the fingerprint). Identical components (two stacks from one template) share a
    fingerprint: the derived config's name then tells them apart, failing that the component
    already on the run's server. Still several: Heat's data cannot tell which one ran, so
    none is credited rather than a wrong one."""
    by_fingerprint = defaultdict(list)
    for component in components.values():
        by_fingerprint[component.fingerprint].append(component)
    servers = {c.id: set(c.server_ids) for c in components.values()}
    for deployment in runs:
        config_id = deployment.config_id
        if config_id in components:
            components[config_id].deployments.append(deployment)
            continue
        config = configs.get(config_id)
        candidates = by_fingerprint.get(fingerprint(config)) if config else None
        if not candidates:
            continue
        if len(candidates) > 1:
            candidates = [c for c in candidates
                          if _named_after(c, config.get('name') or '')] or candidates
        if len(candidates) > 1:
            candidates = [c for c in candidates if deployment.server_id in servers[c.id]]
        if len(candidates) == 1:
            candidates[0].deployments.append(deployment)


def _named_after(component, derived_name):
    return (derived_name == component.name or
            derived_name.startswith(component.run_name + '-'))


def with_declared_defaults(inputs, template_inputs):
    """A component's inputs, the ones its template declares without a default made so.

    Heat stores an input declared without a default with default '', just as one declared
    with default '': only the template tells a required input from an optional empty one.
    Without the template's inputs (None), the inputs stay as Heat stored them.
    """
    if template_inputs is None:
        return inputs
    declared = {each.get('name') for each in template_inputs or []
                if isinstance(each, dict) and 'default' in each}
    return [each if each.get('name') in declared or each.get('default') != ''
            else {key: value for key, value in each.items() if key != 'default'}
            for each in inputs]
