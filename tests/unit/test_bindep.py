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

"""bindep.txt is what `make install` installs with apt: bindep, as OpenStack's jobs run it,
lists the same packages as the install script reads from it."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _lines(command):
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True,
                          timeout=60).stdout.split()


def test_make_install_installs_what_bindep_lists():
    bindep = pathlib.Path(sys.executable).with_name('bindep')
    listed = _lines([bindep, '--file', 'bindep.txt', '--list_all', 'newline'])
    installed = _lines(['sh', 'devcloud/install-system-packages.sh', '--list'])

    assert installed == listed
    assert {'postgresql', 'rabbitmq-server', 'chromium-driver'} <= set(installed)
