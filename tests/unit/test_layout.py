"""The package's layout: each panel (a folder of content/ with a panel.py, as heat-dashboard
lays them out) imports the shared modules (content/, content/runs/ for everything about a
run, api/, the package root) and never another panel; the shared modules import no panel."""

import ast
import pathlib

import heat_deploy_dashboard

PACKAGE = pathlib.Path(heat_deploy_dashboard.__file__).resolve().parent
CONTENT = PACKAGE / 'content'
PANELS = sorted(folder.name for folder in CONTENT.iterdir() if (folder / 'panel.py').exists())


def _imported_modules(path):
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.update(f'{node.module}.{alias.name}' for alias in node.names)
    return found


def _panels_imported(path):
    prefix = 'heat_deploy_dashboard.content.'
    return {module[len(prefix):].split('.')[0] for module in _imported_modules(path)
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


def test_no_stand_in_shapes_for_heats_objects():
    # A page shows Heat's objects in the shape the API seam gives them, not a look-alike.
    found = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob('*.py')
             if 'SimpleNamespace' in path.read_text(encoding='utf-8')]

    assert not found
