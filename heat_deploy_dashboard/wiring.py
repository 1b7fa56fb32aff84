"""How a stack wires its software components: which server hosts which component, and which
deployment's input another deployment's output feeds.

A stack says it once, in its template: a deployment's ``input_values`` take another
deployment's output with ``get_attr`` (through nested stacks' parameters and outputs too), or
a ``depends_on`` orders two deployments. Heat adds the rest: the resource listing of the root
stack, nested stacks included, gives each resource's physical id (a deployment's id, a nested
stack's id) and ``required_by``; the deployment listing gives each deployment's server and the
input values it received. So a map costs one resource listing plus one template per stack that
holds a deployment's definition (a deployment group's members are defined by the group, in its
parent's template), whatever the number of runs.

Only deployments of components are drawn. What Heat resolved before the template could be read
(a ResourceGroup's generated template holds values, not ``get_attr``) gives no data edge; its
``required_by`` still gives an order.

No Django here: the views use it, and it is tested on plain dicts.
"""

from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
import re

DEPLOYMENT_TYPES = frozenset({'OS::Heat::SoftwareDeployment',
                              'OS::Heat::StructuredDeployment'})
GROUP_TYPES = frozenset({'OS::Heat::SoftwareDeploymentGroup',
                         'OS::Heat::StructuredDeploymentGroup',
                         'OS::Heat::SoftwareDeployments',
                         'OS::Heat::StructuredDeployments'})

# Heat's links end in ".../stacks/<name>/<id>"; a resource's own link goes on with
# "/resources/<name>".
_STACK_ID = re.compile(r'/stacks/[^/]+/(?P<id>[^/]+)(/|$)')
# Deeper than any real template nests its functions; stops a cycle of parameters.
_MAX_DEPTH = 50


@dataclass(frozen=True)
class Node:
    """A component deployed on a server by a stack: one deployment of the stack."""

    deployment_id: str
    server_id: str
    component: object = field(hash=False, compare=False)  # linking.Component
    # The stack and resource that define it (a group's members: the group).
    stack_name: str
    resource_name: str
    # The values the stack gave its inputs, resolved by Heat.
    input_values: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def latest(self):
        """The newest run of the node's component on its server (a deployment dict)."""
        for each in self.component.latest_deployments():
            if each['server_id'] == self.server_id:
                return each
        return None


@dataclass(frozen=True)
class Edge:
    """The target takes the source's ``output`` as its ``input``; both None for an order
    alone (``depends_on``, or what Heat's ``required_by`` says without a data path)."""

    source: Node
    target: Node
    output: str | None = None
    input: str | None = None


@dataclass
class Wiring:
    stack_name: str
    nodes: list
    edges: list

    def around(self, component_id):
        """The part of the map a component's page shows: its nodes, those that feed them and
        those they feed."""
        mine = {n for n in self.nodes if n.component.id == component_id}
        edges = [e for e in self.edges if e.source in mine or e.target in mine]
        near = mine | {e.source for e in edges} | {e.target for e in edges}
        return Wiring(self.stack_name, [n for n in self.nodes if n in near], edges)

    def dependents(self, component_id):
        """[(component, [server ids], [(output, input), ...])] of the other components that
        take this one's outputs or are ordered after it, by name."""
        found = {}
        for edge in self.edges:
            if edge.source.component.id != component_id:
                continue
            consumer = edge.target.component
            if consumer.id == component_id:
                continue
            servers, pairs = found.setdefault(consumer.id, (consumer, set(), []))[1:]
            servers.add(edge.target.server_id)
            if edge.output and (edge.output, edge.input) not in pairs:
                pairs.append((edge.output, edge.input))
        return sorted(((c, sorted(servers), pairs) for c, servers, pairs in found.values()),
                      key=lambda each: (each[0].name, each[0].id))

    def feeds(self, component_id):
        """{input name: [edge, ...]} of the data edges into the component's nodes."""
        found = defaultdict(list)
        for edge in self.edges:
            if edge.target.component.id == component_id and edge.input:
                found[edge.input].append(edge)
        return dict(found)


def stack_id_of(link_href):
    match = _STACK_ID.search(link_href or '')
    return match.group('id') if match else None


def _link(resource, rel):
    for link in resource.get('links') or []:
        if link.get('rel') == rel:
            return stack_id_of(link.get('href'))
    return None


def _properties(template, name):
    resources = (template or {}).get('resources') if isinstance(template, dict) else None
    definition = resources.get(name) if isinstance(resources, dict) else None
    properties = definition.get('properties') if isinstance(definition, dict) else None
    return properties if isinstance(properties, dict) else {}


def wire(stack_name, resources, template_of, components):
    """The Wiring of a stack.

    ``resources``: the stack's resource listing, nested stacks included (dicts as Heat's API
    gives them: resource_name, resource_type, physical_resource_id, required_by, links);
    ``template_of(stack_id)``: the template of one of those stacks (a dict), called only for
    the stacks that define a deployment or that a ``get_attr`` or ``get_param`` leads to;
    ``components``: linking.Component, each with the deployments (dicts) credited to it, the
    stack's own among them.
    """
    return _Wirer(resources, template_of, components).wiring(stack_name)


