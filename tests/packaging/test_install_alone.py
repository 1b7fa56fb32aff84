"""The wheel, installed alone with its declared dependencies, serves every page of the plugin;
and so it does beside heat-dashboard, the official Heat plugin.

`pip install .` into an existing Horizon must bring everything the plugin imports. This builds
the two wheels of this repository (pip wheel --no-deps): heat-deploy-runner (runner/, which
the plugin requires, and which is on no index) and the plugin's. It installs them into a venv
of its own under build/packaging/ that sees nothing of the project's venv, as an operator
would, both wheels named (pip install -c constraints.txt <runner wheel> <plugin wheel>), runs
pip check, and then, with that venv's python and the repository off sys.path, renders every
page of the plugin under Horizon's test settings with the plugin enabled from the installed
package (render_panels.py), and has a user without roles refused the Deploy form.

Then the same Horizon gets heat-dashboard (pip install -c constraints.txt heat-dashboard, in a
copy of that venv, so that the venv of the wheels alone stays as it was): pip check again, and
every page of the plugin rendered with both plugins enabled, heat-dashboard's enabled files and
its _1699 settings file applied before ours, twice: with its policy files copied where that
file names them (its registration of the "orchestration" scope is kept), and without (ours
takes its place, and still refuses a user without roles). heat-dashboard's Stacks page is
rendered in both, its listing stood in. The two renders run side by side.

test_runner_alone.py installs the runner's wheel alone, as a Mistral host would, with the
helpers here.

What is kept between runs, under build/packaging/ (delete it to start afresh), because it
makes a run much faster (measured on a busy 2-core machine):

- build-env/: setuptools for building the wheels, installed once. pip's build isolation
  downloads setuptools again for every build (pip's HTTP cache keeps nothing where the index
  answers without cache headers, as here): 7 to 12 s a build instead of about 3.
- venv/: the clean venv. A new one downloads about 115 distributions (75 MB) and writes
  300 MB: 65 s to 2 min, the rest of the test 20 to 40 s. So the venv is reused when all that
  decides which distributions pip installs is unchanged: constraints.txt, both wheels'
  Requires-Dist and Requires-Python, the interpreter and pip (every version being pinned by
  constraints.txt, pip would install the same set again), and the venv still holds what the
  last fresh install left. A wheel is then reinstalled alone (--no-deps --force-reinstall,
  about 5 s) whenever its content changed, so the pages are always those of the wheels just
  built. Anything else builds the venv from nothing.
- venv-heat-dashboard/: venv/ copied with hard links (about 3 s, no space), and heat-dashboard
  installed into it (3 to 14 s: 6 downloads, heat-dashboard and 5 XStatic packages): reused,
  and the wheels reinstalled into it, on the same terms as venv/.

Needs PyPI (and pip's configured indexes), nothing else.
"""

import contextlib
import fcntl
import hashlib
import importlib.metadata
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import zipfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
WORK = REPO / 'build' / 'packaging'
SRC = WORK / 'src'
DIST = WORK / 'dist'
BUILD_ENV = WORK / 'build-env'
VENV = WORK / 'venv'
VENV_STAMP = WORK / 'venv.json'
BESIDE = WORK / 'venv-heat-dashboard'
BESIDE_STAMP = WORK / 'venv-heat-dashboard.json'
RENDER_DIR = WORK / 'render'
CONSTRAINTS = REPO / 'constraints.txt'

# The distributions this repository builds, each from its folder (the runner's first: the
# plugin requires it).
RUNNER = 'heat-deploy-runner'
DASHBOARD = 'heat-deploy-dashboard'
# For server images (test_notify_alone.py), never beside the plugin.
NOTIFY = 'heat-deploy-notify'
PROJECTS = {RUNNER: 'runner', DASHBOARD: '.', NOTIFY: 'notify'}
# What a build of the packages reads: the plugin's package and top-level packaging files, and
# runner/ and notify/ (each its package and its own packaging files).
SOURCES = ('heat_deploy_dashboard', 'runner', 'notify', 'setup.cfg', 'pyproject.toml',
           'MANIFEST.in', 'README.md')
IGNORED = shutil.ignore_patterns('__pycache__', '*.pyc', '*.egg-info')

PANELS = {'components', 'deployments', 'servers', 'configs'}
# What heat-dashboard is installed as, its version from constraints.txt.
HEAT_DASHBOARD = 'heat-dashboard'
# How heat-dashboard is set up beside the plugin (panel_settings.py).
HEAT_DASHBOARD_MODES = ('policy-copied', 'policy-not-copied')
# In the project's venv (devcloud, tests) and never a dependency of the plugin.
PROJECT_ONLY = {'openstack-heat', 'keystone', 'swift', 'zaqar', 'pytest', 'pytest-django',
                'selenium', 'gunicorn'}

