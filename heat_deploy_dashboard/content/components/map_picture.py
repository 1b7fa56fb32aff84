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

"""The map of a stack's components as a picture: one row per server, one column per component,
a box where a component is deployed on a server, an arrow from each output to the input it
feeds.

Layout only: numbers and plain text, drawn as SVG by components/_map.svg.html, whose
autoescaping handles every text (names are whatever a template author chose). Columns follow
the data: a component stands right of every component that feeds it, so arrows run left to
right; the servers of the first columns come first.
"""

import dataclasses
import json

from django.urls import reverse
from django.utils.translation import gettext

from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names

MARGIN = 12
LABEL_WIDTH = 170
HEADER_HEIGHT = 34
# Room between two columns for an arrow's label.
COLUMN_WIDTH = 250
BOX_WIDTH = 150
BOX_HEIGHT = 40
ROW_HEIGHT = 62
# About the width of a character of the picture's 12 px sans-serif.
CHARACTER_WIDTH = 7
# How far an arrow between boxes of one column bends out to the right.
BEND = 50

STATUS_CLASSES = {
    'COMPLETE': 'complete',
    'FAILED': 'failed',
    run_tables.CANCELLED: 'failed',
    'IN_PROGRESS': 'in-progress',
}


@dataclasses.dataclass(frozen=True)
class Box:
    x: int
    y: int
    component: str
    server: str
    status: str
    status_class: str
    action: str
    url: str
    # The run the live poll follows while it goes on, else None.
    running_id: str | None
    centre: bool

    @property
    def component_text(self):
        return shortened(self.component, BOX_WIDTH - 12)

    @property
    def status_text(self):
        return shortened(' \u00b7 '.join(filter(None, [self.status, self.action])),
                         BOX_WIDTH - 12)


@dataclasses.dataclass(frozen=True)
class Arrow:
    path: str
    label: str
    label_x: float
    label_y: float
    label_anchor: str
    title: str
    order: bool


@dataclasses.dataclass(frozen=True)
class Picture:
    width: int
    height: int
    title: str
    columns: list
    servers: list
    boxes: list
    arrows: list
    box_width: int = BOX_WIDTH
    box_height: int = BOX_HEIGHT


