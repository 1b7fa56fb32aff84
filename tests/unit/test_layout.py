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

"""The package's layout: each panel (a folder of content/ with a panel.py, as heat-dashboard
lays them out) holds its own tables, views and model, imports the shared modules (content/,
content/runs/ for what more than one panel needs about runs, content/run_action/ for the Run
Action form, api/, the package root) and never another panel; the shared modules import no
panel, and none of them is one panel's alone. They are in layers: content/*.py below
content/runs/ (the run vocabulary, with no view nor form), below content/run_action/."""

import pathlib
import subprocess

from django import urls

import heat_deploy_dashboard
from tests.unit import imports

PACKAGE = pathlib.Path(heat_deploy_dashboard.__file__).resolve().parent
CONTENT = PACKAGE / 'content'
PANELS = sorted(folder.name for folder in CONTENT.iterdir() if (folder / 'panel.py').exists())
IMPORTS = imports.imported(PACKAGE.rglob('*.py'))


def _panels_imported(path):
    prefix = 'heat_deploy_dashboard.content.'
    return {module[len(prefix):].split('.')[0] for module in IMPORTS[path]
            if module.startswith(prefix)} & set(PANELS)


def test_the_panels_are_found():
    assert PANELS == ['components', 'configs', 'deployments', 'schedules', 'servers']


def test_no_panel_imports_another_panel():
    crossing = {f'{path.relative_to(PACKAGE)}: {sorted(others)}'
                for panel in PANELS for path in (CONTENT / panel).rglob('*.py')
                for others in [_panels_imported(path) - {panel}] if others}

    assert not crossing


def test_no_shared_module_imports_a_panel():
    shared = [path for path in PACKAGE.rglob('*.py')
              if not any(part in PANELS for part in path.relative_to(CONTENT if
                         CONTENT in path.parents else PACKAGE).parts[:1])
              and 'enabled' not in path.relative_to(PACKAGE).parts]
    crossing = {f'{path.relative_to(PACKAGE)}: {sorted(_panels_imported(path))}'
                for path in shared if _panels_imported(path)}

    assert len(shared) > 20
    assert not crossing


def _module(path):
    return '.'.join(('heat_deploy_dashboard', *path.relative_to(PACKAGE).with_suffix('').parts))


def _panel_of(path):
    parts = path.relative_to(PACKAGE).parts
    return parts[1] if parts[0] == 'content' and len(parts) > 2 and parts[1] in PANELS else None


def test_no_shared_module_is_one_panels_alone():
    # A module only one panel imports is that panel's: in its folder, a newcomer finds it
    # beside the views that use it.
    importers = {_module(path): set() for path in IMPORTS}
    for path, modules in IMPORTS.items():
        for module in modules:
            # "package.module" or "package.module.name".
            for found in (module, module.rpartition('.')[0]):
                if found in importers and found != _module(path):
                    importers[found].add(path)
                    break
    shared = [path for path in IMPORTS if _panel_of(path) is None and importers[_module(path)]]
    owned = {f'{path.relative_to(PACKAGE)}: {owners.pop()}' for path in shared
             for owners in [{_panel_of(each) for each in importers[_module(path)]}]
             if len(owners) == 1 and None not in owners}

    assert len(shared) > 20
    assert not owned


def test_each_panels_list_is_a_table_of_its_own():
    # As heat-dashboard's Stacks list is stacks/tables.py's: the Deployments panel's table is
    # in content/deployments/, built on the columns every panel shares (content/runs/).
    tables = {panel: urls.resolve(urls.reverse(f'horizon:project:{panel}:index'))
              .func.view_class.table_class.__module__ for panel in PANELS}

    assert {panel: module for panel, module in tables.items()
            if not module.startswith(f'heat_deploy_dashboard.content.{panel}.')} == {}


def test_no_stand_in_shapes_for_heats_objects():
    # A page shows Heat's objects in the shape the API seam gives them, not a look-alike.
    found = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob('*.py')
             if 'SimpleNamespace' in path.read_text(encoding='utf-8')]

    assert not found


def _imported(path, folder):
    return {module for module in IMPORTS[path]
            if module.startswith(f'heat_deploy_dashboard.content.{folder}')}


def test_the_shared_modules_are_in_layers():
    below_runs = {f'{path.relative_to(PACKAGE)}: {sorted(found)}'
                  for path in CONTENT.glob('*.py')
                  for found in [_imported(path, 'runs') | _imported(path, 'run_action')]
                  if found}
    runs_up = {f'{path.relative_to(PACKAGE)}: {sorted(found)}'
               for path in (CONTENT / 'runs').glob('*.py')
               for found in [_imported(path, 'run_action')] if found}

    assert not below_runs
    assert not runs_up


def test_the_run_vocabulary_has_no_view_nor_form():
    assert not [path.name for path in (CONTENT / 'runs').glob('*.py')
                if path.stem in ('views', 'forms', 'urls', 'panel')]


def test_no_python_file_is_over_400_lines():
    # Small modules a newcomer can read: the product's, the tests', the tools'.
    root = PACKAGE.parent
    tracked = subprocess.run(['git', 'ls-files', '*.py'], cwd=root, capture_output=True,
                             text=True, check=True).stdout.split()
    assert tracked
    longer = {name: count for name in tracked
              if (count := len((root / name).read_text().splitlines())) > 400}
    assert longer == {}
