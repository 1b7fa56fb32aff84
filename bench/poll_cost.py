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

import functools
"""Poll cost: HTTP requests per poll interval from one open deployments page, by running rows.

Running rows are runs on the fake servers with TEMP_URL_SIGNAL: no agent ever reports, so
they stay IN_PROGRESS for as long as the bench needs them. Every request the page makes in a
window is counted from the browser's Resource Timing entries, whatever it goes to; the status
endpoint's own requests and their durations are reported apart. Afterwards the runs are
cancelled, so no later page polls them.
"""

import time

import heat_deploy_runner as runner

from bench import measure
from bench import seed

ROW_COUNTS = (1, 20, 100)
# deployment_poller.js starts a poll every 1.5 s (at least 0.5 s after the last reply).
POLL_INTERVAL = 1.5
WINDOW_SECONDS = 30
STATUS_URL = '/project/deployments/status/'

_ENTRIES = """
var since = arguments[0], until = arguments[1];
return performance.getEntriesByType('resource')
  .filter(function (e) { return e.startTime >= since && e.startTime < until; })
  .map(function (e) { return [e.name, e.duration / 1000, e.responseStatus]; });
"""


def _add_running(heat, swift, config_id, count):
    made = []
    while len(made) < count:
        # A server once per trigger call; more rows than servers take more calls.
        servers = seed.FAKE_SERVERS[:min(count - len(made), seed.SERVERS)]
        result = runner.start(
            heat, functools.partial(runner.transport_for, swift=swift), runner.RunRequest(
                config_id=config_id, action='WAIT', server_ids=servers, name='never-reports',
                timeout_minutes=30, transport='TEMP_URL_SIGNAL'))
        made += [d.id for d in result.created]
    return made


def _window(browser):
    browser.open_deployments()
    start = browser.js('return performance.now()')
    time.sleep(WINDOW_SECONDS)
    entries = browser.js(_ENTRIES, start, start + WINDOW_SECONDS * 1000)
    status = [(seconds, code) for url, seconds, code in entries if STATUS_URL in url]
    intervals = WINDOW_SECONDS / POLL_INTERVAL
    return {
        'requests': len(entries),
        # A refused poll (gunicorn's 400 for a request line over 4094 bytes, say) is fast and
        # is followed by a longer wait: its status matters as much as its count.
        'status_codes': sorted({code for _seconds, code in status}),
        'requests_per_interval': len(entries) / intervals,
        'status_requests': len(status),
        'status_median_seconds': measure.median([s for s, _c in status]) if status else None,
        'running_rows_shown': browser.js(
            "return document.querySelectorAll('tr[data-status=\"IN_PROGRESS\"]').length"),
    }


def measure_polls(heat, swift, config_id, browser, calls_of_status):
    """{rows: window figures}; calls_of_status(ids) counts the backend calls of one poll."""
    running, results = [], {}
    for rows in ROW_COUNTS:
        running += _add_running(heat, swift, config_id, rows - len(running))
        results[str(rows)] = dict(_window(browser),
                                  backend_calls_per_poll=calls_of_status(running))
    for deployment_id in running:
        runner.cancel(heat, deployment_id, 'bench', runner.transport_for)
    return results
