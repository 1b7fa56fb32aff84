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
