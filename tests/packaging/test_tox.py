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

"""tox.ini's environments run as an OpenStack contributor runs them: from a clean clone of
this repository's HEAD, with the tox of the project's venv, `tox -e releasenotes` and
`tox -e py3 -- <one test file>` pass, and the second runs that file alone.

The clone is made again each time (build/packaging/tox-clone); tox's environments live beside
it (build/packaging/tox-work) and are reused while their dependencies stay the same, so only a
fresh checkout pays for installing the py3 environment (about 2 minutes).
"""

import re
import shutil
import sys

from tests.packaging import alone

CLONE = alone.WORK / 'tox-clone'
TOX_WORK = alone.WORK / 'tox-work'
TOX = [sys.executable, '-m', 'tox', '--workdir', TOX_WORK]


def _clean_clone():
    shutil.rmtree(CLONE, ignore_errors=True)
    alone.run(['git', 'clone', '--quiet', alone.REPO, CLONE])
    return CLONE


def test_the_release_notes_and_one_unit_test_file_pass_under_tox_from_a_clean_clone():
    clone = _clean_clone()

    alone.run(TOX + ['-e', 'releasenotes'], cwd=clone, timeout=600)
    assert (clone / 'releasenotes' / 'build' / 'html' / 'index.html').is_file()

    done = alone.run(TOX + ['-e', 'py3', '--', 'tests/unit/test_layout.py'], cwd=clone,
                     timeout=1200)
    [collected] = re.findall(r'(\d+) passed', done.stdout)
    # Only that file: its tests, not the suite's 1,500.
    assert 0 < int(collected) < 50, done.stdout[-2000:]
