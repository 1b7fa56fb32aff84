"""One way to show a moment: how long ago, the exact UTC time on hover (content/times.py)."""

import datetime
from unittest import mock

from django.test import SimpleTestCase

from heat_deploy_dashboard.content import times

NOW = datetime.datetime(2026, 11, 23, 9, 0, 0, tzinfo=datetime.timezone.utc)


@mock.patch('django.utils.timezone.now', return_value=NOW)
class SinceTests(SimpleTestCase):

    def test_a_heat_time_reads_as_how_long_ago_with_the_exact_time_on_hover(self, _now):
        self.assertEqual('<span data-seconds="3720" title="2026-11-23 07:58:00 UTC">'
                         '1\xa0hour, 2\xa0minutes ago</span>',
                         times.since('2026-11-23T07:58:00Z'))

    def test_no_time_or_an_unreadable_one_is_a_dash(self, _now):
        for value in (None, '', 'soon', 42):
            self.assertEqual(times.NOT_YET, times.since(value), value)
