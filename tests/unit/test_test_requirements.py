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

"""test-requirements.txt holds what the unit tests import, so that `pytest tests/unit` runs
after the README's install by hand, not only after `make unit` (whose venv also holds the
local cloud's services)."""

import importlib.metadata
import pathlib
import re
import sys

from packaging import requirements

from tests.unit import imports

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The repository's own code, on the path of a checkout.
OWN = {'tests', 'heat_deploy_dashboard', 'heat_deploy_runner', 'heat_deploy_notify',
       'devcloud', 'bench', 'soak'}
# The README's install: the test requirements and the three distributions, without extras.
PROJECTS = ('heat-deploy-dashboard', 'heat-deploy-runner', 'heat-deploy-notify')


def _imported_top_levels():
    found = imports.imported((ROOT / 'tests' / 'unit').rglob('*.py'))
    names = {module.split('.')[0] for modules in found.values() for module in modules}
    return names - OWN - set(sys.stdlib_module_names)


def _canonical(name):
    return re.sub(r'[-_.]+', '-', name).lower()


def _installed_by(roots):
    """The distributions pip installs for ``roots``: each with what it requires, no extras."""
    found, todo = set(), [_canonical(root) for root in roots]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        for line in importlib.metadata.requires(name) or ():
            requirement = requirements.Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({'extra': ''}):
                todo.append(_canonical(requirement.name))
    return found


def test_every_distribution_the_unit_tests_import_is_installed_by_the_readmes_install():
    listed = [line.split('#')[0].strip()
              for line in (ROOT / 'test-requirements.txt').read_text().splitlines()]
    installed = _installed_by([line for line in listed if line] + list(PROJECTS))
    by_module = importlib.metadata.packages_distributions()
    missing = {module: by_module.get(module) for module in _imported_top_levels()
               if not {_canonical(d) for d in by_module.get(module, ())} & installed}
    assert not missing, f'imported by tests/unit, not in test-requirements.txt: {missing}'
