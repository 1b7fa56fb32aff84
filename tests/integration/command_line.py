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

"""The `openstack` command line as an operator runs it: a process of its own, logged in
through the OS_* variables, against the real local cloud."""

import json
import os
import subprocess

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud.services import identity


def openstack(cloud, *argv, username=credentials.DEMO_USER,
              password=credentials.DEMO_PASSWORD, project=credentials.DEMO_PROJECT):
    env = dict(os.environ, **identity.cli_environment(cloud.layout, username, password,
                                                      project))
    done = subprocess.run([layout_mod.venv_bin('openstack'), *argv], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    # OpenStackClient says so when a plugin's command cannot be loaded, before any command's
    # own output: a broken pair of clients in the venv, which every operator would see.
    assert not [line for line in done.stderr.splitlines()
                if line.startswith('Could not load')], done.stderr
    return done


def json_of(done):
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
