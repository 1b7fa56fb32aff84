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

"""Times as the runner writes and reads them, and how often a page looks: one home each.

UTC_TIME is how every record of who did what, and when, writes a moment (a cancel's reason, a
schedule's history, an operation's start, an outcome, an archive record): UTC, to the second,
as Heat writes its own times.
"""

from datetime import datetime
from datetime import timezone

UTC_TIME = '%Y-%m-%dT%H:%M:%SZ'
# How often a page polls the runs it shows (status_poll.js's POLL_MS); what follows a run
# without a page (Mistral's wait, the command line's --wait) looks as often at first, so that
# a result shows as soon whoever watches.
PAGE_POLL_SECONDS = 1.5


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive one is UTC already, as Heat and Zaqar write theirs."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def utc_text(moment: datetime) -> str:
    """``moment`` as UTC_TIME writes it; a naive one is UTC."""
    return utc(moment).strftime(UTC_TIME)


def parse_time(value) -> datetime | None:
    """An ISO 8601 time ("...Z", with an offset or naive UTC) or Unix seconds, as UTC; None
    for anything else."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        seconds = value
    else:
        text = str(value).strip()
        try:
            seconds = int(text)
        except ValueError:
            if text[-1:] in ('Z', 'z'):
                text = text[:-1] + '+00:00'
            try:
                return utc(datetime.fromisoformat(text))
            except ValueError:
                return None
    try:
        return datetime.fromtimestamp(seconds, timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
