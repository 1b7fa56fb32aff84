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
