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

"""Where a local cloud keeps its data and which ports it listens on."""

import dataclasses
import os
import pathlib
import shutil
import sys

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent

# Offsets from DEVCLOUD_PORT_BASE, so two clouds can run side by side.
PORT_OFFSETS = {
    'keystone': 0,
    'heat_api': 4,
    'swift_proxy': 8,
    'swift_object': 10,
    'swift_container': 11,
    'swift_account': 12,
    'horizon': 20,
    'rabbitmq': 30,
    'rabbitmq_dist': 31,
    'epmd': 32,
    'postgres': 40,
    'memcached': 50,
    'redis': 60,
    'zaqar': 62,
    'mistral': 64,
}
DEFAULT_PORT_BASE = 20000


@dataclasses.dataclass(frozen=True)
class Layout:
    data_dir: pathlib.Path
    port_base: int

    @classmethod
    def from_environment(cls, default_dir=None, default_port_base=DEFAULT_PORT_BASE):
        data_dir = (os.environ.get('DEVCLOUD_DIR') or default_dir
                    or REPO_ROOT / 'build' / 'devcloud')
        port_base = int(os.environ.get('DEVCLOUD_PORT_BASE') or default_port_base)
        return cls(pathlib.Path(data_dir).resolve(), port_base)

    def port(self, name):
        return self.port_base + PORT_OFFSETS[name]

    def url(self, name, path=''):
        return f'http://127.0.0.1:{self.port(name)}{path}'

    def path(self, *parts):
        return self.data_dir.joinpath(*parts)

    @property
    def keystone_url(self):
        return self.url('keystone', '/v3')

    @property
    def dashboard_url(self):
        return self.url('horizon', '/')


def venv_bin(program):
    """A program installed in the virtualenv this cloud runs from."""
    candidate = pathlib.Path(sys.executable).parent / program
    if candidate.exists():
        return str(candidate)
    found = shutil.which(program)
    if not found:
        raise FileNotFoundError(f'{program} is not installed; run "make install" first')
    return found
