import datetime
import xml.etree.ElementTree as ET

from heat_deploy_dashboard.deploy import timeline

UTC = datetime.timezone.utc
SVG = '{http://www.w3.org/2000/svg}'
T0 = datetime.datetime(2026, 11, 22, 3, 0, 0, tzinfo=UTC)
WORDS = timeline.Words(
    title='Runs over time', empty='No runs yet.',
    statuses={'COMPLETE': 'Complete', 'FAILED': 'Failed', 'IN_PROGRESS': 'In Progress'},
    bar='%(name)s: %(action)s, %(status)s. Started %(start)s, took %(duration)s.',
    span='From %(start)s to %(end)s')
PLOT_WIDTH = timeline.WIDTH - 2 * timeline.MARGIN


def _at(seconds):
    return T0 + datetime.timedelta(seconds=seconds)


def _run(start, end, name='mysql-BACKUP', action='BACKUP', status='COMPLETE'):
    return timeline.Run(name=name, action=action, status=status, start=_at(start),
                        end=None if end is None else _at(end))


def _draw(runs, now=3600, zone=UTC):
    return ET.fromstring(timeline.svg(runs, now=_at(now), zone=zone, words=WORDS))


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
    bars = _bars(_draw([_run(0, 600), _run(900, 1200), _run(1800, 3600)], now=3600))

    widths = [float(bar.get('width')) for bar in bars]
    assert widths == [PLOT_WIDTH * 600 / 3600, PLOT_WIDTH * 300 / 3600,
                      PLOT_WIDTH * 1800 / 3600]
    assert float(bars[1].get('x')) == timeline.MARGIN + PLOT_WIDTH * 900 / 3600


def test_a_very_short_run_still_shows():
    bars = _bars(_draw([_run(0, 1), _run(86400, 86400 * 2)], now=86400 * 2))

    assert float(bars[0].get('width')) == timeline.MIN_BAR_WIDTH


def test_a_running_run_extends_to_now():
    bars = _bars(_draw([_run(0, 60), _run(1800, None, status='IN_PROGRESS')], now=3600))

    running = bars[1]
    assert float(running.get('x')) + float(running.get('width')) == timeline.MARGIN + PLOT_WIDTH
    assert 'took 30m 00s' in running.find(SVG + 'title').text
    assert 'hdd-timeline-in-progress' in running.get('class')


def test_statuses_are_named_in_a_legend_with_their_counts_not_by_color_alone():
    root = _draw([_run(0, 60), _run(120, 180), _run(300, 360, status='FAILED'),
                  _run(400, None, status='IN_PROGRESS')])

    texts = _texts(root)
    assert 'Complete (2)' in texts
    assert 'Failed (1)' in texts
    assert 'In Progress (1)' in texts
    fills = {bar.get('class').split()[-1]: bar.get('fill') for bar in _bars(root)}
    # A texture for failures, besides the red.
    assert fills['hdd-timeline-failed'].startswith('url(')
    assert len(set(fills.values())) == 3


def test_markup_in_run_names_and_actions_is_text():
    markup = '<script>alert("x")</script> & more'
    svg = timeline.svg([_run(0, 60, name=markup, action='<b>BACKUP</b>')], now=_at(120),
                       zone=UTC, words=WORDS)

    assert '<script>' not in svg
    assert '<b>' not in svg
    bar_title = _bars(ET.fromstring(svg))[0].find(SVG + 'title').text
    assert bar_title.startswith(markup + ': <b>BACKUP</b>,')


def test_characters_xml_cannot_hold_do_not_break_the_picture():
    root = _draw([_run(0, 60, name='bell\x07 and nul\x00')])

    assert 'bell\ufffd and nul\ufffd' in _bars(root)[0].find(SVG + 'title').text


def test_overlapping_runs_get_their_own_lanes_and_later_ones_reuse_them():
    bars = _bars(_draw([_run(0, 1000), _run(10, 900), _run(1500, 2000)], now=3600))

    rows = [float(bar.get('y')) for bar in bars]
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
    texts = _texts(_draw([_run(0, 3600)], now=3600, zone=plus_two))

    # Round times of the wall clock in that zone: 05:00 to 06:00 every 10 minutes.
    assert texts[3:10] == ['05:00', '05:10', '05:20', '05:30', '05:40', '05:50', '06:00']
    assert texts[-1] == ('From 2026-11-22 05:00:00 UTC+02:00 to '
                         '2026-11-22 06:00:00 UTC+02:00')


def test_tick_labels_at_the_edges_stay_inside_the_picture():
    root = _draw([_run(0, 3600)], now=3600)
    ticks = [text for text in root.iter(SVG + 'text') if text.text and text.text[:2] in
             ('03', '04')]

    anchors = [(text.text, text.get('text-anchor')) for text in ticks]
    assert anchors[0] == ('03:00', 'start')
    assert anchors[-1] == ('04:00', 'end')
    assert {anchor for _label, anchor in anchors[1:-1]} == {'middle'}


def test_runs_started_at_one_instant_still_get_an_axis():
    root = _draw([_run(0, 0), _run(0, 0, name='twin')], now=0)

    assert len(_bars(root)) == 2
    assert all(float(bar.get('width')) == timeline.MIN_BAR_WIDTH for bar in _bars(root))
