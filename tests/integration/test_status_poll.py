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

"""The page's status poll against the real cloud when results come in a burst: a poll whose
shows end a round of the pool's runs or more looks again, fresh, at the rows it found quiet,
and shows those whose results arrived meanwhile (status._shown_in_heat)."""

import json
import time
import uuid

import requests

import heat_deploy_runner as runner
from heat_deploy_runner.signalling import tempurl

# Runs ending in one round of a poll's shows: more than its BURST (a round of its pool's shows,
# 8), which makes it look again.
ENDING_AT_ONCE = 9
# The late run's look must still serve the next poll (recheck.LOOK_SECONDS, 0.75 s), which a
# loaded machine may miss: a try whose next poll was sent later than this does not count.
RECENT_SECONDS = 0.4
TRIES = 3


def _answer(run):
    url = runner.derived_input_values(run.config)[tempurl.SIGNAL_ID]
    requests.put(url, data=json.dumps({'deploy_stdout': 'done\n', 'deploy_stderr': '',
                                       'deploy_status_code': 0}), timeout=30).raise_for_status()


def _poll(user, runs):
    reply = user.post('/project/deployments/status/', {'id': [run.id for run in runs]})
    assert reply.status_code == 200, reply.text
    return reply.json()


def _burst_with_a_late_result(user, heat, find_transport, demo_resources, cleanup):
    """Whether one poll showed ended both a burst of runs and a run whose result arrived
    after another poll, a moment before, had looked at its signal and found nothing (None:
    not a moment before). Only a look again made fresh finds it: the earlier look otherwise
    answers for it."""
    runs = runner.start(heat, find_transport, runner.RunRequest(
        config_id=demo_resources['mysql'], action='BACKUP', name='poll-burst',
        server_ids=[str(uuid.uuid4()) for _ in range(ENDING_AT_ONCE + 1)],
        transport='TEMP_URL_SIGNAL')).created
    cleanup.extend(runs)
    *ending, late = runs
    # Shown running once, so that the next polls may look at their signals instead.
    assert len(_poll(user, runs)['running']) == len(runs)
    for run in ending:
        _answer(run)
    assert _poll(user, [late])['running'] == [late.id]
    looked = time.monotonic()
    _answer(late)
    if time.monotonic() - looked > RECENT_SECONDS:
        return None
    return _poll(user, runs)['running'] == []


def test_a_poll_amid_a_burst_of_results_looks_again_for_those_that_arrived_during_it(
        user, heat, find_transport, demo_resources, cleanup):
    tries = [_burst_with_a_late_result(user, heat, find_transport, demo_resources, cleanup)
             for _ in range(TRIES)]
    counted = [each for each in tries if each is not None]
    assert counted and all(counted), tries