# The project venv's pip drives the other interpreters (pip --python), so that the clean
# venv holds no pip of its own: only the wheels and what they depend on.
PIP = [sys.executable, '-m', 'pip']


def _run(command, timeout=900, **kwargs):
    done = subprocess.run([str(each) for each in command], capture_output=True, text=True,
                          timeout=timeout, **kwargs)
    if done.returncode:
        # pip warns about every unreachable file:// index location: leave those out.
        stderr = '\n'.join(line for line in done.stderr.splitlines()
                           if 'is ignored: it is neither a file nor a directory' not in line)
        pytest.fail(f'{" ".join(map(str, command))} exited {done.returncode}\n'
                    f'--- stdout\n{done.stdout[-6000:]}\n--- stderr\n{stderr[-6000:]}',
                    pytrace=False)
    return done


def _python(venv):
    return venv / 'bin' / 'python'


def _sha256(*parts):
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else str(part).encode())
        digest.update(b'\0')
    return digest.hexdigest()


def _interpreter():
    return {'python': sys.version, 'base': getattr(sys, '_base_executable', sys.executable),
            'pip': importlib.metadata.version('pip')}


def _load(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _ignored(folder, names):
    """What a copy of the sources leaves out; runner/'s own build/ and dist/ too."""
    ignored = IGNORED(folder, names)
    if pathlib.Path(folder) in (REPO / PROJECTS[RUNNER], REPO / PROJECTS[NOTIFY]):
        ignored |= {'build', 'dist'} & set(names)
    return ignored


def _copy_sources():
    """A fresh copy of what the builds read: setuptools builds in the source tree, and its
    build/lib/ there would keep files the package no longer has."""
    shutil.rmtree(SRC, ignore_errors=True)
    SRC.mkdir(parents=True)
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, SRC / name, ignore=_ignored)
        else:
            shutil.copy2(source, SRC / name)


def _toml(path):
    try:
        import tomllib
    except ImportError:  # Python 3.10
        from pip._vendor import tomli as tomllib
    return tomllib.loads(path.read_text())


def _build_env():
    """A venv with the build backends both pyproject.toml files ask for, made once per
    build-system."""
    requires = sorted({each for folder in PROJECTS.values()
                       for each in _toml(REPO / folder / 'pyproject.toml')['build-system'][
                           'requires']})
    key = _sha256(json.dumps(requires), json.dumps(_interpreter()))
    stamp = BUILD_ENV / 'key'
    if stamp.exists() and stamp.read_text() == key and _python(BUILD_ENV).exists():
        return
    shutil.rmtree(BUILD_ENV, ignore_errors=True)
    _run([sys.executable, '-m', 'venv', '--without-pip', BUILD_ENV])
    _run(PIP + ['--python', _python(BUILD_ENV), 'install', '-q', *requires])
    stamp.write_text(key)


def _build_wheels(*names):
    """The wheels of the named distributions, by name, built from one fresh copy of the
    sources in the one build env."""
    _copy_sources()
    _build_env()
    shutil.rmtree(DIST, ignore_errors=True)
    wheels = {}
    for name in names:
        _run(PIP + ['--python', _python(BUILD_ENV), 'wheel', '-q', '--no-deps',
                    '--no-build-isolation', '-w', DIST, SRC / PROJECTS[name]])
        [wheels[name]] = DIST.glob(name.replace('-', '_') + '-*.whl')
    return wheels


def _wheel_facts(wheel):
    """What in the wheel decides what pip installs with it, and a hash of its content (its
    files, not the zip's timestamps)."""
    with zipfile.ZipFile(wheel) as archive:
        names = sorted(archive.namelist())
        [metadata] = [n for n in names if n.endswith('.dist-info/METADATA')]
        requires = sorted(line for line in archive.read(metadata).decode().splitlines()
                          if line.startswith(('Requires-Dist:', 'Requires-Python:')))
        content = _sha256(*(part for name in names for part in (name, archive.read(name))))
    return requires, content


def _installed(venv):
    """The distributions in a venv, as their dist-info folders name them."""
    site = list((venv / 'lib').glob('python*/site-packages'))
    return sorted(p.name for p in site[0].glob('*.dist-info')) if site else []


def _distributions(names):
    return {name.lower().replace('_', '-').replace('.', '-') for name in names}


