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

"""content/servers/timeline.py computes the picture's layout as plain data; the server
page's template (project/servers/_timeline.svg.html) draws it as SVG. The layout is tested
as data, and the picture as the template renders it, parsed as XML."""

import datetime
import uuid
import xml.etree.ElementTree as ET

from django.template import loader
from django.test import override_settings
from django.urls import reverse
from django.utils import translation
import pytest

from heat_deploy_dashboard.content.servers import timeline

UTC = datetime.timezone.utc
SVG = '{http://www.w3.org/2000/svg}'
TEMPLATE = 'project/servers/_timeline.svg.html'
T0 = datetime.datetime(2026, 11, 22, 3, 0, 0, tzinfo=UTC)
WORDS = timeline.Words(
    title='Runs over time', empty='No runs yet.',
    statuses={'COMPLETE': 'Complete', 'FAILED': 'Failed', 'CANCELLED': 'Cancelled',
              'IN_PROGRESS': 'In Progress'},
    bar='%(name)s: %(action)s, %(status)s. Started %(start)s, took %(duration)s.',
    span='From %(start)s to %(end)s')
PLOT_WIDTH = timeline.WIDTH - 2 * timeline.MARGIN


@pytest.fixture(scope='module', autouse=True)
def panel_templates():
    # Horizon finds a panel's templates (project/servers/...) once its panels are registered,
    # which loading the URLs does.
    reverse('horizon:project:servers:index')


def _at(seconds):
    return T0 + datetime.timedelta(seconds=seconds)


def _run(start, end, name='mysql-BACKUP', action='BACKUP', status='COMPLETE'):
    return timeline.Span(id=str(uuid.uuid5(uuid.NAMESPACE_URL, f'{name}-{start}')), name=name,
                         action=action, status=status, start=_at(start),
                         end=None if end is None else _at(end))


def _layout(runs, now=3600, zone=UTC):
    return timeline.layout(runs, now=_at(now), zone=zone, words=WORDS)


def _markup(runs, now=3600, zone=UTC):
    return loader.render_to_string(TEMPLATE, {'picture': _layout(runs, now, zone)})


def _draw(runs, now=3600, zone=UTC):
    return ET.fromstring(_markup(runs, now, zone))


def _bars(root):
    return [rect for rect in root.iter(SVG + 'rect')
            if 'hdd-timeline-run' in rect.get('class', '').split()]


def _texts(root):
    return [text.text for text in root.iter(SVG + 'text')]


def test_no_runs_is_a_picture_that_says_so():
    root = _draw([])

    assert _bars(root) == []
    assert 'No runs yet.' in _texts(root)
    assert root.find(SVG + 'title').text == 'Runs over time'


def test_one_bar_per_run_each_with_its_details_in_a_tooltip():
    root = _draw([_run(0, 130), _run(600, 665, name='mysql-RESTORE', action='RESTORE',
                                     status='FAILED')])

    bars = _bars(root)
    assert len(bars) == 2
    assert [bar.find(SVG + 'title').text for bar in bars] == [
        'mysql-BACKUP: BACKUP, Complete. Started 2026-11-22 03:00:00 UTC, took 2m 10s.',
        'mysql-RESTORE: RESTORE, Failed. Started 2026-11-22 03:10:00 UTC, took 1m 05s.']


def test_bar_widths_are_proportional_to_durations():
    bars = _layout([_run(0, 600), _run(900, 1200), _run(1800, 3600)], now=3600).bars

    assert [bar.width for bar in bars] == [
        round(PLOT_WIDTH * 600 / 3600, 2), round(PLOT_WIDTH * 300 / 3600, 2),
        round(PLOT_WIDTH * 1800 / 3600, 2)]
    assert bars[1].x == round(timeline.MARGIN + PLOT_WIDTH * 900 / 3600, 2)


