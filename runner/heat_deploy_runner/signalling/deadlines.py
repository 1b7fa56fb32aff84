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

"""When a run's time is up: the moment its signal target expires.

A run's signal target expires with its timeout (the TempURL's ``temp_url_expires``, the
Zaqar signed URL's ``URL-Expires``), so that moment is the run's deadline (see expiry for
what happens past it).
"""

from datetime import datetime
from urllib import parse

from heat_deploy_runner.configs import derived
from heat_deploy_runner.signalling import tempurl
from heat_deploy_runner.signalling import zaqar
from heat_deploy_runner.times import parse_time

_TEMP_URL_EXPIRES = 'temp_url_expires'


def _temp_url_expiry(signal_id) -> datetime | None:
    if not isinstance(signal_id, str):
        return None
    query = parse.parse_qs(parse.urlparse(signal_id).query)
    expires = query.get(_TEMP_URL_EXPIRES)
    # Swift takes Unix seconds or ISO 8601 here.
    return parse_time(expires[0]) if expires else None


def deadline(config) -> datetime | None:
    """When the signal target of the run of this derived config expires (UTC).

    None when the config has no expiring signal target: NO_SIGNAL, or a
    stack's deployment signalling through Heat, CFN or Heat's own Zaqar.
    """
    values = derived.derived_input_values(config)
    return (_temp_url_expiry(values.get(tempurl.SIGNAL_ID)) or
            parse_time(values.get(zaqar.EXPIRES)))
