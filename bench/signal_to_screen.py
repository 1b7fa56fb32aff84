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
"""Signal-to-screen: the agent's TempURL PUT until the deployments page shows the run COMPLETE.

All runs are queued before any agent starts and the page is opened on them, so the page is
already polling when the first result arrives. Every server gets one run of each length; its
agent runs them one after another, so the 300 s runs of all servers overlap and the whole
figure takes about one sum of the lengths. The PUT's time is the signal object's X-Timestamp
(set by Swift's proxy when the PUT arrives, to the microsecond); the screen's time is recorded
in the page every 50 ms. Both clocks are this machine's.
"""

import time

import heat_deploy_runner as runner
from heat_deploy_runner.signalling import tempurl

from bench import measure

LENGTHS = (5, 60, 300)
# The servers' stock agents (devcloud.servers) poll their metadata every second and start
# os-refresh-config, the hook and heat-config-notify for each run: a margin on top of the runs
# themselves.
SLACK_SECONDS = 180

# Written into the page: when each row was first seen finished, by the browser's clock; and
# room for every poll's Resource Timing entry (the default buffer holds 250, fewer than the
# polls of the whole figure).
_RECORDER = """
performance.setResourceTimingBufferSize(100000);
window.__finishedAt = {};
setInterval(function () {
  document.querySelectorAll('tr[data-object-id]').forEach(function (row) {
    var id = row.getAttribute('data-object-id'), status = row.getAttribute('data-status');
    if ((status === 'COMPLETE' || status === 'FAILED') && !(id in window.__finishedAt)) {
      window.__finishedAt[id] = [Date.now() / 1000, status];
    }
  });
}, 50);
"""


def _put_time(heat, swift, deployment):
    inputs = {each['name']: each.get('value')
              for each in heat.software_configs.get(deployment.config_id).inputs}
    container, object_name = tempurl.signal_location(inputs)
    return float(swift.head_object(container, object_name)['x-timestamp'])


# Every status poll of the page: [start, end] in seconds since the epoch, by the browser's clock.
_POLLS = """
var url = arguments[0];
return performance.getEntriesByType('resource')
  .filter(function (e) { return e.name.indexOf(url) >= 0; })
  .map(function (e) { return [(performance.timeOrigin + e.startTime) / 1000,
                              (performance.timeOrigin + e.responseEnd) / 1000]; });
"""
STATUS_URL = '/project/deployments/status/'
# Polls this long before a length's first row was seen finished count as its finishing polls.
LEAD_SECONDS = 5


def _finishing_polls(polls, shown_times):
    """How long the polls took while a length's runs were finishing: the replies the page
    waited for between LEAD_SECONDS before the first row shown finished and the last."""
    start, end = min(shown_times) - LEAD_SECONDS, max(shown_times)
    took = [done - began for began, done in polls if done >= start and began <= end]
    return {'polls': len(took), 'median': measure.median(took) if took else None,
            'max': max(took) if took else None}


def measure_runs(heat, swift, fleet, cloud, browser):
    runs = {}
    for seconds in LENGTHS:
        result = runner.start(
            heat, functools.partial(runner.transport_for, swift=swift), runner.RunRequest(
                config_id=fleet.wait_config_id, action='WAIT', server_ids=fleet.server_ids,
                input_values={'seconds': seconds}, name=f'wait-{seconds}s', timeout_minutes=30,
                transport='TEMP_URL_SIGNAL'))
        runs.update({d.id: (seconds, d) for d in result.created})
    browser.open_deployments()
    browser.js(_RECORDER)
    initially_running = browser.js(
        "return document.querySelectorAll('tr[data-status=\"IN_PROGRESS\"]').length")
    fleet.start_agents(cloud)
    deadline = time.monotonic() + sum(LENGTHS) + SLACK_SECONDS
    finished = {}
    while time.monotonic() < deadline:
        finished = browser.js('return window.__finishedAt')
        if all(each in finished for each in runs):
            break
        time.sleep(2)

    by_length = {seconds: [] for seconds in LENGTHS}
    shown_times = {}
    statuses = {}
    missing = 0
    for deployment_id, (seconds, deployment) in runs.items():
        if deployment_id not in finished:
            missing += 1
            continue
        shown_at, status = finished[deployment_id]
        statuses[status] = statuses.get(status, 0) + 1
        by_length[seconds].append(shown_at - _put_time(heat, swift, deployment))
        shown_times.setdefault(seconds, []).append(shown_at)
    polls = browser.js(_POLLS, STATUS_URL)
    return {
        'poll_replies': {
            'polls': len(polls),
            'median': measure.median([done - began for began, done in polls]) if polls else None,
            'while_finishing': {str(seconds): _finishing_polls(polls, times)
                                for seconds, times in shown_times.items()},
        },
        'rows_running_when_opened': initially_running,
        'statuses': statuses,
        'not_shown_finished': missing,
        'lengths': {str(seconds): {
            'samples': len(values),
            'p95': measure.percentile(values, 0.95) if values else None,
            'median': measure.median(values) if values else None,
            'values': measure.rounded(sorted(values), 3),
        } for seconds, values in by_length.items()},
    }
