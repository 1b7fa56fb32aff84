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

"""What the figures were measured on: they are ratios, but a reader still needs the machine."""

import datetime
import os
import pathlib
import platform


def _cpu_model():
    for line in pathlib.Path('/proc/cpuinfo').read_text().splitlines():
        if line.startswith('model name'):
            return line.split(':', 1)[1].strip()
    return platform.processor() or 'unknown'


def _ram_gb():
    for line in pathlib.Path('/proc/meminfo').read_text().splitlines():
        if line.startswith('MemTotal:'):
            return round(int(line.split()[1]) / 1024 / 1024, 1)
    return None


def describe():
    return {
        'nproc': len(os.sched_getaffinity(0)),
        'cpu_model': _cpu_model(),
        'ram_gb': _ram_gb(),
        'python': platform.python_version(),
        'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        # Other work on a shared machine shows here; the ratios are what stay meaningful.
        'load_average_at_start': os.getloadavg(),
    }
