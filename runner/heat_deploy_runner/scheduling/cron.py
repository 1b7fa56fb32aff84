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

"""When a schedule runs: a cron pattern as Mistral reads it (five fields, UTC, croniter's
rules), or once at a time. Needs croniter (the `cli` extra; the dashboard has it)."""

import datetime

from croniter import croniter

# Mistral wants a first time at least a minute ahead.
MIN_LEAD = datetime.timedelta(minutes=2)
# How a time to run once is written, in UTC (as Mistral takes a first time).
ONCE_AT_FORMAT = '%Y-%m-%d %H:%M'


def valid_pattern(pattern):
    """Whether Mistral takes this cron pattern: five fields, as croniter reads them."""
    return len(pattern.split()) == 5 and croniter.is_valid(pattern)


def next_times(pattern, count=5, now=None):
    """The next ``count`` times (aware, UTC) the pattern fires."""
    times = croniter(pattern, now or datetime.datetime.now(datetime.timezone.utc))
    return [times.get_next(datetime.datetime) for _each in range(count)]


def once_at(text):
    """The time (aware, UTC) ``text`` names in ONCE_AT_FORMAT; ValueError when it names none."""
    return datetime.datetime.strptime(text, ONCE_AT_FORMAT).replace(
        tzinfo=datetime.timezone.utc)


def soon_enough(moment, now=None):
    """Whether Mistral may be given ``moment`` as a first time."""
    return moment >= (now or datetime.datetime.now(datetime.timezone.utc)) + MIN_LEAD
