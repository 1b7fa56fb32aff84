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

"""The shapes of the ids the panels take from URLs and forms.

Heat names its configs and deployments by lowercase UUIDs, and keeps a deployment's server id
in 36 characters. Anything else cannot name one of them, so it is refused here, as not found,
without asking Heat: Heat answers a NUL in an id with a server error, and the cache refuses
keys with spaces, control characters or over 250 bytes.
"""

import re

# For URL patterns.
HEAT_ID = r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
# Any text up to Heat's 36 characters but a slash, which ends a path segment, and control
# characters, which no server id holds.
SERVER_ID = r'[^/\x00-\x1f\x7f]{1,36}'
# A schedule: its Mistral trigger's and environment's name
# (runner.scheduling.schedules.SCHEDULE_PREFIX).
SCHEDULE_ID = 'hdd-' + HEAT_ID

_HEAT_ID = re.compile(HEAT_ID)


def is_heat_id(value):
    return isinstance(value, str) and _HEAT_ID.fullmatch(value) is not None
