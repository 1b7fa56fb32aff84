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

"""The bench's own local cloud: fresh every run, beside any demo or test cloud, always stopped.

Fresh (its directory wiped) so two runs start from the same state; its own directory and ports
(BENCHCLOUD_DIR, BENCHCLOUD_PORT_BASE) so it never touches build/devcloud or build/testcloud.
"""

import contextlib
import os
import pathlib
import shutil
import signal
import sys
import time

from devcloud import cloud as cloud_mod
from devcloud import layout as layout_mod

BENCH_PORT_BASE = 22000


def layout():
    data_dir = pathlib.Path(os.environ.get('BENCHCLOUD_DIR')
                            or layout_mod.REPO_ROOT / 'build' / 'benchcloud')
    return layout_mod.Layout(data_dir.resolve(),
                             int(os.environ.get('BENCHCLOUD_PORT_BASE') or BENCH_PORT_BASE))


_STARTED = time.monotonic()


def progress(message):
    # The minutes since the bench started: where a whole bench's hour goes.
    print(f'[bench {(time.monotonic() - _STARTED) / 60:5.1f} min] {message}', file=sys.stderr,
          flush=True)


def _stop_on_sigterm(_signum, _frame):
    # Turned into the same exception as Ctrl-C, so the cloud is stopped on the way out.
    raise KeyboardInterrupt


# Above Heat's default of 4096 software deployments (and configs) a project may have, so that
# the bench can seed 10,000 runs through the real API; the demo and the tests keep Heat's.
HEAT_QUOTA = 20000


@contextlib.contextmanager
def fresh_cloud(the_layout=None):
    """A started cloud with the demo stack (the bench's ``layout``, unless another is given:
    the soak's); stopped on the way out, whatever happens."""
    the_layout = the_layout or layout()
    shutil.rmtree(the_layout.data_dir, ignore_errors=True)
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    the_cloud = cloud_mod.Cloud(the_layout, lambda message: progress(f'cloud: {message}'),
                                heat_quota=HEAT_QUOTA)
    try:
        the_cloud.start()
        progress(f'cloud ready in {the_cloud.startup_seconds:.0f} s')
        yield the_cloud
    finally:
        progress('stopping the cloud')
        the_cloud.stop()
        signal.signal(signal.SIGTERM, previous)
