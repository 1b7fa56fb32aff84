"""bindep.txt is what `make install` installs with apt: bindep, as OpenStack's jobs run it,
lists the same packages as the install script reads from it."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _lines(command):
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True,
                          timeout=60).stdout.split()


def test_make_install_installs_what_bindep_lists():
    bindep = pathlib.Path(sys.executable).with_name('bindep')
    listed = _lines([bindep, '--file', 'bindep.txt', '--list_all', 'newline'])
    installed = _lines(['sh', 'devcloud/install-system-packages.sh', '--list'])

    assert installed == listed
    assert {'postgresql', 'rabbitmq-server', 'chromium-driver'} <= set(installed)
