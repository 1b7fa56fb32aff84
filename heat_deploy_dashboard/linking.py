"""A project's software components, their stacks and their servers.

Heat links none of these for a caller: a deployment points at a *derived*
config, not at the component it came from, and a config does not say which
stack made it. Everything here is worked out from three listings (configs,
deployments, stacks) plus the full configs they name, which never change and
so are fetched once (config_cache): a page costs the same few Heat calls
however many components and servers there are.

- A derived config (from a stack deployment or from a trigger) keeps the
  group and config body of its source, so the two share a fingerprint.
- Heat names a stack resource's config "<stack>-<resource>-<short id>"
  (Resource.physical_resource_name; short_id.get_id gives 12 lowercase
  characters), so the stack listing gives the stack and resource back.

No Django here: the views use it, and it is tested on plain dicts.
"""

from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
import json
import re

from heat_deploy_dashboard.deploy.derived import SERVER_ID

COMPONENT_GROUP = 'component'

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
    # Every deployment of the component (or of a config derived from it).
    deployments: list = field(default_factory=list)

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
    def run_name(self):
        """What a trigger's derived configs are named after."""
        return self.resource_name or self.name

    @property
    def server_ids(self):
        return sorted({d['server_id'] for d in self.deployments})

    def latest_deployments(self):
        """The newest deployment on each server, in server id order."""
        latest = {}
        # Heat writes creation times in one fixed-width UTC format, so the
        # strings sort in time order.
        for deployment in sorted(self.deployments,
                                 key=lambda d: d.get('creation_time') or ''):
            latest[deployment['server_id']] = deployment
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


def link(summaries, configs, deployments, stack_names):
    """The project's components, sorted by name, each with its deployments.

    ``summaries``: rows of the config listing (id, name, group);
    ``configs``: {id: full config} for the listed component-group configs
    (one missing was deleted since the listing, and is left out);
    ``deployments``: the deployment listing; ``stack_names``: every stack's
    name. All plain dicts and strings.
    """
    components = {}
    derived = {}
    for row in summaries:
        config = configs.get(row['id'])
        if row.get('group') != COMPONENT_GROUP or config is None:
            continue
        if is_derived(config):
            derived[row['id']] = config
        else:
            components[row['id']] = component_from(config, stack_names)
    _attach(components, derived, deployments, stack_names)
    return sorted(components.values(), key=lambda c: (c.name, c.id))


def _same_resource(components, derived_name, stack_names):
    """The component the same stack resource holds now, for a run of an older version.

    A stack update that changes a component replaces its config, but Heat re-runs a
    deployment only if the component has an entry for UPDATE: the servers' deployments then
    keep derived configs of the replaced version, whose fingerprint no longer matches. The
    stack and resource names survive the replacement; a run's own name (<resource>-<ACTION>)
    counts only when a single component has that resource name.
    """
    stack, resource = stack_and_resource(derived_name, stack_names)
    if stack:
        return [c for c in components.values()
                if (c.stack_name, c.resource_name) == (stack, resource)]
    named = [c for c in components.values()
             if c.resource_name and derived_name.startswith(c.resource_name + '-')]
    return named if len(named) == 1 else []


def _attach(components, derived, deployments, stack_names):
    by_fingerprint = defaultdict(list)
    for component in components.values():
        by_fingerprint[component.fingerprint].append(component)

    # Identical components (two stacks from one template) share a
    # fingerprint. The derived config's name then tells them apart: a
    # stack's carries its component's name, a trigger's starts with the
    # component's run name. Failing that, the component already on the
    # deployment's server, which needs the first pass done.
    undecided = []
    for deployment in deployments:
        config_id = deployment['config_id']
        if config_id in components:
            # Deployed straight from the component, without a derived copy.
            components[config_id].deployments.append(deployment)
            continue
        config = derived.get(config_id)
        if config is None:
            continue
        candidates = (by_fingerprint.get(fingerprint(config))
                      or _same_resource(components, config.get('name') or '', stack_names))
        if len(candidates) > 1:
            named = [c for c in candidates
                     if _named_after(c, config.get('name') or '')]
            candidates = named or candidates
        if len(candidates) == 1:
            candidates[0].deployments.append(deployment)
        elif candidates:
            undecided.append((deployment, candidates))

    for deployment, candidates in undecided:
        on_server = [c for c in candidates
                     if deployment['server_id'] in c.server_ids]
        # Still several: Heat's data cannot tell which one ran, so none is
        # credited rather than a wrong one.
        if len(on_server) == 1:
            on_server[0].deployments.append(deployment)


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
