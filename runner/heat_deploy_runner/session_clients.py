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

"""The clients the runner's calls are made on, from one keystoneauth session: a Mistral
action's (mistral.clients) or the command line's (osc.plugin). The dashboard builds its own,
per request, at its API seam.

A service missing from the session's catalog gets no client: a transport that needs it then
says it is not available (transports.transport_for), as on the form.
"""

import dataclasses
import functools

from heatclient import client as heat_client
from keystoneauth1 import exceptions as ks_exc
from swiftclient import client as swift_client
from zaqarclient.queues.v2 import client as zaqar_client

from heat_deploy_runner.signalling import transports

TIMEOUT_SECONDS = 30


@dataclasses.dataclass
class Clients:
    heat: object
    find_transport: object
    swift: object = None  # without object-store in the catalog
    zaqar: object = None  # without messaging in the catalog
    session: object = None  # the keystoneauth session they share, for other services' calls
    where: dict = dataclasses.field(default_factory=dict)  # on_session's interface and region

    @property
    def project_id(self):
        """The project the session is scoped to (a trust's, for a follower); None for clients
        given no session."""
        return self.session.get_project_id() if self.session is not None else None

    def for_another_thread(self) -> 'Clients':
        """Clients of their own on the same session (and token), for a thread working beside
        the one these serve: a swiftclient Connection must not be shared between threads.
        Clients given no session (an in-memory cloud's) are shared as they are."""
        return on_session(self.session, **self.where) if self.session is not None else self


def endpoint(session, service_type, interface='public', region_name=None):
    """The service's URL, or None when the catalog has no such service."""
    try:
        return session.get_endpoint(service_type=service_type, interface=interface,
                                    region_name=region_name)
    except ks_exc.EndpointNotFound:
        return None


def on_session(session, interface='public', region_name=None) -> Clients:
    where = {'interface': interface, 'region_name': region_name}
    heat = heat_client.Client('1', session=session, service_type='orchestration', **where)
    extra = {}
    if endpoint(session, 'object-store', **where):
        extra['swift'] = swift_client.Connection(
            session=session, retries=1, timeout=TIMEOUT_SECONDS,
            os_options={'endpoint_type': interface, 'region_name': region_name})
    messaging = endpoint(session, 'messaging', **where)
    if messaging:
        # Given the session, not its token: each call asks it for a token, renewed as the
        # session renews it (a --wait, an action, for as long as they follow).
        extra['zaqar'] = zaqar_client.Client(messaging, version=2, session=session, conf={
            'auth_opts': {'backend': 'keystone', 'options': {
                'os_project_id': session.get_project_id()}}})
    return Clients(heat, functools.partial(transports.transport_for, **extra),
                   extra.get('swift'), extra.get('zaqar'), session, where)
