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

"""One way the plugin shows a moment: how long ago, with the exact UTC time on hover, and the
seconds Horizon's tables sort by. Heat writes its times as ISO 8601 in UTC."""

import datetime

from django.utils.html import format_html
from django.utils.timesince import timesince
from django.utils import timezone
from django.utils.translation import gettext
from horizon.utils import filters

from heat_deploy_runner.running import runs

# Where there is no moment yet (a running run's update).
NOT_YET = '\u2014'


def duration(delta):
    """How long ('1h 02m 03s', '2m 05s', '4s'; '' when unknown), in the user's language
    (elapsed.js counts on in the same words)."""
    return runs.format_duration(delta, gettext)


def _moment(value):
    if isinstance(value, datetime.datetime):
        return value
    parsed = filters.parse_isotime(value)
    return parsed if isinstance(parsed, datetime.datetime) else None


def since(value):
    """'3 minutes ago', the exact time on hover; NOT_YET for no (readable) time."""
    moment = _moment(value)
    if moment is None:
        return NOT_YET
    now = timezone.now()
    exact = moment.astimezone(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')
    return format_html('<span data-seconds="{}" title="{}">{}</span>',
                       int((now - moment).total_seconds()), exact,
                       gettext('%(time)s ago') % {'time': timesince(moment, now)})