def test_the_picture_draws_the_layouts_numbers():
    runs = [_run(0, 600), _run(900, 1200), _run(1800, 3600)]
    picture = _layout(runs)

    drawn = _bars(_draw(runs))
    assert [(float(b.get('x')), float(b.get('y')), float(b.get('width')),
             float(b.get('height'))) for b in drawn] == [
        (bar.x, bar.y, bar.width, bar.height) for bar in picture.bars]
    assert _draw(runs).get('viewBox') == f'0 0 {picture.width} {picture.height}'


def test_each_bar_is_a_link_to_its_runs_page():
    runs = [_run(0, 600), _run(900, 1200)]

    links = list(_draw(runs).iter(SVG + 'a'))

    assert [link.get('href') for link in links] == [
        reverse('horizon:project:deployments:detail', args=[run.id]) for run in runs]
    assert [len(_bars(link)) for link in links] == [1, 1]


def test_a_very_short_run_still_shows():
    bars = _layout([_run(0, 1), _run(86400, 86400 * 2)], now=86400 * 2).bars

    assert bars[0].width == timeline.MIN_BAR_WIDTH


def test_a_running_run_extends_to_now():
    root = _draw([_run(0, 60), _run(1800, None, status='IN_PROGRESS')], now=3600)

    running = _bars(root)[1]
    assert float(running.get('x')) + float(running.get('width')) == timeline.MARGIN + PLOT_WIDTH
    assert 'took 30m 00s' in running.find(SVG + 'title').text
    assert 'hdd-timeline-in-progress' in running.get('class')
    assert running.get('stroke-dasharray') == '3 2'


def test_statuses_are_named_in_a_legend_with_their_counts_not_by_color_alone():
    root = _draw([_run(0, 60), _run(120, 180), _run(300, 360, status='FAILED'),
                  _run(370, 380, status='CANCELLED'), _run(400, None, status='IN_PROGRESS')])

    texts = _texts(root)
    assert 'Complete (2)' in texts
    # A cancelled run is not counted as failed.
    assert 'Failed (1)' in texts
    assert 'Cancelled (1)' in texts
    assert 'In Progress (1)' in texts
    fills = {bar.get('class').split()[-1]: bar.get('fill') for bar in _bars(root)}
    # A texture for failures, besides the red, and it is defined in the picture.
    assert fills['hdd-timeline-failed'] == f'url(#{timeline.FAILED_PATTERN})'
    assert root.find(f'{SVG}defs/{SVG}pattern').get('id') == timeline.FAILED_PATTERN
    assert len(set(fills.values())) == 4
    legend = [each for each in root.iter(SVG + 'text') if each.get('y') == '16']
    # The legend fits the picture.
    assert max(float(each.get('x')) for each in legend) + 120 < timeline.WIDTH


def test_the_layout_holds_plain_text_and_leaves_escaping_to_the_template():
    markup = '<script>alert("x")</script> & more'
    picture = _layout([_run(0, 60, name=markup, action='<b>BACKUP</b>')], now=120)

    assert picture.bars[0].tooltip.startswith(markup + ': <b>BACKUP</b>,')


def test_markup_in_run_names_and_actions_is_text():
    markup = '<script>alert("x")</script> & more'
    svg = _markup([_run(0, 60, name=markup, action='<b>BACKUP</b>')], now=120)

    assert '<script>' not in svg
    assert '<b>' not in svg
    bar_title = _bars(ET.fromstring(svg))[0].find(SVG + 'title').text
    assert bar_title.startswith(markup + ': <b>BACKUP</b>,')


def test_angular_expressions_in_run_names_and_actions_are_not_left_for_angular():
    # Horizon's pages run AngularJS over the body with {$ $} as its interpolation symbols;
    # Horizon's escaping, which the template's autoescaping uses, defuses them.
    name = "{$constructor.constructor('alert(1)')()$}"
    svg = _markup([_run(0, 60, name=name, action='{$7*7$}')], now=120)

    assert '{$' not in svg
    assert '$}' not in svg
    bar_title = _bars(ET.fromstring(svg))[0].find(SVG + 'title').text
    assert bar_title.startswith("{%constructor.constructor('alert(1)')()%}: {%7*7%},")


