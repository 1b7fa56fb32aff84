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

"""make demo: run the local cloud in the foreground until Ctrl-C or SIGTERM."""

import signal
import sys
import threading

from devcloud import cloud
from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud import process


def progress(message):
    print(f'[devcloud] {message}', flush=True)


def main():
    layout = layout_mod.Layout.from_environment()
    stopping = threading.Event()

    def on_signal(signum, frame):
        stopping.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    the_cloud = cloud.Cloud(layout, progress)
    progress(f'data in {layout.data_dir}, ports from {layout.port_base}')
    try:
        the_cloud.start()
    except cloud.AlreadyRunning as exc:
        print(exc, file=sys.stderr)
        return 1
    except process.ServiceFailed as exc:
        print(f'[devcloud] could not start: {exc}', file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        progress('stopped before it was ready')
        return 130
    print(f'Dashboard ready: {layout.dashboard_url} user {credentials.DEMO_USER} '
          f'password {credentials.DEMO_PASSWORD} '
          f'(started in {the_cloud.startup_seconds:.0f} s; Ctrl-C stops it)', flush=True)
    try:
        while not stopping.is_set():
            stopping.wait(1)
    except KeyboardInterrupt:
        pass
    progress('stopping every service')
    the_cloud.stop()
    progress('stopped')
    return 0


if __name__ == '__main__':
    sys.exit(main())
