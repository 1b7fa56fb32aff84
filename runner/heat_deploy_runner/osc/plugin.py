"""OpenStackClient's plugin interface: the clients the commands use, from OSC's session."""

from heatclient import client as heat_client
from osc_lib import utils

API_NAME = 'software_runs'
DEFAULT_API_VERSION = '1'
API_VERSION_OPTION = 'os_software_runs_api_version'
API_VERSIONS = ('1',)


class Clients:
    """The clients of one command, on the session OSC authenticated."""

    def __init__(self, session, region_name, interface):
        self.session = session
        self.heat = heat_client.Client('1', session=session, service_type='orchestration',
                                       region_name=region_name, interface=interface)

    @property
    def project_id(self):
        return self.session.get_project_id()


def make_client(instance):
    return Clients(instance.session, instance.region_name, instance.interface)


def build_option_parser(parser):
    parser.add_argument(
        '--os-software-runs-api-version', metavar='<software-runs-api-version>',
        default=utils.env('OS_SOFTWARE_RUNS_API_VERSION', default=DEFAULT_API_VERSION),
        help='The version of the software runs commands (Env: OS_SOFTWARE_RUNS_API_VERSION)')
    return parser