def test_characters_xml_cannot_hold_do_not_break_the_picture():
    root = _draw([_run(0, 60, name='bell\x07 and nul\x00')])

    assert 'bell\ufffd and nul\ufffd' in _bars(root)[0].find(SVG + 'title').text


def test_overlapping_runs_get_their_own_lanes_and_later_ones_reuse_them():
    bars = _layout([_run(0, 1000), _run(10, 900), _run(1500, 2000)], now=3600).bars

    rows = [bar.y for bar in bars]
    assert rows[0] != rows[1]
    assert len(set(rows)) == 2


def test_many_runs_keep_the_picture_a_bounded_height():
    # 200 runs all at once: 200 lanes, thinner.
    root = _draw([_run(i, 3000 + i, name=f'run-{i}') for i in range(200)])

    assert len(_bars(root)) == 200
    height = float(root.get('viewBox').split()[3])
    assert height < timeline.MAX_PLOT_HEIGHT + 200 * timeline.MIN_LANE_PITCH + 100


def test_the_axis_is_labelled_in_the_given_time_zone():
    plus_two = datetime.timezone(datetime.timedelta(hours=2), 'UTC+02:00')
    root = _draw([_run(0, 3600)], now=3600, zone=plus_two)
    texts = _texts(root)

    # Round times of the wall clock in that zone: 05:00 to 06:00 every 10 minutes.
    assert texts[4:11] == ['05:00', '05:10', '05:20', '05:30', '05:40', '05:50', '06:00']
    assert texts[-1] == ('From 2026-11-22 05:00:00 UTC+02:00 to '
                         '2026-11-22 06:00:00 UTC+02:00')


def test_tick_labels_at_the_edges_stay_inside_the_picture():
    ticks = _layout([_run(0, 3600)], now=3600).axis.ticks

    anchors = [(tick.label, tick.anchor) for tick in ticks]
    assert anchors[0] == ('03:00', 'start')
    assert anchors[-1] == ('04:00', 'end')
    assert {anchor for _label, anchor in anchors[1:-1]} == {'middle'}
    drawn = [(text.text, text.get('text-anchor'))
             for text in _draw([_run(0, 3600)], now=3600).iter(SVG + 'text')
             if text.text in {label for label, _anchor in anchors}]
    assert drawn == anchors


def test_runs_started_at_one_instant_still_get_an_axis():
    picture = _layout([_run(0, 0), _run(0, 0, name='twin')], now=0)

    assert len(picture.bars) == 2
    assert all(bar.width == timeline.MIN_BAR_WIDTH for bar in picture.bars)
    assert len(picture.axis.ticks) >= 2


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_numbers_are_drawn_as_svg_reads_them_in_any_language():
    runs = [_run(0, 600), _run(900, 1200), _run(1800, 3600)]
    with translation.override('de'):
        svg = _markup(runs)

    root = ET.fromstring(svg)
    for bar, drawn in zip(_layout(runs).bars, _bars(root)):
        assert drawn.get('x') == str(bar.x)
        assert drawn.get('width') == str(bar.width)
    assert ',' not in root.get('viewBox')


def test_since_a_moment_only_the_runs_still_going_then_are_drawn_from_then_on():
    weeks_ago, today = _run(0, 60), _run(3000, 3300)
    still_going = _run(100, None, status='IN_PROGRESS')

    picture = timeline.layout([weeks_ago, today, still_going], now=_at(3600), zone=UTC,
                              words=WORDS, since=_at(2000))

    assert timeline.drawn([weeks_ago, today, still_going], _at(3600), _at(2000)) == [
        today, still_going]
    assert len(picture.bars) == 2
    # The axis starts at the moment, and the long run is drawn from there, not before.
    assert picture.axis.span.startswith('From 2026-11-22 03:33:20')
    assert min(bar.x for bar in picture.bars) == timeline.MARGIN
