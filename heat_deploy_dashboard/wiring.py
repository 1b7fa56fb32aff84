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

"""How a stack wires its software components: which server hosts which component, and which
deployment's input another deployment's output feeds.

A stack says it once, in its template: a deployment's ``config`` names its component with
``get_resource``, its ``input_values`` take another deployment's output with ``get_attr``
(through nested stacks' parameters and outputs too), and ``depends_on`` orders two deployments.
Heat adds the rest: the resource listing of the root stack, nested stacks included, gives each
resource's physical id (a component's config id, a deployment's id, a nested stack's id) and
``required_by``; the deployment listing gives each deployment's server and the input values it
received. So the wiring costs one resource listing, the deployment listing, and one template
per stack that holds a deployment's definition (a deployment group's members are defined by
the group, in its parent's template), whatever the number of runs: no run's config is read.

Only deployments of components are drawn. What Heat resolved before the template could be read
(a ResourceGroup's generated template holds values, not ``get_attr``) gives no data edge; its
``required_by`` still gives an order.

No Django here: the views use it, and it is tested on plain dicts.
"""

from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
import re

COMPONENT_TYPE = 'OS::Heat::SoftwareComponent'
DEPLOYMENT_TYPES = frozenset({'OS::Heat::SoftwareDeployment',
                              'OS::Heat::StructuredDeployment'})
GROUP_TYPES = frozenset({'OS::Heat::SoftwareDeploymentGroup',
                         'OS::Heat::StructuredDeploymentGroup',
                         'OS::Heat::SoftwareDeployments',
                         'OS::Heat::StructuredDeployments'})

# Heat's links end in ".../stacks/<name>/<id>"; a resource's own link goes on with
# "/resources/<name>".
_STACK = re.compile(r'/stacks/(?P<name>[^/]+)/(?P<id>[^/]+)(/|$)')
# Deeper than any real template nests its functions; stops a cycle of parameters.
_MAX_DEPTH = 50


@dataclass(frozen=True)
class Node:
    """A component deployed on a server by a stack: one deployment of the stack."""

    deployment_id: str
    server_id: str
    # The component's config id, and the name of its resource in the stack.
    component_id: str
    component_name: str
    # The stack and resource that define the deployment (a group's members: the group).
    stack_name: str
    resource_name: str
    # The values the stack gave its inputs, resolved by Heat.
    input_values: dict = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Edge:
    """The target takes the source's ``output`` as its ``input``; both None for an order
    alone (``depends_on``, or what Heat's ``required_by`` says without a data path)."""

    source: Node
    target: Node
    output: str | None = None
    input: str | None = None


@dataclass(frozen=True)
class Dependent:
    component_id: str
    component_name: str
    server_ids: list
    # [(output, input)] it takes; none when it only runs after.
    pairs: list


@dataclass
class Wiring:
    stack_id: str
    stack_name: str
    nodes: list
    edges: list

    def around(self, component_id):
        """The part of the map a component's page shows: its nodes, those that feed them and
        those they feed."""
        mine = {n for n in self.nodes if n.component_id == component_id}
        edges = [e for e in self.edges if e.source in mine or e.target in mine]
        near = mine | {e.source for e in edges} | {e.target for e in edges}
        return Wiring(self.stack_id, self.stack_name,
                      [n for n in self.nodes if n in near], edges)

    def dependents(self, component_id):
        """[Dependent] of the other components that take this one's outputs or are ordered
        after it, by name."""
        found = {}
        for edge in self.edges:
            consumer = edge.target
            if edge.source.component_id != component_id or consumer.component_id == component_id:
                continue
            each = found.setdefault(consumer.component_id, Dependent(
                consumer.component_id, consumer.component_name, [], []))
            if consumer.server_id not in each.server_ids:
                each.server_ids.append(consumer.server_id)
            if edge.output and (edge.output, edge.input) not in each.pairs:
                each.pairs.append((edge.output, edge.input))
        return sorted(found.values(), key=lambda d: (d.component_name, d.component_id))

    def feeds(self, component_id):
        """{input name: [edge, ...]} of the data edges into the component's nodes."""
        found = defaultdict(list)
        for edge in self.edges:
            if edge.target.component_id == component_id and edge.input:
                found[edge.input].append(edge)
        return dict(found)


def _stack_of(resource, rel):
    """(name, id) of the stack a resource's link of this rel leads to, or None."""
    for link in resource.get('links') or []:
        match = link.get('rel') == rel and _STACK.search(link.get('href') or '')
        if match:
            return match.group('name'), match.group('id')
    return None


def _properties(template, name):
    resources = template.get('resources') if isinstance(template, dict) else None
    definition = resources.get(name) if isinstance(resources, dict) else None
    properties = definition.get('properties') if isinstance(definition, dict) else None
    return properties if isinstance(properties, dict) else {}


