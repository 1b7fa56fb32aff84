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

"""The local cloud's stop cannot be cut short by a second Ctrl-C: it found `make demo`
leaving heat-engine, Mistral and Swift running, orphaned, when Ctrl-C came twice."""

import os
import signal

from devcloud import cloud
from devcloud import layout


class _Supervisor:
    """Stops its services by receiving Ctrl-C halfway, as a second one would arrive."""

    def __init__(self):
        self.stopped = []

    def stop_all(self):
        self.stopped.append('first half')
        os.kill(os.getpid(), signal.SIGINT)
        self.stopped.append('second half')


def test_a_second_ctrl_c_does_not_cut_the_stop_short(tmp_path):
    the_cloud = cloud.Cloud(layout.Layout(tmp_path, layout.DEFAULT_PORT_BASE))
    the_cloud.sup = _Supervisor()
    before = signal.getsignal(signal.SIGINT)

    the_cloud.stop()

    assert the_cloud.sup.stopped == ['first half', 'second half']
    assert signal.getsignal(signal.SIGINT) is before
