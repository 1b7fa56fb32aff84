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

"""Memory: the RSS of each Horizon gunicorn worker before and after 1,000 page views.

The views go over HTTP to the cloud's real workers, cycling through every panel's pages and
the poller's endpoint. "Before" is after a warm-up, so imports and first-use caches are in it.
"""

import pathlib

from bench import list_cost

WARMUP_VIEWS = 100
VIEWS = 1000


def _children(pid):
    path = pathlib.Path(f'/proc/{pid}/task/{pid}/children')
    return [int(each) for each in path.read_text().split()]


def _rss_kb(pid):
    for line in pathlib.Path(f'/proc/{pid}/status').read_text().splitlines():
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
    raise RuntimeError(f'no VmRSS for process {pid}')


def _workers_rss(master_pid):
    return {pid: _rss_kb(pid) for pid in _children(master_pid)}


def _view_many(dashboard, pages, count):
    statuses = {}
    for index in range(count):
        status, _size = list_cost.view(dashboard, pages[index % len(pages)])
        statuses[status] = statuses.get(status, 0) + 1
    return statuses


def measure_memory(dashboard, horizon_master_pid, pages):
    _view_many(dashboard, pages, WARMUP_VIEWS)
    before = _workers_rss(horizon_master_pid)
    statuses = _view_many(dashboard, pages, VIEWS)
    after = _workers_rss(horizon_master_pid)
    same = sorted(set(before) & set(after))
    growth = {str(pid): (after[pid] - before[pid]) / before[pid] for pid in same}
    return {
        'rss_kb_before': {str(pid): kb for pid, kb in before.items()},
        'rss_kb_after': {str(pid): kb for pid, kb in after.items()},
        'growth': growth,
        'max_growth': max(growth.values()) if growth else None,
        'workers_replaced': sorted(set(before) ^ set(after)),
        'statuses': {str(k): v for k, v in statuses.items()},
        'pages': pages,
    }
