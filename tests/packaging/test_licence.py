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

"""Each distribution's sdist and wheel carry the Apache-2.0 LICENSE: a distributor ships
none without it. Built from a fresh copy of the sources with setuptools' own PEP 517 hooks in
the packaging tests' build env, into a folder of this test's own (the other packaging tests'
wheels stay as they are)."""

import pathlib
import tarfile
import zipfile

import pytest

from tests.packaging import alone

# setuptools' PEP 517 hooks, as pip and `python -m build` call them: the file each made.
BUILD = ('import sys\n'
         'from setuptools import build_meta\n'
         'print(getattr(build_meta, sys.argv[1])(sys.argv[2]))\n')


def _built(python, project, hook, out):
    done = alone.run([python, '-c', BUILD, hook, out], cwd=project)
    return out / done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize('name', [alone.RUNNER, alone.DASHBOARD, alone.NOTIFY])
def test_the_sdist_and_the_wheel_carry_the_licence(name, tmp_path):
    src, python = alone.copied_sources()
    project = src / alone.PROJECTS[name]
    licence = (alone.REPO / alone.PROJECTS[name] / 'LICENSE').read_text()
    assert 'Apache License' in licence and 'Version 2.0, January 2004' in licence

    sdist = _built(python, project, 'build_sdist', tmp_path)
    with tarfile.open(sdist) as archive:
        [member] = [each for each in archive.getnames()
                    if pathlib.PurePath(each).name == 'LICENSE'
                    and len(pathlib.PurePath(each).parts) == 2]
        assert archive.extractfile(member).read().decode() == licence

    wheel = _built(python, project, 'build_wheel', tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        [member] = [each for each in archive.namelist()
                    if each.endswith('.dist-info/licenses/LICENSE')
                    or each.endswith('.dist-info/LICENSE')]
        assert archive.read(member).decode() == licence
