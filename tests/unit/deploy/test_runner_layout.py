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

"""The runner a newcomer can walk: a handful of modules at its top, subpackages in layers
(none imports one above it), and one way to import each name."""

import ast
import collections
import pathlib

import heat_deploy_runner

RUNNER = pathlib.Path(heat_deploy_runner.__file__).resolve().parent
REPOSITORY = RUNNER.parent.parent
# Each may import only those before it (and the top-level modules); mistral and osc use all.
LAYERS = ('configs', 'signalling', 'running', 'components', 'workflows', 'pruning',
          'scheduling', 'following', 'outputs', 'mistral', 'osc')
TOP_MODULES = {'__init__', 'cli', 'masking', 'messages', 'session_clients', 'times'}


def _imports(path):
    """The heat_deploy_runner modules (dotted) that ``path`` imports from."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.ImportFrom) and (node.module or '').startswith(
                'heat_deploy_runner'):
            found.append((node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names
                      if alias.name.startswith('heat_deploy_runner')]
    return found


def _subpackage(dotted):
    """The subpackage a dotted module (or a name imported from the package) belongs to, or
    None for the package's top-level modules."""
    parts = dotted.split('.')
    return parts[1] if len(parts) > 1 and (RUNNER / parts[1]).is_dir() else None


def test_the_top_level_holds_a_handful_of_modules():
    assert {path.stem for path in RUNNER.glob('*.py')} == TOP_MODULES
    assert sorted(path.name for path in RUNNER.iterdir()
                  if path.is_dir() and (path / '__init__.py').exists()) == sorted(LAYERS)


def test_each_subpackage_imports_only_those_below_it():
    above = []
    for path in RUNNER.rglob('*.py'):
        own = _subpackage('heat_deploy_runner.' + '.'.join(path.relative_to(RUNNER).parts))
        if own is None:
            continue
        for module, names in _imports(path):
            targets = [module] if module != 'heat_deploy_runner' else [
                f'{module}.{name}' for name in names]
            for target in targets:
                other = _subpackage(target)
                if other and LAYERS.index(other) > LAYERS.index(own):
                    above.append(f'{path.relative_to(RUNNER)} imports {target}')
    assert above == []


def _python_files():
    for folder in ('heat_deploy_dashboard', 'runner', 'tests', 'bench', 'soak', 'devcloud',
                   'tools'):
        yield from (REPOSITORY / folder).rglob('*.py')


def test_a_name_the_package_exports_is_imported_from_the_package_alone():
    exported = set(heat_deploy_runner.__all__)
    two_ways = []
    for path in _python_files():
        inside = RUNNER in path.parents
        for module, names in _imports(path):
            for name in set(names) & exported:
                if (module == 'heat_deploy_runner') == inside:
                    two_ways.append(f'{path.relative_to(REPOSITORY)}: {module} {name}')
    assert two_ways == []


def test_modules_share_a_name_only_with_the_command_of_the_same_name():
    # osc/schedules.py is `openstack software schedule ...`, over scheduling/schedules.py.
    homes = collections.defaultdict(list)
    for path in RUNNER.rglob('*.py'):
        if path.stem != '__init__':
            homes[path.stem].append(path.parent.name)
    shared = {stem: sorted(where) for stem, where in homes.items() if len(where) > 1}
    assert all(len(where) == 2 and 'osc' in where for where in shared.values()), shared
