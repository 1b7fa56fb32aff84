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

"""The whole cloud's memory, idle right after its start: every process its Supervisor started
and all of their descendants (Horizon's and Heat's workers, PostgreSQL's backends, the demo
servers' agents...), found by walking the parent links of /proc.

Each process's RSS and PSS come from /proc/<pid>/smaps_rollup. RSS counts a shared page in
every process that maps it, so its sum overstates the cloud; PSS divides each shared page
among the processes that map it, so its sum is what the cloud costs the machine. A page shared
with a process outside the cloud (another cloud from the same virtualenv, say) is divided with
it too: on a machine running nothing else the PSS would be a little higher. Reading another
user's smaps_rollup needs root, as the bench runs.
"""

import collections
import os
import pathlib

GOAL_MB = 2500


def _parents():
    """{pid: parent pid} of every process on the machine."""
    parents = {}
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            stat = pathlib.Path(f'/proc/{entry}/stat').read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        # The command name is in parentheses and may hold spaces: the fields after it are
        # state, ppid, ...
        parents[int(entry)] = int(stat.rsplit(')', 1)[1].split()[1])
    return parents


def _descendants(pid, children):
    found, todo = [], [pid]
    while todo:
        each = todo.pop()
        found.append(each)
        todo.extend(children.get(each, ()))
    return found


def _rollup_kb(pid):
    """{'Rss': kB, 'Pss': kB, ...} of the process, or None once it has gone."""
    try:
        text = pathlib.Path(f'/proc/{pid}/smaps_rollup').read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = {}
    for line in text.splitlines()[1:]:
        name, _, rest = line.partition(':')
        if rest.strip().endswith('kB'):
            fields[name] = int(rest.split()[0])
    return fields


def _command(pid):
    try:
        raw = pathlib.Path(f'/proc/{pid}/cmdline').read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return ''
    return raw.replace(b'\0', b' ').decode(errors='replace').strip()[:160]


def measure_cloud_memory(processes):
    """``processes``: the Supervisor's (service name, Popen) pairs."""
    children = collections.defaultdict(list)
    for pid, parent in _parents().items():
        children[parent].append(pid)
    services = {}
    biggest = []
    no_memory = 0
    for name, proc in processes:
        totals = services.setdefault(name, {'rss_kb': 0, 'pss_kb': 0, 'processes': 0})
        for pid in _descendants(proc.pid, children):
            fields = _rollup_kb(pid)
            if fields is None:
                continue
            if 'Rss' not in fields:
                # A zombie: no memory of its own.
                no_memory += 1
                continue
            totals['rss_kb'] += fields['Rss']
            totals['pss_kb'] += fields['Pss']
            totals['processes'] += 1
            biggest.append((fields['Pss'], pid, name))
    biggest.sort(reverse=True)
    pss_mb = sum(each['pss_kb'] for each in services.values()) / 1024
    rss_mb = sum(each['rss_kb'] for each in services.values()) / 1024
    mistral_mb = sum(each['pss_kb'] for name, each in services.items()
                     if name.startswith('mistral')) / 1024
    return {
        'pss_mb': round(pss_mb, 1),
        'rss_mb': round(rss_mb, 1),
        'processes': sum(each['processes'] for each in services.values()),
        'mistral_pss_mb': round(mistral_mb, 1),
        'services': services,
        'without_memory': no_memory,
        # The ten processes with the most PSS: where to look first.
        'biggest': [{'pid': pid, 'service': name, 'pss_kb': kb, 'command': _command(pid)}
                    for kb, pid, name in biggest[:10]],
        'goal_mb': GOAL_MB,
        'load_average': os.getloadavg(),
    }
