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

"""The whole local cloud stopped and started again under use, as after a host's reboot: a result
delivered before is still there, a run cut short is not run again, the logged-in user stays
logged in, new runs work, and every result that reached Swift before the stop ends its run. Run
after every other test (restarts_cloud): the restart costs the time of the cloud's start on its
existing data."""

import datetime
import email.utils
import json

import pytest

from heat_deploy_runner.configs import derived
from heat_deploy_runner.running import results
from heat_deploy_runner.running import settling
from heat_deploy_runner.signalling import tempurl
from tests.integration import dashboard
from tests.integration import test_outages as outages
from tests.integration import waiting

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud


# How long after the services are back a result that reached Swift may take to end its run: a
# page's status poll or a follower's look comes round within a few seconds.
SETTLED_WITHIN = 60
SERVERS = {'db_server_1': 'demo-db-1', 'db_server_2': 'demo-db-2',
           'web_server': 'demo-web-1', 'monitor_server': 'demo-mon-1'}


def _signal(config):
    return tempurl.signal_location(derived.derived_input_values(config))


def _stranded(heat, swift, start_run, server):
    """A run whose result reached Swift and whose running deployment was then updated: Heat
    applies a TempURL object only while its Last-Modified (whole seconds, rounded up) is later
    than the deployment's updated_at, so no show in Heat ever applies this one. Made directly:
    the whole-cloud restarts that left a run so could not be repeated at will (item 4 of #54)."""
    run, config = start_run('mysql', 'BACKUP', server, pause_seconds=0)
    headers = waiting.wait_for(f'the result of {server} to reach Swift',
                               lambda: outages._stored(swift, _signal(config)))
    arrived = email.utils.parsedate_to_datetime(headers['last-modified'])
    waiting.wait_for('the second the result arrived in to pass', lambda: datetime.datetime.now(
        datetime.timezone.utc) >= arrived)
    heat.software_deployments.update(run.id, status_reason='updated while it ran')
    assert heat.software_deployments.get(run.id).status == 'IN_PROGRESS'
    return run, config


def _sent(swift, config):
    headers, body = swift.get_object(*_signal(config))
    return json.loads(body) if int(headers['content-length']) else None


@pytest.mark.restarts_cloud
def test_after_a_restart_of_everything_no_result_is_lost_and_the_user_works_on(
        cloud, heat, swift, find_transport, start_run):
    # One restart for all of it: each costs the time of the cloud's start.
    user = dashboard.Dashboard(cloud.layout.dashboard_url)
    user.login()
    watched = _stranded(heat, swift, start_run, 'db_server_1')
    followed = _stranded(heat, swift, start_run, 'db_server_2')
    delivered, delivered_config = start_run('mysql', 'BACKUP', 'db_server_1', pause_seconds=0)
    signal = tempurl.signal_location(derived.derived_input_values(delivered_config))
    waiting.wait_for('the agent to deliver a result nobody has looked at yet',
                     lambda: int(swift.head_object(*signal)['content-length']), timeout=60)
    cut_short, cut_short_config = start_run('mysql', 'BACKUP', 'db_server_2',
                                            pause_seconds=120)
    outages.started(cloud, 'demo-db-2', cut_short_config)
    # Several more, whose results arrive just before the stop (demo-db-2's waits its turn).
    arriving = [start_run('mysql', 'BACKUP', server, pause_seconds=1) for server in SERVERS]
    outages.notifying(cloud, SERVERS['db_server_1'], arriving[0][1])

    cloud.stop()
    cloud.start()

    page = user.get(f'/project/deployments/{delivered.id}/', allow_redirects=False)
    assert page.status_code == 200
    server_page = user.get(f'/project/servers/{delivered.server_id}/').text
    assert dashboard.row_status(server_page, delivered.id) == 'COMPLETE'
    # Whatever arrived ends its run: a page's status poll settles a run no follower has (the
    # first), Mistral's follower and the command line's --wait theirs through the same runner
    # code (settling.settled).

    def polled():
        reply = user.post('/project/deployments/status/', {'id': [watched[0].id]}).json()
        return reply if watched[0].id not in reply['running'] else None
    reply = waiting.wait_for('the status poll to end the run', polled, timeout=SETTLED_WITHIN)
    assert reply['statuses'][watched[0].id]['status'] == 'COMPLETE'
    assert heat.software_deployments.get(watched[0].id).output_values['deploy_stdout'] == \
        _sent(swift, watched[1])['deploy_stdout']
    configs = {}
    for run, config in [followed] + arriving:
        sent = _sent(swift, config)
        if sent is None:
            continue

        def settled(run_id=run.id):
            now = settling.settled(heat, find_transport, run_id, configs)
            return now if now.status != 'IN_PROGRESS' else None
        ended = waiting.wait_for(f'run {run.id} to end with its result', settled,
                                 timeout=SETTLED_WITHIN)
        assert ended.status == results.outcome(sent, derived.as_dict(config).get('outputs'))[0]
        assert ended.output_values['deploy_stdout'] == sent['deploy_stdout']
    again, _config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=0)
    assert waiting.finished(heat, again.id, timeout=60).status == 'COMPLETE'
    # Its script stopped with the server's agent, which had marked it deployed: it runs
    # no more, and stays running until its timeout.
    assert heat.software_deployments.get(cut_short.id).status == 'IN_PROGRESS'
