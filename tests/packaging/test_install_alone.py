"""The wheel, installed alone with its declared dependencies, serves every page of the plugin.

`pip install .` into an existing Horizon must bring everything the plugin imports. This builds
the wheel (pip wheel --no-deps), installs it into a venv of its own under build/packaging/ that
sees nothing of the project's venv (pip install -c constraints.txt <wheel>), runs pip check,
and then, with that venv's python and the repository off sys.path, renders every page of the
plugin under Horizon's test settings with the plugin enabled from the installed package
(render_panels.py).

What is kept between runs, under build/packaging/ (delete it to start afresh), because it
makes a run much faster (measured on a busy 2-core machine):

- build-env/: setuptools for building the wheel, installed once. pip's build isolation
  downloads setuptools again for every build (pip's HTTP cache keeps nothing where the index
  answers without cache headers, as here): 7 to 12 s a build instead of about 3.
- venv/: the clean venv. A new one downloads about 115 distributions (75 MB) and writes
  300 MB: 65 s to 2 min, the rest of the test 20 to 40 s. So the venv is reused when all that
  decides which distributions pip installs is unchanged: constraints.txt, the wheel's
  Requires-Dist and Requires-Python, the interpreter and pip (every version being pinned by
  constraints.txt, pip would install the same set again), and the venv still holds what the
  last fresh install left. The wheel is then reinstalled alone (--no-deps --force-reinstall,
  about 5 s) whenever its content changed, so the pages are always those of the wheel just
  built. Anything else builds the venv from nothing.

Needs PyPI (and pip's configured indexes), nothing else.
"""

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
RENDER_DIR = WORK / 'render'
CONSTRAINTS = REPO / 'constraints.txt'
PYPROJECT = REPO / 'pyproject.toml'

# What a build of the package reads: the package and the top-level packaging files.
SOURCES = ('heat_deploy_dashboard', 'setup.cfg', 'pyproject.toml', 'MANIFEST.in', 'README.md')

PANELS = {'components', 'deployments', 'servers', 'configs'}
# In the project's venv (devcloud, tests) and never a dependency of the plugin.
PROJECT_ONLY = {'openstack-heat', 'keystone', 'swift', 'zaqar', 'pytest', 'pytest-django',
                'selenium', 'gunicorn'}

# The project venv's pip drives the other interpreters (pip --python), so that the clean
# venv holds no pip of its own: only the wheel and what it depends on.
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


def _copy_sources():
    """A fresh copy of what the build reads: setuptools builds in the source tree, and its
    build/lib/ there would keep files the package no longer has."""
    shutil.rmtree(SRC, ignore_errors=True)
    SRC.mkdir(parents=True)
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, SRC / name,
                            ignore=shutil.ignore_patterns('__pycache__', '*.pyc', '*.egg-info'))
        else:
            shutil.copy2(source, SRC / name)


