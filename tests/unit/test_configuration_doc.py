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

"""The configuration reference (doc/source/configuration/index.rst) names every setting the
plugin reads from Horizon's settings and every environment variable the plugin, the runner
and the notifier read, and no setting of the plugin's own that nothing reads: it cannot drift
from the code as a new setting is added or an old one dropped."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
REFERENCE = ROOT / 'doc' / 'source' / 'configuration' / 'index.rst'
_SETTING = re.compile(r"getattr\(settings,\s*'([A-Z][A-Z0-9_]+)'|settings\.([A-Z][A-Z0-9_]+)")
_ENVIRONMENT = re.compile(r"os\.environ(?:\.get\(|\[)'([A-Z][A-Z0-9_]+)'")


def _read(pattern, *folders):
    return {name for folder in folders for path in (ROOT / folder).rglob('*.py')
            for found in pattern.findall(path.read_text()) for name in (
                found if isinstance(found, tuple) else (found,)) if name}


def _named():
    return set(re.findall(r'``([A-Z][A-Z0-9_]+)``', REFERENCE.read_text()))


def test_every_setting_and_variable_read_is_in_the_reference():
    read = (_read(_SETTING, 'heat_deploy_dashboard')
            | _read(_ENVIRONMENT, 'heat_deploy_dashboard', 'runner/heat_deploy_runner',
                    'notify/heat_deploy_notify'))

    assert read, 'the patterns found no setting read: they no longer match the code'
    assert sorted(read - _named()) == []


def test_every_setting_of_the_plugins_own_in_the_reference_is_read():
    read = _read(_SETTING, 'heat_deploy_dashboard') | _read(
        _ENVIRONMENT, 'heat_deploy_dashboard', 'runner/heat_deploy_runner',
        'notify/heat_deploy_notify')
    own = {name for name in _named() if name.startswith('HEAT_DEPLOY_')}

    assert sorted(own - read) == []
