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

"""The Python the plugin and the runner need is the one the pinned Horizon needs, and the
README says so; heat-deploy-notify runs on server images, whose Python is theirs."""

import configparser
import importlib.metadata
import pathlib
import re
import tomllib

from packaging import requirements
from packaging import version

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The newest releases pip finds for Python 3.9 (December 2026): the next need 3.10 or 3.11.
NEWEST_ON_PYTHON_39 = {'requests': '2.32.5', 'urllib3': '2.6.3', 'keystoneauth1': '5.11.1'}


def test_the_plugin_and_the_runner_need_the_python_horizon_needs():
    horizon = importlib.metadata.metadata('horizon')['Requires-Python']
    setup = configparser.ConfigParser()
    setup.read(ROOT / 'setup.cfg')
    runner = tomllib.loads((ROOT / 'runner' / 'pyproject.toml').read_text())

    assert horizon == '>=3.11'
    assert setup['options']['python_requires'] == horizon
    assert runner['project']['requires-python'] == horizon
    for doc in (ROOT / 'README.md', ROOT / 'doc' / 'source' / 'contributor' / 'local-cloud.rst'):
        assert re.findall(r'Python (3\.\d+)\+', doc.read_text()) == ['3.11'], doc


def test_the_notifier_keeps_the_python_of_images():
    notify = tomllib.loads((ROOT / 'notify' / 'pyproject.toml').read_text())
    assert notify['project']['requires-python'] == '>=3.9'


def test_the_notifiers_floors_are_releases_the_python_of_images_installs():
    """tests/packaging/test_notify_floors.py installs exactly these floors on Python 3.9 and
    runs both programs with them; constraints.txt pins newer releases for the project's own
    Python."""
    project = tomllib.loads((ROOT / 'notify' / 'pyproject.toml').read_text())['project']
    floors = {}
    for each in [*project['dependencies'], *project['optional-dependencies']['zaqar-signal']]:
        requirement = requirements.Requirement(each)
        [bound] = requirement.specifier
        assert bound.operator == '>=', each
        floors[requirement.name] = version.Version(bound.version)
    assert set(floors) == set(NEWEST_ON_PYTHON_39)
    for name, floor in floors.items():
        assert floor <= version.Version(NEWEST_ON_PYTHON_39[name]), name