def _names(venv):
    """The normalised names of the distributions in a venv."""
    return _distributions(folder[:-len('.dist-info')].rsplit('-', 1)[0]
                          for folder in _installed(venv))


def _pinned():
    return _distributions(line.split('===')[0] for line in CONSTRAINTS.read_text().splitlines()
                          if '===' in line and not line.startswith('#'))


def _reuse_or_make(venv, stamp_path, wheels, make, extra, what, timings):
    """venv as make() leaves it, reused while nothing that decides what pip installs changed
    (see the module's docstring); each of wheels (by name) reinstalled into it when its
    content changed."""
    facts = {name: _wheel_facts(wheel) for name, wheel in sorted(wheels.items())}
    key = _sha256(CONSTRAINTS.read_bytes(),
                  json.dumps({name: requires for name, (requires, _) in facts.items()}),
                  json.dumps(_interpreter()), extra)
    contents = {name: content for name, (_, content) in facts.items()}
    stamp = _load(stamp_path) or {}
    reused = (stamp.get('key') == key and _python(venv).exists()
              and stamp.get('installed') == _installed(venv))
    stamp_path.unlink(missing_ok=True)
    started = time.monotonic()
    if reused:
        changed = [name for name in contents if stamp.get('wheels', {}).get(name) !=
                   contents[name]]
        if changed:
            _run(PIP + ['--python', _python(venv), 'install', '-q', '--no-compile',
                        '--no-deps', '--force-reinstall', '-c', CONSTRAINTS,
                        *(wheels[name] for name in changed)])
        timings[f'{what}: reused, {" and ".join(changed)} reinstalled' if changed
                else f'{what}: reused as it was'] = time.monotonic() - started
    else:
        shutil.rmtree(venv, ignore_errors=True)
        make()
        timings[f'{what}: built and installed'] = time.monotonic() - started
    stamp_path.write_text(json.dumps({'key': key, 'wheels': contents,
                                      'installed': _installed(venv)}))
    return reused


def _fresh_venv(venv, *requirements):
    """A new venv, made from the base interpreter (nothing of the project's venv is visible
    in it), with requirements installed into it under constraints.txt."""
    _run([sys.executable, '-m', 'venv', '--without-pip', venv])
    # --no-compile: the pages compile what they import; compiling all of Horizon's
    # dependencies up front doubles the install's time.
    _run(PIP + ['--python', _python(venv), 'install', '-q', '--no-compile',
                '-c', CONSTRAINTS, *requirements])


def _clean_venv(wheels, timings):
    # Both wheels named, as an operator installs them: the runner's is on no index.
    return _reuse_or_make(VENV, VENV_STAMP, wheels,
                          lambda: _fresh_venv(VENV, wheels[RUNNER], wheels[DASHBOARD]),
                          '', 'venv', timings)


def _venv_beside_heat_dashboard(wheels, timings):
    """The clean venv, as _clean_venv() just left it, with heat-dashboard installed into it the
    way an operator adds it to that Horizon; in a copy, so that venv/ keeps the wheels alone.

    The copy is made of hard links, and stays independent of venv/: neither pip nor Python
    writes into an existing file (pip removes a file before writing it anew, and moves away
    what it uninstalls; Python writes a .pyc to a new file that it renames), so what changes
    in one venv never shows in the other. What still names venv/ in the copy is not used
    here: the scripts in bin/ (their #! lines, activate) and pyvenv.cfg's `command`."""
    def make():
        _run(['cp', '-al', VENV, BESIDE], timeout=120)
        _run(PIP + ['--python', _python(BESIDE), 'install', '-q', '--no-compile',
                    '-c', CONSTRAINTS, HEAT_DASHBOARD])
    return _reuse_or_make(BESIDE, BESIDE_STAMP, wheels, make, HEAT_DASHBOARD,
                          'venv beside heat-dashboard', timings)


def _start_render(venv, mode=''):
    """render_panels.py under venv's python, started; its folder and report."""
    folder = RENDER_DIR / (mode or 'alone')
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    report = folder / 'report.json'
    # -I: no PYTHON* variables, no user site, not even the script's own folder on sys.path;
    # from its folder, outside the source tree.
    process = subprocess.Popen([str(_python(venv)), '-I', str(HERE / 'render_panels.py')],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=_environment(
                                   folder, RENDER_WORK_DIR=str(folder),
                                   RENDER_REPORT=str(report), RENDER_HEAT_DASHBOARD=mode))
    return process, report


def _environment(folder, **variables):
    """All the environment a clean venv's python is given: no PYTHON* variables."""
    return {'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
            'HOME': os.environ.get('HOME', str(folder)), 'LANG': 'C.UTF-8', **variables}


