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

"""The timeline picture of a server's runs: one bar per run along a time axis.

Pure: plain values in, the picture's layout out (`layout`): where each bar, tick and label
goes and what it says, as numbers and plain text. No markup is made here: the server page's
template (content/servers/templates/servers/_timeline.svg.html) draws the layout as SVG, so
every text (run names and actions are whatever a template author or API caller chose) goes
through the template's autoescaping, which in Horizon also neutralises AngularJS's `{$ $}`.
The words come from the caller, already translated.

Runs that overlap in time are drawn in separate lanes; runs one after another share a lane, so
a server's usual history of sequential runs stays a few lanes high however long it is.
"""

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
import dataclasses
import datetime
import heapq
import math
import re

from heat_deploy_runner.running import runs as run_views

WIDTH = 960
MARGIN = 12
# About the width of a character of the axis' 12 px sans-serif, rounded up.
LABEL_CHARACTER_WIDTH = 7
LEGEND_HEIGHT = 28
AXIS_HEIGHT = 44
# A run of a second among runs of days would be invisible at its true width.
MIN_BAR_WIDTH = 3
# Horizontal room kept between two runs sharing a lane, so that they never touch.
LANE_GAP = 2
LANE_PITCH = 18
BAR_HEIGHT = 12
# Beyond this height lanes get thinner instead of the picture taller.
MAX_PLOT_HEIGHT = 360
MIN_LANE_PITCH = 4
MAX_TICKS = 7
LEGEND_SPACING = 200

# The id of the texture of failed runs, defined once in the picture.
FAILED_PATTERN = 'hdd-timeline-failed'


@dataclasses.dataclass(frozen=True)
class Style:
    """How a status is drawn: besides its color each status has its own texture, so the
    picture reads without color too; the legend names them."""

    css: str  # hdd-timeline-<css>
    fill: str
    stroke: str | None = None
    dasharray: str | None = None


_STYLES = {
    'COMPLETE': Style('complete', '#5cb85c'),
    'FAILED': Style('failed', f'url(#{FAILED_PATTERN})'),
    'CANCELLED': Style('cancelled', '#d9d9d9', stroke='#777777', dasharray='1 2'),
    'IN_PROGRESS': Style('in-progress', '#f0ad4e', stroke='#8a6d3b', dasharray='3 2'),
}
_OTHER_STYLE = Style('other', '#999999')

_TICK_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800,
               21600, 43200, 86400, 172800, 604800, 1209600, 2592000, 7776000, 31536000)

# Characters XML 1.0 does not allow, even escaped: the picture is inline SVG, which a page
# saved or parsed as XHTML must still hold.
_NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


@dataclasses.dataclass(frozen=True)
class Span:
    """A run's time on the server, as the timeline draws it (a bar).

    Not the run itself (runner.Run): only what the drawing needs, so that it is drawn the
    same from Heat's runs and from archived ones."""

    # Its deployment's id, for its bar to lead to its page.
    id: str
    name: str
    action: str
    status: str
    start: datetime.datetime
    # None while the run goes on: it is drawn up to now.
    end: datetime.datetime | None = None


@dataclasses.dataclass(frozen=True)
class Words:
    """What the picture says, translated by the caller."""

    title: str  # names the picture for screen readers
    empty: str  # shown instead of bars when there are no runs
    statuses: Mapping[str, str]  # status -> its display name
    bar: str  # with %(name)s %(action)s %(status)s %(start)s %(duration)s
    span: str  # with %(start)s %(end)s
    # How long a run took, as a person reads it.
    duration: Callable[[datetime.timedelta], str] = run_views.format_duration


@dataclasses.dataclass(frozen=True)
class Swatch:
    """One status in the legend: a sample of its bar at (x, y), its name and count at
    (text_x, text_y)."""

    x: float
    y: float
    width: float
    height: float
    style: Style
    text_x: float
    text_y: float
    label: str


@dataclasses.dataclass(frozen=True)
class Bar:
    """One run: a rectangle, with its details as its tooltip."""

    x: float
    y: float
    width: float
    height: float
    style: Style
    tooltip: str
    run_id: str


@dataclasses.dataclass(frozen=True)
class Tick:
    x: float
    label: str
    anchor: str  # SVG text-anchor: start, middle or end


@dataclasses.dataclass(frozen=True)
class Axis:
    """The time axis: a line at y from left to right, ticks down to tick_bottom with their
    labels at label_y, and what it spans, right-aligned at (right, span_y)."""

    y: float
    left: float
    right: float
    tick_bottom: float
    label_y: float
    ticks: tuple[Tick, ...]
    span_y: float
    span: str


@dataclasses.dataclass(frozen=True)
class Picture:
    """Everything the template draws, in a viewBox of width x height. Without runs, only the
    title and `empty` at (empty_x, empty_y)."""

    width: float
    height: float
    title: str
    legend: tuple[Swatch, ...] = ()
    bars: tuple[Bar, ...] = ()
    axis: Axis | None = None
    empty: str | None = None
    empty_x: float = MARGIN
    empty_y: float = 18
    failed_pattern: str = FAILED_PATTERN


def _text(value) -> str:
    """Plain text the picture can hold: only what XML forbids is replaced. Escaping is the
    template's job."""
    return _NOT_XML.sub('\ufffd', str(value))


def _tick_step(span: float) -> float:
    for step in _TICK_STEPS:
        if span / step <= MAX_TICKS:
            return step
    longest = _TICK_STEPS[-1]
    return longest * math.ceil(span / (MAX_TICKS * longest))


