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

"""OpenStackClient's plugin interface: the clients the commands use, from OSC's session."""

import functools
import logging

from osc_lib import utils

from heat_deploy_runner.components import listing
from heat_deploy_runner.running import servers
from heat_deploy_runner import session_clients

API_NAME = 'software_runs'
DEFAULT_API_VERSION = '1'
API_VERSION_OPTION = 'os_software_runs_api_version'
API_VERSIONS = ('1',)

COMPUTE_PAGE = 1000


class SaidByTheCommand(logging.Filter):
    """The runner logs for a service's operators (Horizon's, Mistral's logs); on the command
    line the command's own sentence says what went wrong, and a traceback would only hide
    it: a handler shows the runner's records only when it shows debug ones (--debug)."""

    def __init__(self, handler):
        super().__init__()
        self.handler = handler

    def filter(self, record):
        return (not record.name.startswith('heat_deploy_runner')
                or self.handler.level <= logging.DEBUG)


def quiet_runner_log(handlers=None):
    """SaidByTheCommand on each of the handlers, by default those OpenStackClient gave the
    root logger (whose own level it sets to DEBUG: the handlers decide)."""
    for handler in logging.getLogger().handlers if handlers is None else handlers:
        if not any(isinstance(each, SaidByTheCommand) for each in handler.filters):
            handler.addFilter(SaidByTheCommand(handler))


class Clients:
    """The clients of one command, on the session OSC authenticated; each made when first
    used, so that `component list` needs no Object Storage and `run show` no Mistral."""

    def __init__(self, session, region_name, interface):
        self.session = session
        self.where = {'interface': interface, 'region_name': region_name}

    @functools.cached_property
    def _runner(self):
        return session_clients.on_session(self.session, **self.where)

    @property
    def heat(self):
        return self._runner.heat

    @property
    def swift(self):
        return self._runner.swift

    @property
    def zaqar(self):
        """python-zaqarclient's v2 client, or None when the catalog has no messaging
        service."""
        return self._runner.zaqar

    @property
    def find_transport(self):
        return self._runner.find_transport

    @functools.cached_property
    def mistral(self):
        """python-mistralclient's v2 client, or None when the catalog has no workflow
        service."""
        url = session_clients.endpoint(self.session, 'workflowv2', **self.where)
        if not url:
            return None
        from mistralclient.api import client as mistral_client
        return mistral_client.client(mistral_url=url, session=self.session)

    @property
    def project_id(self):
        return self.session.get_project_id()

    @property
    def username(self):
        return self.session.auth.get_access(self.session).username

    @functools.cached_property
    def servers(self) -> servers.ProjectServers:
        """The project's servers, as the dashboard's forms find them (runner.running.servers): an
        admin's stack listing holds every project's, whose servers are not the project's."""
        compute = session_clients.endpoint(self.session, 'compute', **self.where)
        return servers.of_project(
            lambda: listing.stacks(self.heat, self.project_id),
            lambda stack, resource_type, **kwargs: self.heat.resources.list(
                stack, filters={'type': resource_type}, **kwargs),
            self._compute_servers if compute else None)

    def _compute_servers(self):
        """The project's Compute servers (id, name), page by page: Compute says when there
        is a next page (servers_links), whatever its own largest page."""
        found, marker = [], None
        while True:
            params = {'limit': COMPUTE_PAGE, **({'marker': marker} if marker else {})}
            answer = self.session.get('/servers', params=params, endpoint_filter={
                'service_type': 'compute', **self.where}).json()
            page = answer['servers']
            found += [servers.Server(each['id'], each.get('name') or '') for each in page]
            if not page or not any(link.get('rel') == 'next'
                                   for link in answer.get('servers_links') or []):
                return found
            marker = page[-1]['id']


def make_client(instance):
    # Here, not on import: only a command's process, never a service's, quiets the runner.
    quiet_runner_log()
    return Clients(instance.session, instance.region_name, instance.interface)


def build_option_parser(parser):
    parser.add_argument(
        '--os-software-runs-api-version', metavar='<software-runs-api-version>',
        default=utils.env('OS_SOFTWARE_RUNS_API_VERSION', default=DEFAULT_API_VERSION),
        help='The version of the software runs commands (Env: OS_SOFTWARE_RUNS_API_VERSION)')
    return parser
