"""The timeline picture of a server's runs: one bar per run along a time axis, as SVG.

Pure: plain values in, markup out. Every text that goes into the markup is escaped here (run
names and actions are whatever a template author or API caller chose), so a template may insert
the result as it is. The words come from the caller, already translated.

Runs that overlap in time are drawn in separate lanes; runs one after another share a lane, so
a server's usual history of sequential runs stays a few lanes high however long it is.
"""

import dataclasses
import datetime
import heapq
import html
import math
import re
from collections.abc import Mapping
from collections.abc import Sequence

from heat_deploy_dashboard.deploy import runs as run_views

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

# (fill, extra attributes): besides its color each status has its own texture, so the
# picture reads without color too; the legend names them.
_STYLES = {
    'COMPLETE': ('#5cb85c', ''),
    'FAILED': ('url(#hdd-timeline-failed)', ''),
    'IN_PROGRESS': ('#f0ad4e', ' stroke="#8a6d3b" stroke-dasharray="3 2"'),
}
_OTHER_STYLE = ('#999999', '')
_CLASSES = {'COMPLETE': 'complete', 'FAILED': 'failed', 'IN_PROGRESS': 'in-progress'}

_TICK_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800,
               21600, 43200, 86400, 172800, 604800, 1209600, 2592000, 7776000, 31536000)

# Characters XML 1.0 does not allow, even escaped.
_NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


@dataclasses.dataclass(frozen=True)
class Run:
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


def _text(value) -> str:
    return html.escape(_NOT_XML.sub('\ufffd', str(value)), quote=True)


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
    parts = []
    for index, status in enumerate(_CLASSES):
        x = MARGIN + index * 220
        fill, extra = _STYLES[status]
        count = sum(1 for run in runs if run.status == status)
        parts.append(
            f'<rect x="{x}" y="6" width="14" height="12" fill="{fill}"{extra}/>'
            f'<text x="{x + 20}" y="16">{_text(words.statuses.get(status, status))}'
            f' ({count})</text>')
    return ''.join(parts)


def _axis(top, first, last, zone, words):
    span = last - first
    step = _tick_step(span)
    offset = datetime.datetime.fromtimestamp(first, zone).utcoffset().total_seconds()
    # Ticks on round times of the wall clock the labels are read in.
    tick = math.ceil((first + offset) / step) * step - offset
    time_format = _tick_format(step, span)
    scale = (WIDTH - 2 * MARGIN) / span
    parts = [f'<line x1="{MARGIN}" y1="{top}" x2="{WIDTH - MARGIN}" y2="{top}" '
             f'stroke="#666666"/>']
    while tick <= last:
        x = round(MARGIN + (tick - first) * scale, 2)
        label = datetime.datetime.fromtimestamp(tick, zone).strftime(time_format)
        parts.append(f'<line x1="{x}" y1="{top}" x2="{x}" y2="{top + 5}" stroke="#666666"/>'
                     f'<text x="{x}" y="{top + 17}" text-anchor="{_anchor(x, label)}">'
                     f'{_text(label)}</text>')
        tick += step
    shown = {'start': _moment(first, zone), 'end': _moment(last, zone)}
    parts.append(f'<text x="{WIDTH - MARGIN}" y="{top + 36}" text-anchor="end">'
                 f'{_text(words.span % shown)}</text>')
    return ''.join(parts)


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


def _svg(height, body, words):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="hdd-timeline" '
            f'viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
            f'aria-labelledby="hdd-timeline-title" font-size="12" '
            f'font-family="sans-serif"><title id="hdd-timeline-title">'
            f'{_text(words.title)}</title>{body}</svg>')


_DEFS = ('<defs><pattern id="hdd-timeline-failed" width="6" height="6" '
         'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
         '<rect width="6" height="6" fill="#d9534f"/>'
         '<line x1="0" y1="0" x2="0" y2="6" stroke="#ffffff" stroke-width="2"/>'
         '</pattern></defs>')


def svg(runs: Sequence[Run], now: datetime.datetime, zone: datetime.tzinfo,
        words: Words) -> str:
    """The picture of ``runs`` (aware datetimes), times shown in ``zone``."""
    if not runs:
        return _svg(LEGEND_HEIGHT, f'<text x="{MARGIN}" y="18">{_text(words.empty)}</text>',
                    words)
    runs = sorted(runs, key=lambda run: run.start)
    starts = [run.start.timestamp() for run in runs]
    # Never before the start: clocks of Heat and of this host may disagree a little.
    ends = [max((run.end or now).timestamp(), start) for run, start in zip(runs, starts)]
    first = starts[0]
    # At least a minute, so that runs all started at one instant still have an axis.
    last = max(max(ends), first + 60)
    scale = (WIDTH - 2 * MARGIN) / (last - first)

    bars = [(MARGIN + (start - first) * scale, max((end - start) * scale, MIN_BAR_WIDTH))
            for start, end in zip(starts, ends)]
    lanes, lane_count = _lanes(bars)
    pitch = max(min(LANE_PITCH, MAX_PLOT_HEIGHT / lane_count), MIN_LANE_PITCH)
    bar_height = round(pitch * BAR_HEIGHT / LANE_PITCH, 2)

    parts = [_DEFS, _legend(runs, words), '<g class="hdd-timeline-runs">']
    for run, start, end, (x, width), lane in zip(runs, starts, ends, bars, lanes):
        fill, extra = _STYLES.get(run.status, _OTHER_STYLE)
        tooltip = words.bar % {
            'name': run.name, 'action': run.action,
            'status': words.statuses.get(run.status, run.status),
            'start': _moment(start, zone),
            'duration': run_views.format_duration(datetime.timedelta(seconds=end - start)),
        }
        y = round(LEGEND_HEIGHT + lane * pitch, 2)
        parts.append(
            f'<rect class="hdd-timeline-run hdd-timeline-{_CLASSES.get(run.status, "other")}" '
            f'x="{round(x, 2)}" y="{y}" width="{round(width, 2)}" height="{bar_height}" '
            f'fill="{fill}"{extra}><title>{_text(tooltip)}</title></rect>')
    parts.append('</g>')
    axis_top = round(LEGEND_HEIGHT + lane_count * pitch + 4, 2)
    parts.append(_axis(axis_top, first, last, zone, words))
    return _svg(round(axis_top + AXIS_HEIGHT, 2), ''.join(parts), words)