def _input_values(properties):
    values = properties.get('input_values')
    return values.items() if isinstance(values, dict) else ()


def wire(stack_id, resources, template_of, deployments):
    """The Wiring of a stack.

    ``resources``: the stack's resource listing, nested stacks included (dicts as Heat's API
    gives them: resource_name, resource_type, physical_resource_id, required_by, links);
    ``template_of(stack_id)``: the template of one of those stacks (a dict), called only for
    the stacks that define a deployment or that a ``get_attr`` or ``get_param`` leads to;
    ``deployments``: {id: deployment dict} of the project.
    """
    return _Wirer(resources, template_of).wiring(stack_id, deployments)


class _Wirer:
    def __init__(self, resources, template_of):
        self.templates = {}
        self.template_of = template_of
        self.by_stack = defaultdict(dict)
        self.stack_names = {}
        self.nested = {}
        self.parent = {}
        for resource in resources:
            stack = _stack_of(resource, 'stack')
            name = resource.get('resource_name')
            if not stack or not name:
                continue
            self.stack_names[stack[1]] = stack[0]
            self.by_stack[stack[1]][name] = resource
            nested = _stack_of(resource, 'nested')
            if nested:
                self.nested[stack[1], name] = nested[1]
                self.parent[nested[1]] = (stack[1], name)

    def _template(self, stack_id):
        if stack_id not in self.templates:
            self.templates[stack_id] = self.template_of(stack_id)
        return self.templates[stack_id]

    def wiring(self, stack_id, deployments):
        definitions = self._nodes(deployments)
        edges, fed_by = [], defaultdict(set)
        for defined_by, targets in definitions.items():
            properties = _properties(self._template(defined_by[0]), defined_by[1])
            for input_name, expression in _input_values(properties):
                for source, output in self._refs(expression, defined_by[0], 0):
                    fed_by[defined_by].add(source)
                    edges.extend(Edge(each, target, output, str(input_name))
                                 for each in definitions.get(source, ())
                                 for target in targets)
        for defined_by, sources in definitions.items():
            stack, name = defined_by
            for later in self.by_stack[stack][name].get('required_by') or []:
                key = (stack, later)
                if key != defined_by and defined_by not in fed_by[key]:
                    edges.extend(Edge(source, target) for source in sources
                                 for target in definitions.get(key, ()))
        return Wiring(stack_id, self.stack_names.get(stack_id, stack_id),
                      [node for nodes in definitions.values() for node in nodes],
                      list(dict.fromkeys(edges)))

    def _nodes(self, deployments):
        """{(stack id, resource name) that defines them: [Node]} of the components'
        deployments."""
        definitions = defaultdict(list)
        for stack_id, named in self.by_stack.items():
            for name, resource in named.items():
                deployment = deployments.get(resource.get('physical_resource_id'))
                if resource.get('resource_type') not in DEPLOYMENT_TYPES or not deployment:
                    continue
                defined_by = self._defined_by(stack_id, name)
                component = self._component(defined_by)
                if component:
                    definitions[defined_by].append(Node(
                        deployment.id, deployment.server_id,
                        component.get('physical_resource_id'), component['resource_name'],
                        self.stack_names[defined_by[0]], defined_by[1],
                        input_values=dict(deployment.input_values)))
        return definitions

    def _defined_by(self, stack_id, name):
        parent = self.parent.get(stack_id)
        if parent and self.by_stack[parent[0]][parent[1]].get('resource_type') in GROUP_TYPES:
            return parent
        return stack_id, name

    def _component(self, defined_by):
        """The component resource a deployment's ``config`` names, or None."""
        expression = _properties(self._template(defined_by[0]), defined_by[1]).get('config')
        stack_id, depth = defined_by[0], 0
        # A component passed down to a nested stack as a parameter.
        while isinstance(expression, dict) and 'get_param' in expression and depth < _MAX_DEPTH:
            expression, stack_id = self._given(expression['get_param'], stack_id)
            depth += 1
        name = expression.get('get_resource') if isinstance(expression, dict) else None
        found = self.by_stack[stack_id].get(name) if isinstance(name, str) else None
        if found and found.get('resource_type') == COMPONENT_TYPE:
            return found
        return None

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
        kind = self.by_stack[stack_id].get(name, {}).get('resource_type')
        if kind in DEPLOYMENT_TYPES or kind in GROUP_TYPES:
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
        given, parent_id = self._given(args, stack_id)
        return self._refs(given, parent_id, depth + 1) if parent_id else []

    def _given(self, get_param_args, stack_id):
        """(what the parent stack gives a nested stack's parameter, the parent's id), or
        (None, None) at the root."""
        name = (get_param_args[0] if isinstance(get_param_args, list) and get_param_args
                else get_param_args)
        parent = self.parent.get(stack_id)
        if not isinstance(name, str) or not parent:
            return None, None
        return _properties(self._template(parent[0]), parent[1]).get(name), parent[0]