class _Wirer:
    def __init__(self, resources, template_of, components):
        self.templates = {}
        self.template_of = template_of
        self.by_stack = defaultdict(dict)
        self.stack_names = {}
        self.nested = {}
        self.parent = {}
        for resource in resources:
            stack_id = _link(resource, 'stack')
            name = resource.get('resource_name')
            if not stack_id or not name:
                continue
            self.by_stack[stack_id][name] = resource
            nested_id = _link(resource, 'nested')
            if nested_id:
                self.nested[stack_id, name] = nested_id
                self.parent[nested_id] = (stack_id, name)
        deployments = {d['id']: (d, c) for c in components for d in c.deployments}
        self.definitions = defaultdict(list)
        for stack_id, named in self.by_stack.items():
            for name, resource in named.items():
                deployment, component = deployments.get(
                    resource.get('physical_resource_id'), (None, None))
                if resource.get('resource_type') in DEPLOYMENT_TYPES and component:
                    defined_by = self._defined_by(stack_id, name)
                    self.definitions[defined_by].append(Node(
                        deployment['id'], deployment['server_id'], component,
                        *self._names(defined_by),
                        input_values=dict(deployment.get('input_values') or {})))

    def _defined_by(self, stack_id, name):
        parent = self.parent.get(stack_id)
        if parent and self.by_stack[parent[0]][parent[1]].get('resource_type') in GROUP_TYPES:
            return parent
        return stack_id, name

    def _names(self, defined_by):
        stack_id, name = defined_by
        return self._stack_name(stack_id), name

    def _stack_name(self, stack_id):
        for resource in self.by_stack[stack_id].values():
            for link in resource.get('links') or []:
                if link.get('rel') == 'stack':
                    return (link.get('href') or '').split('/stacks/', 1)[-1].split('/', 1)[0]
        return stack_id

    def _template(self, stack_id):
        if stack_id not in self.templates:
            self.templates[stack_id] = self.template_of(stack_id)
        return self.templates[stack_id]

    def wiring(self, stack_name):
        edges = []
        for defined_by, targets in self.definitions.items():
            properties = _properties(self._template(defined_by[0]), defined_by[1])
            values = properties.get('input_values')
            fed = set()
            for input_name, expression in (values.items() if isinstance(values, dict) else ()):
                for source_key, output in self._refs(expression, defined_by[0], 0):
                    fed.add(source_key)
                    edges.extend(Edge(source, target, output, str(input_name))
                                 for source in self.definitions.get(source_key, ())
                                 for target in targets)
            edges.extend(self._orders(defined_by, targets, fed))
        nodes = [node for nodes in self.definitions.values() for node in nodes]
        return Wiring(stack_name, nodes, list(dict.fromkeys(edges)))

    def _orders(self, defined_by, sources, fed):
        stack_id, name = defined_by
        for later in self.by_stack[stack_id][name].get('required_by') or []:
            key = (stack_id, later)
            if key in self.definitions and key != defined_by and (
                    defined_by not in self._fed_by(key)):
                for source in sources:
                    for target in self.definitions[key]:
                        yield Edge(source, target)

    def _fed_by(self, defined_by):
        properties = _properties(self._template(defined_by[0]), defined_by[1])
        values = properties.get('input_values')
        return {key for expression in (values.values() if isinstance(values, dict) else ())
                for key, _output in self._refs(expression, defined_by[0], 0)}

    def _refs(self, expression, stack_id, depth):
        """[((stack id, resource name), output)] of the deployments whose outputs an
        expression of this stack's template takes."""
        if depth > _MAX_DEPTH:
            return []
        if isinstance(expression, list):
            return [ref for each in expression for ref in self._refs(each, stack_id, depth + 1)]
        if not isinstance(expression, dict):
            return []
        if len(expression) == 1:
            function, args = next(iter(expression.items()))
            if function == 'get_attr':
                return self._attr_refs(args, stack_id, depth)
            if function == 'get_param':
                return self._param_refs(args, stack_id, depth)
        return [ref for each in expression.values()
                for ref in self._refs(each, stack_id, depth + 1)]

    def _attr_refs(self, args, stack_id, depth):
        if not (isinstance(args, list) and len(args) >= 2
                and isinstance(args[0], str) and isinstance(args[1], str)):
            return []
        name, attribute, path = args[0], args[1], args[2:]
        if (stack_id, name) in self.definitions:
            return [((stack_id, name), attribute)]
        nested_id = self.nested.get((stack_id, name))
        if not nested_id:
            return []
        # A provider template's output is an attribute of its resource; an OS::Heat::Stack's
        # is under "outputs".
        output = path[0] if attribute == 'outputs' and path else attribute
        outputs = (self._template(nested_id) or {}).get('outputs')
        declared = outputs.get(output) if isinstance(outputs, dict) else None
        if not isinstance(declared, dict):
            return []
        return self._refs(declared.get('value'), nested_id, depth + 1)

    def _param_refs(self, args, stack_id, depth):
        name = args[0] if isinstance(args, list) and args else args
        parent = self.parent.get(stack_id)
        if not isinstance(name, str) or not parent:
            return []
        given = _properties(self._template(parent[0]), parent[1]).get(name)
        return self._refs(given, parent[0], depth + 1)