def _tick_format(step: float, span: float) -> str:
    if step < 60:
        return '%H:%M:%S'
    if step < 86400:
        return '%H:%M' if span <= 86400 else '%m-%d %H:%M'
    return '%Y-%m-%d'


def _lanes(bars):
    """Lane index of each (x, width) bar, bars given in start order, and the lane count: a
    lane whose last bar has ended, else a new one."""
    free_from = []  # heap of (right edge of a lane's last bar, lane)
    lanes = []
    for x, width in bars:
        if free_from and free_from[0][0] + LANE_GAP <= x:
            lane = heapq.heappop(free_from)[1]
        else:
            lane = len(free_from)
        heapq.heappush(free_from, (x + width, lane))
        lanes.append(lane)
    return lanes, len(free_from)


def _legend(runs, words):
    swatches = []
    for index, (status, style) in enumerate(_STYLES.items()):
        x = MARGIN + index * LEGEND_SPACING
        count = sum(1 for run in runs if run.status == status)
        name = _text(words.statuses.get(status, status))
        swatches.append(Swatch(x=x, y=6, width=14, height=12, style=style, text_x=x + 20,
                               text_y=16, label=f'{name} ({count})'))
    return tuple(swatches)


def _axis(top, first, last, zone, words):
    span = last - first
    step = _tick_step(span)
    offset = datetime.datetime.fromtimestamp(first, zone).utcoffset().total_seconds()
    # Ticks on round times of the wall clock the labels are read in.
    tick = math.ceil((first + offset) / step) * step - offset
    time_format = _tick_format(step, span)
    scale = (WIDTH - 2 * MARGIN) / span
    ticks = []
    while tick <= last:
        x = round(MARGIN + (tick - first) * scale, 2)
        label = _text(datetime.datetime.fromtimestamp(tick, zone).strftime(time_format))
        ticks.append(Tick(x=x, label=label, anchor=_anchor(x, label)))
        tick += step
    shown = {'start': _moment(first, zone), 'end': _moment(last, zone)}
    return Axis(y=top, left=MARGIN, right=WIDTH - MARGIN, tick_bottom=round(top + 5, 2),
                label_y=round(top + 17, 2), ticks=tuple(ticks), span_y=round(top + 36, 2),
                span=_text(words.span % shown))


def _anchor(x, label):
    """Centred under its tick, unless that would cut it off at an edge of the picture."""
    half = len(label) * LABEL_CHARACTER_WIDTH / 2
    if x - half < 0:
        return 'start'
    if x + half > WIDTH:
        return 'end'
    return 'middle'


def _moment(seconds, zone):
    return datetime.datetime.fromtimestamp(seconds, zone).strftime('%Y-%m-%d %H:%M:%S %Z')


def drawn(runs: Sequence[Span], now: datetime.datetime,
          since: datetime.datetime | None) -> list[Span]:
    """The runs a picture from ``since`` on shows: those still going at ``since`` or later."""
    return [run for run in runs if since is None or (run.end or now) >= since]


def layout(runs: Sequence[Span], now: datetime.datetime, zone: datetime.tzinfo,
           words: Words, since: datetime.datetime | None = None) -> Picture:
    """The picture of ``runs`` (aware datetimes), times shown in ``zone``: from the oldest run
    on, or, with ``since``, of the runs drawn() from then on, a run begun earlier cut at
    ``since``."""
    title = _text(words.title)
    runs = sorted(drawn(runs, now, since), key=lambda run: run.start)
    if not runs:
        return Picture(width=WIDTH, height=LEGEND_HEIGHT, title=title,
                       empty=_text(words.empty))
    starts = [run.start.timestamp() for run in runs]
    # Never before the start: clocks of Heat and of this host may disagree a little.
    ends = [max((run.end or now).timestamp(), start) for run, start in zip(runs, starts)]
    first = starts[0] if since is None else max(starts[0], since.timestamp())
    # At least a minute, so that runs all started at one instant still have an axis.
    last = max(max(ends), first + 60)
    scale = (WIDTH - 2 * MARGIN) / (last - first)

    spans = [(MARGIN + (max(start, first) - first) * scale,
              max((end - max(start, first)) * scale, MIN_BAR_WIDTH))
             for start, end in zip(starts, ends)]
    lanes, lane_count = _lanes(spans)
    pitch = max(min(LANE_PITCH, MAX_PLOT_HEIGHT / lane_count), MIN_LANE_PITCH)
    bar_height = round(pitch * BAR_HEIGHT / LANE_PITCH, 2)

    bars = []
    for run, start, end, (x, width), lane in zip(runs, starts, ends, spans, lanes):
        tooltip = words.bar % {
            'name': run.name, 'action': run.action,
            'status': words.statuses.get(run.status, run.status),
            'start': _moment(start, zone),
            'duration': words.duration(datetime.timedelta(seconds=end - start)),
        }
        bars.append(Bar(x=round(x, 2), y=round(LEGEND_HEIGHT + lane * pitch, 2),
                        width=round(width, 2), height=bar_height,
                        style=_STYLES.get(run.status, _OTHER_STYLE), tooltip=_text(tooltip),
                        run_id=run.id))
    axis_top = round(LEGEND_HEIGHT + lane_count * pitch + 4, 2)
    return Picture(width=WIDTH, height=round(axis_top + AXIS_HEIGHT, 2), title=title,
                   legend=_legend(runs, words), bars=tuple(bars),
                   axis=_axis(axis_top, first, last, zone, words))