def _finish_render(started):
    process, report = started
    try:
        _stdout, stderr = process.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        process.kill()
        _stdout, stderr = process.communicate()
    return process.returncode, stderr, _load(report)


def _inside(path, folder):
    return pathlib.Path(path).resolve().is_relative_to(folder.resolve())


def _assert_pages(returncode, stderr, report, venv):
    """Every page of the plugin answered 200, all of it from the installed wheels in venv, and
    a user without roles was refused the Deploy form."""
    assert report is not None, (
        f'render_panels.py wrote no report (exit {returncode})\n{stderr[-8000:]}')
    failed = [page for page in report.get('pages', []) if page.get('error')]
    assert failed == [] and returncode == 0 and report['passed'], (
        'pages that did not answer as they should:\n'
        + '\n'.join(f'{page["route"]} {page.get("url")} -> {page.get("status")}: '
                    f'{page["error"]}' for page in failed)
        + f'\n--- render_panels.py (exit {returncode})\n{stderr[-8000:]}')

    # Every panel, with its pages.
    assert PANELS <= set(report['panels'])
    rendered = {page['route'].split(':')[0] for page in report['pages']
                if page.get('status') == 200}
    assert set(report['panels']) <= rendered
    routes = {page['route'] for page in report['pages']}
    for panel in PANELS:
        assert {f'{panel}:index', f'{panel}:detail'} <= routes

    # Policy is checked, against files that exist: the test user may deploy, a user without
    # roles may not (403, or a redirect to the login page), nor post the form.
    installed = report['installed']
    assert installed['policy_check_function'] == 'openstack_auth.policy.check'
    assert installed['policy_files_exist'], installed['policy_files']
    refusal = report['refusal']
    assert refusal['default_user'] == 200, refusal
    assert refusal['roles'] == [], refusal
    assert len(refusal['no_roles']) == 2, refusal
    for status, location in zip(refusal['no_roles'], refusal['no_roles_redirects']):
        assert status == 403 or (status == 302 and '/auth/login/' in location), refusal
    assert refusal['trouble'] == [], refusal

    # All of it from the installed wheels.
    assert _inside(installed['prefix'], venv)
    assert _inside(installed['package'], venv)
    assert len(installed['enabled']) >= len(PANELS) + 1
    for path in installed['enabled'] + installed['panels'] + installed['snippets']:
        assert _inside(path, venv), path
    _assert_isolated(installed['sys_path'], venv)

    # Nothing but the wheels and their dependencies (and heat-dashboard, where it was added).
    names = _distributions(installed['distributions'])
    assert {DASHBOARD, RUNNER} <= names
    assert names & PROJECT_ONLY == set()
    assert 'pip' not in names
    return installed, names


def _assert_isolated(sys_path, venv):
    """Nothing of the repository (but this folder) nor of the project venv on sys_path."""
    for entry in sys_path:
        assert not entry or not _inside(entry, REPO) or _inside(entry, venv) or \
            pathlib.Path(entry).resolve() == HERE, entry
    assert not any(_inside(entry, pathlib.Path(sys.prefix)) for entry in sys_path
                   if entry), 'the project venv is on the clean venv\'s path'


def _report_timings(timings, since=0, name='timings.json'):
    """Write all timings so far to build/packaging/<name>; print those from the since-th on."""
    (WORK / name).write_text(json.dumps(timings, indent=1))
    print('\n'.join(f'{what}: {seconds:.1f} s'
                    for what, seconds in list(timings.items())[since:]))


@contextlib.contextmanager
def _locked():
    """build/packaging/ locked: one run at a time on it (make test, and someone else's). Gives
    the timings of what is done meanwhile."""
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield {}


@contextlib.contextmanager
def alone_in_venv(name, venv, stamp, extra, what):
    """The wheel of the distribution ``name`` built and installed alone, with ``extra``, into
    ``venv`` (reused on the terms above), build/packaging/ locked meanwhile. Gives the
    timings."""
    with _locked() as timings:
        started = time.monotonic()
        wheels = _build_wheels(name)
        timings[f'{name} wheel built'] = time.monotonic() - started
        _reuse_or_make(venv, stamp, wheels, lambda: _fresh_venv(venv, f'{wheels[name]}{extra}'),
                       extra, what, timings)
        yield timings


@pytest.fixture(scope='module')
def wheel_and_venv():
    """Both wheels built and the clean venv ready, build/packaging/ locked meanwhile."""
    with _locked() as timings:
        started = time.monotonic()
        wheels = _build_wheels(RUNNER, DASHBOARD)
        timings['wheels built'] = time.monotonic() - started
        _clean_venv(wheels, timings)
        yield wheels, timings


