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

"""A submit's TEMP_URL_SIGNAL runs in Object Storage as it really answers: one container for
them all, one listing that tells which have a result, Heat applying a result from it, and the
container gone with the last of its runs (Swift refuses to delete one that is not empty), even
when the results of runs removed meanwhile land in it."""

import functools
import json
import threading
import uuid

from heatclient import exc as heat_exc
import pytest
import requests

import heat_deploy_runner as runner
from heat_deploy_runner.signalling import tempurl

# Servers no agent reads: only the test answers their runs.
SERVERS = [str(uuid.uuid4()) for _ in range(3)]


def _location(run):
    return tempurl.signal_location(runner.derived_input_values(run.config))


def _containers(swift, container):
    return [each['name'] for each in swift.get_account(prefix=container,
                                                       full_listing=True)[1]]


def test_a_submits_runs_share_a_container_that_goes_with_the_last_of_them(
        heat, swift, find_transport, demo_resources, cleanup):
    made = runner.start(heat, find_transport, runner.RunRequest(
        config_id=demo_resources['mysql'], action='BACKUP', name='shared-signal',
        server_ids=SERVERS, transport='TEMP_URL_SIGNAL')).created
    cleanup.extend(made)
    [container] = {_location(run)[0] for run in made}
    assert len({_location(run)[1] for run in made}) == len(SERVERS)

    answered, *others = made
    url = runner.derived_input_values(answered.config)[tempurl.SIGNAL_ID]
    requests.put(url, data=json.dumps({'deploy_stdout': 'done\n', 'deploy_stderr': '',
                                       'deploy_status_code': 0}), timeout=30).raise_for_status()

    assert runner.may_have_results({run.id: run.config for run in made},
                                   find_transport) == {answered.id}
    shown = heat.software_deployments.get(answered.id)
    assert (shown.status, shown.output_values['deploy_stdout']) == ('COMPLETE', 'done\n')

    for run in [answered, *others[:-1]]:
        assert runner.delete(heat, run.id, find_transport) == []
        assert _containers(swift, container) == [container]
    assert runner.delete(heat, others[-1].id, find_transport) == []
    assert _containers(swift, container) == []


def _answer(url):
    """A server's one PUT of its result; after its run was removed with its container, Object
    Storage's 404."""
    requests.put(url, data=json.dumps({'deploy_stdout': 'late\n', 'deploy_stderr': '',
                                       'deploy_status_code': 0}), timeout=30)


def _at_once(*steps):
    threads = [threading.Thread(target=step) for step in steps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


def test_deletes_racing_their_results_leave_nothing(
        heat, swift, find_transport, demo_resources, cleanup):
    # Ten submits of three runs: the first removed and its result landing after, then the
    # other two removed while their results land.
    for round_ in range(10):
        made = runner.start(heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name=f'race-{round_}',
            server_ids=SERVERS, transport='TEMP_URL_SIGNAL')).created
        cleanup.extend(made)
        [container] = {_location(run)[0] for run in made}
        urls = [runner.derived_input_values(run.config)[tempurl.SIGNAL_ID] for run in made]
        assert runner.delete(heat, made[0].id, find_transport) == []
        _answer(urls[0])
        _at_once(*(functools.partial(step, *args) for run, url in zip(made[1:], urls[1:])
                   for step, args in ((runner.delete, (heat, run.id, find_transport)),
                                      (_answer, (url,)))))

        assert _containers(swift, container) == []
        # Nor anything noted for a later sweep.
        assert _containers(swift, tempurl.LEFT) == []
        for run in made:
            with pytest.raises(heat_exc.HTTPNotFound):
                heat.software_configs.get(run.config_id)
