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

"""What the packaging tests share: this repository's wheels built (pip wheel --no-deps) and
installed into venvs of their own under build/packaging/, which see nothing of the project's
venv, as an operator's would; pip run on them; what they hold.

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
import tomllib
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
           'MANIFEST.in', 'README.md', 'LICENSE')
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


def run(command, timeout=900, **kwargs):
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


def python(venv):
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


def load(path):
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


def toml(path):
    return tomllib.loads(path.read_text())


def _build_env():
    """A venv with the build backends both pyproject.toml files ask for, made once per
    build-system."""
    requires = sorted({each for folder in PROJECTS.values()
                       for each in toml(REPO / folder / 'pyproject.toml')['build-system'][
                           'requires']})
    key = _sha256(json.dumps(requires), json.dumps(_interpreter()))
    stamp = BUILD_ENV / 'key'
    if stamp.exists() and stamp.read_text() == key and python(BUILD_ENV).exists():
        return
    shutil.rmtree(BUILD_ENV, ignore_errors=True)
    run([sys.executable, '-m', 'venv', '--without-pip', BUILD_ENV])
    run(PIP + ['--python', python(BUILD_ENV), 'install', '-q', *requires])
    stamp.write_text(key)


def copied_sources():
    """A fresh copy of what the builds read, and the build env: SRC, and BUILD_ENV's
    python."""
    _copy_sources()
    _build_env()
    return SRC, python(BUILD_ENV)


def build_wheels(*names):
    """The wheels of the named distributions, by name, built from one fresh copy of the
    sources in the one build env."""
    _copy_sources()
    _build_env()
    shutil.rmtree(DIST, ignore_errors=True)
    wheels = {}
    for name in names:
        run(PIP + ['--python', python(BUILD_ENV), 'wheel', '-q', '--no-deps',
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


def installed_in(venv):
    """The distributions in a venv, as their dist-info folders name them."""
    site = list((venv / 'lib').glob('python*/site-packages'))
    return sorted(p.name for p in site[0].glob('*.dist-info')) if site else []


def distributions(names):
    return {name.lower().replace('_', '-').replace('.', '-') for name in names}


def names_in(venv):
    """The normalised names of the distributions in a venv."""
    return distributions(folder[:-len('.dist-info')].rsplit('-', 1)[0]
                         for folder in installed_in(venv))


def pinned():
    return distributions(line.split('===')[0] for line in CONSTRAINTS.read_text().splitlines()
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
    stamp = load(stamp_path) or {}
    reused = (stamp.get('key') == key and python(venv).exists()
              and stamp.get('installed') == installed_in(venv))
    stamp_path.unlink(missing_ok=True)
    started = time.monotonic()
    if reused:
        changed = [name for name in contents if stamp.get('wheels', {}).get(name) !=
                   contents[name]]
        if changed:
            run(PIP + ['--python', python(venv), 'install', '-q', '--no-compile',
                       '--no-deps', '--force-reinstall', '-c', CONSTRAINTS,
                       *(wheels[name] for name in changed)])
        timings[f'{what}: reused, {" and ".join(changed)} reinstalled' if changed
                else f'{what}: reused as it was'] = time.monotonic() - started
    else:
        shutil.rmtree(venv, ignore_errors=True)
        make()
        timings[f'{what}: built and installed'] = time.monotonic() - started
    stamp_path.write_text(json.dumps({'key': key, 'wheels': contents,
                                      'installed': installed_in(venv)}))
    return reused


def _fresh_venv(venv, *requirements):
    """A new venv, made from the base interpreter (nothing of the project's venv is visible
    in it), with requirements installed into it under constraints.txt."""
    run([sys.executable, '-m', 'venv', '--without-pip', venv])
    # --no-compile: the pages compile what they import; compiling all of Horizon's
    # dependencies up front doubles the install's time.
    run(PIP + ['--python', python(venv), 'install', '-q', '--no-compile',
               '-c', CONSTRAINTS, *requirements])


def clean_venv(wheels, timings):
    # Both wheels named, as an operator installs them: the runner's is on no index.
    return _reuse_or_make(VENV, VENV_STAMP, wheels,
                          lambda: _fresh_venv(VENV, wheels[RUNNER], wheels[DASHBOARD]),
                          '', 'venv', timings)


def venv_beside_heat_dashboard(wheels, timings):
    """The clean venv, as clean_venv() just left it, with heat-dashboard installed into it the
    way an operator adds it to that Horizon; in a copy, so that venv/ keeps the wheels alone.

    The copy is made of hard links, and stays independent of venv/: neither pip nor Python
    writes into an existing file (pip removes a file before writing it anew, and moves away
    what it uninstalls; Python writes a .pyc to a new file that it renames), so what changes
    in one venv never shows in the other. What still names venv/ in the copy is not used
    here: the scripts in bin/ (their #! lines, activate) and pyvenv.cfg's `command`."""
    def make():
        run(['cp', '-al', VENV, BESIDE], timeout=120)
        run(PIP + ['--python', python(BESIDE), 'install', '-q', '--no-compile',
                   '-c', CONSTRAINTS, HEAT_DASHBOARD])
    return _reuse_or_make(BESIDE, BESIDE_STAMP, wheels, make, HEAT_DASHBOARD,
                          'venv beside heat-dashboard', timings)


def environment(folder, **variables):
    """All the environment a clean venv's python is given: no PYTHON* variables."""
    return {'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
            'HOME': os.environ.get('HOME', str(folder)), 'LANG': 'C.UTF-8', **variables}


def inside(path, folder):
    return pathlib.Path(path).resolve().is_relative_to(folder.resolve())


def assert_isolated(sys_path, venv):
    """Nothing of the repository (but this folder) nor of the project venv on sys_path."""
    for entry in sys_path:
        assert not entry or not inside(entry, REPO) or inside(entry, venv) or \
            pathlib.Path(entry).resolve() == HERE, entry
    assert not any(inside(entry, pathlib.Path(sys.prefix)) for entry in sys_path
                   if entry), 'the project venv is on the clean venv\'s path'


def report_timings(timings, since=0, name='timings.json'):
    """Write all timings so far to build/packaging/<name>; print those from the since-th on."""
    (WORK / name).write_text(json.dumps(timings, indent=1))
    print('\n'.join(f'{what}: {seconds:.1f} s'
                    for what, seconds in list(timings.items())[since:]))


@contextlib.contextmanager
def locked():
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
    with locked() as timings:
        started = time.monotonic()
        wheels = build_wheels(name)
        timings[f'{name} wheel built'] = time.monotonic() - started
        _reuse_or_make(venv, stamp, wheels, lambda: _fresh_venv(venv, f'{wheels[name]}{extra}'),
                       extra, what, timings)
        yield timings