def test_the_wheel_installs_alone_and_serves_every_panel(wheel_and_venv):
    _wheels, timings = wheel_and_venv

    started = time.monotonic()
    _run(PIP + ['--python', _python(VENV), 'check'])
    timings['pip check'] = time.monotonic() - started

    started = time.monotonic()
    returncode, stderr, report = _finish_render(_start_render(VENV))
    timings['pages rendered'] = time.monotonic() - started
    _report_timings(timings)

    installed, names = _assert_pages(returncode, stderr, report, VENV)
    # Alone: no heat-dashboard, the policy files ours, from the installed wheels.
    assert HEAT_DASHBOARD not in names
    assert installed['heat_dashboard'] is None
    assert installed['snippet_warnings'] == []
    for path in installed['policy_files']:
        assert _inside(path, VENV), path
    assert 'heat_dashboard_page' not in report


def test_the_wheel_serves_every_panel_beside_heat_dashboard(wheel_and_venv):
    wheels, timings = wheel_and_venv
    since = len(timings)

    _venv_beside_heat_dashboard(wheels, timings)
    started = time.monotonic()
    _run(PIP + ['--python', _python(BESIDE), 'check'])
    timings['pip check beside heat-dashboard'] = time.monotonic() - started

    started = time.monotonic()
    renders = {mode: _start_render(BESIDE, mode) for mode in HEAT_DASHBOARD_MODES}
    results = {mode: _finish_render(render) for mode, render in renders.items()}
    timings['pages rendered beside heat-dashboard, both ways side by side'] = \
        time.monotonic() - started
    _report_timings(timings, since)

    # Only heat-dashboard and what it needs were added, each pinned by constraints.txt.
    added = _names(BESIDE) - _names(VENV)
    assert HEAT_DASHBOARD in added
    assert added <= _pinned(), f'not pinned by constraints.txt: {added - _pinned()}'
    assert _names(VENV) <= _names(BESIDE)

    for mode, (returncode, stderr, report) in results.items():
        installed, names = _assert_pages(returncode, stderr, report, BESIDE)
        assert names == _names(BESIDE), mode
        heat_dashboard = installed['heat_dashboard']
        assert heat_dashboard['mode'] == mode
        assert _inside(heat_dashboard['package'], BESIDE)
        # Its enabled files, _16*.py, all of them applied, and its _1699 settings file
        # before ours.
        assert [pathlib.Path(each).name[:3] for each in heat_dashboard['enabled']] == \
            ['_16'] * len(heat_dashboard['enabled']) and len(heat_dashboard['enabled']) >= 5
        assert heat_dashboard['panels']
        for path in heat_dashboard['enabled'] + heat_dashboard['panels']:
            assert _inside(path, BESIDE), path
        assert [pathlib.Path(each).name for each in installed['snippets']] == [
            '_1699_orchestration_settings.py', '_1799_heat_deploy_dashboard_settings.py']

        conf = pathlib.Path(installed['policy_files_path'])
        if mode == 'policy-copied':
            # heat-dashboard's registration is kept: its own files, where it named them.
            assert installed['policy_files'] == [
                str(conf / 'heat_policy.yaml'), str(conf / 'default_policies' / 'heat.yaml')]
            assert heat_dashboard['policy_files_are_its_own'] == [True, True]
            assert installed['snippet_warnings'] == []
            # ...and in force for heat-dashboard's own actions too: Launch Stack is offered to
            # a member, not to a user without roles.
            page = report['heat_dashboard_page']
            assert page['offers_launch_stack'] and not page['offers_launch_stack_without_roles']
        else:
            # Named but missing: ours take their place, and the log says so for each.
            for path, name in zip(installed['policy_files'],
                                  ('heat_policy.yaml', 'default_policies/heat.yaml')):
                assert _inside(path, BESIDE) and path.endswith(
                    'heat_deploy_dashboard/conf/' + name), path
            assert heat_dashboard['policy_files_are_its_own'] == [False, False]
            assert len(installed['snippet_warnings']) == 2, installed['snippet_warnings']
            for warning, name in zip(installed['snippet_warnings'],
                                     ('heat_policy.yaml', 'default_policies/heat.yaml')):
                assert str(conf / name) in warning, warning

        # heat-dashboard's own page, in the same Horizon, with both plugins' panels.
        page = report['heat_dashboard_page']
        assert page['status'] == 200 and page['listing_called'] == 2, page
        assert all(page['shows'].values()), page['shows']
        assert page['trouble'] == [], page
