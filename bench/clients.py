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

"""The demo user's clients on the bench cloud, built like the dashboard builds its own.

The "raw" baseline must pay what the dashboard pays per call and no more: a heatclient with a
token and the orchestration endpoint (heat_deploy_dashboard.api.heat.heatclient), not one that
re-authenticates through a keystoneauth plugin.
"""

from heatclient import client as heat_client
from swiftclient import client as swift_client

from devcloud.services import identity


def user_session(layout):
    return identity.user_session(layout)


class _RenewingHeat:
    """A heatclient of the session's token, made again when the session has a new one: the
    token lasts an hour and a whole bench longer (keystoneauth renews it two minutes before
    it ends; asking costs nothing until then)."""

    def __init__(self, session):
        self._session = session
        self._token = None
        self._client = None

    def __getattr__(self, name):
        token = self._session.get_token()
        if token != self._token:
            self._client = heat_client.Client(
                '1', endpoint=self._session.get_endpoint(service_type='orchestration',
                                                         interface='public'),
                token=token, timeout=300)
            self._token = token
        return getattr(self._client, name)


def raw_heat(session):
    return _RenewingHeat(session)


def swift(session):
    return swift_client.Connection(session=session, retries=1, timeout=60)
