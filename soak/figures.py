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

"""The soak's figures, from what the cloud holds once the load has stopped: the runs (Heat),
the operations (Mistral), the notices the webhook received, the pages' replies, and which
runs their servers did report. Each goal is 0 but the slowest page's (the poll's 20 s)."""

import collections
import re

from heat_deploy_runner import TIMED_OUT_PREFIX
from heat_deploy_runner import times

# A page's poll gives up on a reply after this (status_poll.js).
PAGE_GOAL_SECONDS = 20
# The soak's name for a killed Horizon worker (load.SERVICES).
HORIZON_WORKER = 'horizon-worker'
# The status poll's reply when a service it needs failed (status.py).
SERVICE_DOWN = 503
# A run still running this long past its deadline was left by every watcher.
STUCK_AFTER_SECONDS = 120


def lost(runs, reported):
    """The runs whose server reported (``reported``: their ids) that Heat shows still running
    or timed out: a result that never reached the run."""
    return [run.id for run in runs if run.id in reported
            and (run.status == 'IN_PROGRESS' or run.reason.startswith(TIMED_OUT_PREFIX))]


def stuck(runs, now):
    """The runs still running STUCK_AFTER_SECONDS past their deadline."""
    return [run.id for run in runs if run.status == 'IN_PROGRESS' and run.deadline
            and (times.utc(now) - run.deadline).total_seconds() > STUCK_AFTER_SECONDS]


def doubled(runs):
    """(operation, try, server) that got more than one run."""
    counted = collections.Counter(
        (run.operation.id, run.operation.try_number, run.server_id)
        for run in runs if run.operation)
    return sorted(key for key, count in counted.items() if count > 1)


def notices(concluded, told):
    """(missing, doubled): the operations that recorded an outcome (``concluded``: their ids)
    and had no notice, or more than one, among the notice bodies ``told``."""
    counted = collections.Counter(body.get('operation') for body in told)
    return (sorted(each for each in concluded if not counted[each]),
            sorted(each for each in concluded if counted[each] > 1))


def _cut(started, seconds, status, outages):
    """Whether a reply never came because the Horizon worker serving it was SIGKILLed (a
    browser's next poll goes to another; gunicorn starts a new one)."""
    return status is None and any(service == HORIZON_WORKER and started <= begin
                                  <= started + seconds for service, begin, _end in outages)


def _failed(status):
    """A server error: a 5xx or no reply at all, but the status poll's 503, its reply that
    names a service that does not answer (the page says so and retries): the reply it is
    made to give while a service is down or not yet back."""
    return status is None or (status >= 500 and status != SERVICE_DOWN)


def pages(replies, outages):
    """(server errors, the slowest reply while a service was down) of the pages' replies:
    (started, seconds, status) each, status None when none came; ``outages``: (service,
    from, to) each, in the same clock. A server error (_failed) counts but for a request
    its Horizon worker was killed under."""
    errors = sum(1 for started, seconds, status, *_path in replies
                 if _failed(status) and not _cut(started, seconds, status, outages))
    during = [seconds for started, seconds, _status, *_path in replies
              if any(begin <= started <= end for _service, begin, end in outages)]
    return errors, max(during, default=0.0)


def failed_pages(replies, outages):
    """{service: count} of the replies that were server errors or none, by the outage they
    started in or within PAGE_GOAL_SECONDS after it ('none' for none): what to look at when
    server_errors is not 0."""
    found = collections.Counter()
    for started, _seconds, status, *_path in replies:
        if _failed(status):
            found[next((service for service, begin, end in outages
                        if begin <= started <= end + PAGE_GOAL_SECONDS), 'none')] += 1
    return dict(found)


def failed_replies(replies):
    """[started, seconds, status, path] of each reply that was a server error, on the
    outages' clock: when they were, to lay against the outages, the firings' minutes and
    the machine's load."""
    return [[round(started, 1), round(seconds, 2), status, *path]
            for started, seconds, status, *path in replies if _failed(status)]


def by_reason(stopped):
    """{reason: count} of the operations ``stopped`` ({id: why}) that ended without an
    outcome, by their reason's first words (up to a full stop or a parenthesis): a firing
    skipped because its servers were still busy is no fault; a follower stopped because a
    service failed for a moment is one to look at (not yet a goal)."""
    return dict(collections.Counter(re.split(r'[.(]', why)[0].strip()[:120]
                                    for why in stopped.values()))


def summary(runs, reported, concluded, told, replies, outages, now):
    missing, twice = notices(concluded, told)
    errors, slowest = pages(replies, outages)
    return {
        'runs': len(runs), 'operations_concluded': len(concluded), 'notices': len(told),
        'page_replies': len(replies), 'outages': [list(each) for each in outages],
        'results_lost': lost(runs, reported), 'left_running': stuck(runs, now),
        'run_twice': [list(each) for each in doubled(runs)],
        'notices_missing': missing, 'notices_doubled': twice,
        'server_errors': errors, 'server_errors_by_outage': failed_pages(replies, outages),
        'failed_replies': failed_replies(replies),
        'service_down_replies': sum(1 for _started, _seconds, status, *_path in replies
                                    if status == SERVICE_DOWN),
        'slowest_page_while_down_seconds': round(slowest, 2),
    }


def met(found):
    """Whether every goal holds."""
    missed = [key for key in ('results_lost', 'left_running', 'run_twice', 'notices_missing',
                              'notices_doubled', 'server_errors') if found[key]]
    return not missed and found['slowest_page_while_down_seconds'] <= PAGE_GOAL_SECONDS