def shortened(text, width):
    """The text cut to what fits in ``width`` pixels, with an ellipsis when cut."""
    fits = max(1, width // CHARACTER_WIDTH)
    return text if len(text) <= fits else text[:fits - 1] + '\u2026'


def _columns(wiring):
    """[(component id, name)] in the order of their columns: each after those that feed it."""
    components = {n.component_id: n.component_name for n in wiring.nodes}
    feeders = {each: set() for each in components}
    for edge in wiring.edges:
        if edge.source.component_id != edge.target.component_id:
            feeders[edge.target.component_id].add(edge.source.component_id)
    rank = {}

    def rank_of(each, seen=()):
        if each not in rank:
            # A cycle (two components feeding each other) is cut where it closes.
            rank[each] = 1 + max((rank_of(f, (*seen, each)) for f in feeders[each]
                                  if f not in seen and f != each), default=-1)
        return rank[each]

    return sorted(components.items(), key=lambda c: (rank_of(c[0]), c[1], c[0]))


def latest_runs(components):
    """{(component id, server id): its newest run there} of linking.Components."""
    return {(c.id, run.server_id): run for c in components
            for run in c.latest_deployments()}


def _status(latest):
    if latest is None:
        return '', 'none', '', None
    status = run_tables.shown_status(latest)
    return (run_tables.status_word(status), STATUS_CLASSES.get(status, 'none'),
            latest.action or '', latest.id if status == 'IN_PROGRESS' else None)


def _url(node, latest):
    if latest is None:
        return reverse('horizon:project:components:detail', args=[node.component_id])
    return reverse('horizon:project:deployments:detail', args=[latest.id])


def _curve(source, target):
    """An SVG path from the source box to the target's, and the point halfway along."""
    sy = source.y + BOX_HEIGHT / 2
    ty = target.y + BOX_HEIGHT / 2
    if target.x > source.x:
        start, end = (source.x + BOX_WIDTH, sy), (target.x, ty)
        middle = (start[0] + end[0]) / 2
        controls = ((middle, sy), (middle, ty))
    else:
        start, end = (source.x + BOX_WIDTH, sy), (target.x + BOX_WIDTH, ty)
        bend = max(start[0], end[0]) + BEND
        controls = ((bend, sy), (bend, ty))
    points = (start, *controls, end)
    half = tuple((points[0][i] + 3 * points[1][i] + 3 * points[2][i] + points[3][i]) / 8
                 for i in (0, 1))
    path = 'M{:g},{:g} C{:g},{:g} {:g},{:g} {:g},{:g}'.format(
        *(value for point in points for value in point))
    return path, half


def layout(request, wiring, latest, centre=None):
    """The Picture of a Wiring; ``latest``: latest_runs() of its components; ``centre``: the
    id of the component the page is about."""
    columns = _columns(wiring)
    column_of = {component_id: i for i, (component_id, _name) in enumerate(columns)}
    first_column = {}
    for node in wiring.nodes:
        first_column[node.server_id] = min(column_of[node.component_id],
                                           first_column.get(node.server_id, len(columns)))
    named = server_names.names(request)
    servers = sorted(first_column, key=lambda s: (first_column[s], named.get(s, s), s))
    row_of = {s: i for i, s in enumerate(servers)}

    boxes = {}
    for node in wiring.nodes:
        run = latest.get((node.component_id, node.server_id))
        status, status_class, action, running = _status(run)
        boxes[node] = Box(
            x=MARGIN + LABEL_WIDTH + column_of[node.component_id] * COLUMN_WIDTH,
            y=MARGIN + HEADER_HEIGHT + row_of[node.server_id] * ROW_HEIGHT,
            component=node.component_name, server=named.get(node.server_id, node.server_id),
            status=status, status_class=status_class, action=action, url=_url(node, run),
            running_id=running, centre=node.component_id == centre)

    arrows = []
    into = {}
    for edge in wiring.edges:
        source, target = boxes[edge.source], boxes[edge.target]
        path, (x, y) = _curve(source, target)
        anchor = 'middle'
        if target.x > source.x:
            # Beside the input it feeds, one line up for each other input of the box.
            stacked = into.setdefault(target, 0)
            into[target] += 1
            x, y, anchor = target.x - 6, target.y + BOX_HEIGHT / 2 - 2 - 13 * stacked, 'end'
        else:
            y -= 4
        words = {'source': source.component, 'source_server': source.server,
                 'target': target.component, 'target_server': target.server,
                 'output': edge.output, 'input': edge.input}
        if edge.output:
            label = f'{edge.output} \u2192 {edge.input}'
            title = gettext("%(target)s on %(target_server)s takes %(source)s's %(output)s "
                            "(from %(source_server)s) as %(input)s") % words
        else:
            label = ''
            title = gettext("%(target)s on %(target_server)s comes after %(source)s on "
                            "%(source_server)s") % words
        arrows.append(Arrow(path, shortened(label, COLUMN_WIDTH - BOX_WIDTH - 12), x, y,
                            anchor, title, order=not edge.output))

    width = MARGIN * 2 + LABEL_WIDTH + max(1, len(columns)) * COLUMN_WIDTH + BEND
    height = MARGIN * 2 + HEADER_HEIGHT + max(1, len(servers)) * ROW_HEIGHT
    return Picture(
        width=width, height=height,
        title=gettext("Components of stack %(stack)s, by server") % {
            'stack': wiring.stack_name},
        columns=[{'x': MARGIN + LABEL_WIDTH + i * COLUMN_WIDTH + BOX_WIDTH / 2,
                  'text': shortened(name, COLUMN_WIDTH - 10), 'name': name,
                  'centre': component_id == centre}
                 for i, (component_id, name) in enumerate(columns)],
        servers=[{'y': MARGIN + HEADER_HEIGHT + i * ROW_HEIGHT + BOX_HEIGHT / 2 + 4,
                  'text': shortened(named.get(s, s), LABEL_WIDTH - 10),
                  'name': named.get(s, s)}
                 for i, s in enumerate(servers)],
        boxes=list(boxes.values()), arrows=arrows)


def context(request, wiring, components, centre=None, stack_url=None):
    """What components/_map.html draws: the picture, and its arrows as the rows of a table.
    ``components``: linking.Components, for the latest run of each box."""
    picture = layout(request, wiring, latest_runs(components), centre)
    named = server_names.names(request)
    edges = [{'source': e.source.component_name,
              'source_server': named.get(e.source.server_id, e.source.server_id),
              'output': e.output, 'input': e.input, 'target': e.target.component_name,
              'target_server': named.get(e.target.server_id, e.target.server_id)}
             for e in wiring.edges]
    return {'picture': picture, 'wiring': wiring, 'edges': edges, 'stack_url': stack_url,
            # For stack_map.js, which moves a node from class to class as its run goes on.
            'status_classes': json.dumps(STATUS_CLASSES)}
