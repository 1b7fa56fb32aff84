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

"""tox.ini's environments run what the Makefile's targets run, so that `tox -e docs` and
`make docs` cannot drift apart: each pair's commands are the same once the venv prefix
($(BIN)/, and the PATH make gives its tools), tox's paths ({toxinidir}/), the default paths of
{posargs:...} and the quiet flag are set aside. npm ci, making a fresh environment's
node_modules, is tox's alone."""

import configparser
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# tox environment: Makefile target.
PAIRS = {'py3': 'unit', 'pep8': 'lint', 'releasenotes': 'releasenotes', 'docs': 'docs',
         'npm': 'jstest', 'integration': 'integration'}
TOX_ONLY = (re.compile(r'^npm ci\b'),)


def _words(command):
    command = command.replace('$(BIN)/', '').replace('{toxinidir}/', '')
    command = re.sub(r'\{posargs:([^}]*)\}', r'\1', command).replace('{posargs}', '')
    return [word for word in command.split()
            if word != '-q' and not word.startswith('PATH=')]


def _tox_commands(env):
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / 'tox.ini')
    section = f'testenv:{env}' if tox.has_option(f'testenv:{env}', 'commands') else 'testenv'
    lines = tox.get(section, 'commands').replace('\\\n', ' ').splitlines()
    return [_words(line) for line in lines
            if line.strip() and not any(pattern.match(line.strip()) for pattern in TOX_ONLY)]


def _make_commands(target):
    recipe = re.search(rf'^{target}:[^\n]*\n((?:\t[^\n]*\n)+)',
                       (ROOT / 'Makefile').read_text(), re.M).group(1)
    return [_words(line) for line in recipe.replace('\\\n', ' ').splitlines()
            if line.strip()]


@pytest.mark.parametrize('env', sorted(PAIRS))
def test_each_tox_environment_runs_its_make_targets_commands(env):
    assert _tox_commands(env) == _make_commands(PAIRS[env])