def _build_env():
    """A venv with the build backend pyproject.toml asks for, made once per build-system."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        from pip._vendor import tomli as tomllib
    requires = tomllib.loads(PYPROJECT.read_text())['build-system']['requires']
    key = _sha256(json.dumps(requires), json.dumps(_interpreter()))
    stamp = BUILD_ENV / 'key'
    if stamp.exists() and stamp.read_text() == key and _python(BUILD_ENV).exists():
        return
    shutil.rmtree(BUILD_ENV, ignore_errors=True)
    _run([sys.executable, '-m', 'venv', '--without-pip', BUILD_ENV])
    _run(PIP + ['--python', _python(BUILD_ENV), 'install', '-q', *requires])
    stamp.write_text(key)


def _build_wheel():
    _copy_sources()
    _build_env()
    shutil.rmtree(DIST, ignore_errors=True)
    _run(PIP + ['--python', _python(BUILD_ENV), 'wheel', '-q', '--no-deps',
                '--no-build-isolation', '-w', DIST, SRC])
    [wheel] = DIST.glob('*.whl')
    return wheel


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


def _installed():
    """The distributions in the clean venv, as their dist-info folders name them."""
    site = list((VENV / 'lib').glob('python*/site-packages'))
    return sorted(p.name for p in site[0].glob('*.dist-info')) if site else []


def _clean_venv(wheel, timings):
    requires, content = _wheel_facts(wheel)
    key = _sha256(CONSTRAINTS.read_bytes(), json.dumps(requires), json.dumps(_interpreter()))
    stamp = _load(VENV_STAMP) or {}
    reused = (stamp.get('key') == key and _python(VENV).exists()
              and stamp.get('installed') == _installed())
    VENV_STAMP.unlink(missing_ok=True)
    started = time.monotonic()
    if reused:
        if stamp.get('wheel') != content:
            _run(PIP + ['--python', _python(VENV), 'install', '-q', '--no-compile',
                        '--no-deps', '--force-reinstall', '-c', CONSTRAINTS, wheel])
        timings['venv reused, wheel reinstalled' if stamp.get('wheel') != content
                else 'venv reused as it was'] = time.monotonic() - started
    else:
        shutil.rmtree(VENV, ignore_errors=True)
        # Made from the base interpreter: nothing of the project's venv is visible in it.
        _run([sys.executable, '-m', 'venv', '--without-pip', VENV])
        # --no-compile: the pages compile what they import; compiling all of Horizon's
        # dependencies up front doubles the install's time.
        _run(PIP + ['--python', _python(VENV), 'install', '-q', '--no-compile',
                    '-c', CONSTRAINTS, wheel])
        timings['venv built and installed'] = time.monotonic() - started
    VENV_STAMP.write_text(json.dumps({'key': key, 'wheel': content,
                                      'installed': _installed()}))
    return reused


def _render():
    shutil.rmtree(RENDER_DIR, ignore_errors=True)
    RENDER_DIR.mkdir(parents=True)
    report = RENDER_DIR / 'report.json'
    environment = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
                   'HOME': os.environ.get('HOME', str(RENDER_DIR)),
                   'LANG': 'C.UTF-8',
                   'RENDER_WORK_DIR': str(RENDER_DIR), 'RENDER_REPORT': str(report)}
    # -I: no PYTHON* variables, no user site, not even the script's own folder on sys.path;
    # from RENDER_DIR, outside the source tree.
    done = subprocess.run([str(_python(VENV)), '-I', str(HERE / 'render_panels.py')],
                          cwd=RENDER_DIR, env=environment, capture_output=True, text=True,
                          timeout=600)
    return done, _load(report)


def _inside(path, folder):
    return pathlib.Path(path).resolve().is_relative_to(folder.resolve())


def test_the_wheel_installs_alone_and_serves_every_panel():
    WORK.mkdir(parents=True, exist_ok=True)
    timings = {}
    # One run at a time on build/packaging (make test, and someone else's).
    with open(WORK / '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        started = time.monotonic()
        wheel = _build_wheel()
        timings['wheel built'] = time.monotonic() - started

        _clean_venv(wheel, timings)

        started = time.monotonic()
        _run(PIP + ['--python', _python(VENV), 'check'])
        timings['pip check'] = time.monotonic() - started

        started = time.monotonic()
        done, report = _render()
        timings['pages rendered'] = time.monotonic() - started
    (WORK / 'timings.json').write_text(json.dumps(timings, indent=1))
    print('\n'.join(f'{what}: {seconds:.1f} s' for what, seconds in timings.items()))

    assert report is not None, (
        f'render_panels.py wrote no report (exit {done.returncode})\n{done.stderr[-8000:]}')
    failed = [page for page in report.get('pages', []) if page.get('error')]
    assert failed == [] and done.returncode == 0 and report['passed'], (
        'pages that did not answer 200 as they should:\n'
        + '\n'.join(f'{page["route"]} {page.get("url")} -> {page.get("status")}: '
                    f'{page["error"]}' for page in failed)
        + f'\n--- render_panels.py (exit {done.returncode})\n{done.stderr[-8000:]}')

    # Every panel, with its pages.
    assert PANELS <= set(report['panels'])
    rendered = {page['route'].split(':')[0] for page in report['pages']
                if page.get('status') == 200}
    assert set(report['panels']) <= rendered
    routes = {page['route'] for page in report['pages']}
    for panel in PANELS:
        assert {f'{panel}:index', f'{panel}:detail'} <= routes

    # All of it from the installed wheel.
    installed = report['installed']
    assert _inside(installed['prefix'], VENV)
    assert _inside(installed['package'], VENV)
    assert len(installed['enabled']) >= len(PANELS) + 1
    for path in installed['enabled'] + installed['panels'] + installed['policy_files']:
        assert _inside(path, VENV), path
    assert installed['policy_files_exist']
    for entry in installed['sys_path']:
        assert not entry or not _inside(entry, REPO) or _inside(entry, VENV) or \
            pathlib.Path(entry).resolve() == HERE, entry
    assert not any(_inside(entry, pathlib.Path(sys.prefix)) for entry in installed['sys_path']
                   if entry), 'the project venv is on the clean venv\'s path'

    # Nothing but the wheel and its dependencies.
    names = {name.lower().replace('_', '-') for name in installed['distributions']}
    assert 'heat-deploy-dashboard' in names
    assert names & PROJECT_ONLY == set()
    assert 'pip' not in names
