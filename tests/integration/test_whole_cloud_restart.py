"""The whole local cloud stopped and started again under use, as after a host's reboot: a result
delivered before is still there, a run cut short is not run again, the logged-in user stays
logged in, and new runs work. Run after every other test (restarts_cloud): the restart costs the
time of the cloud's start on its existing data."""

import pytest

from heat_deploy_runner import derived
from heat_deploy_runner import tempurl
from tests.integration import dashboard
from tests.integration import test_outages as outages
from tests.integration import waiting

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.stops_services


@pytest.mark.restarts_cloud
def test_after_a_restart_of_everything_no_result_is_lost_and_the_user_works_on(
        cloud, heat, swift, start_run):
    user = dashboard.Dashboard(cloud.layout.dashboard_url)
    user.login()
    delivered, delivered_config = start_run('mysql', 'BACKUP', 'db_server_1', pause_seconds=0)
    signal = tempurl.signal_location(derived.derived_input_values(delivered_config))
    waiting.wait_for('the agent to deliver a result nobody has looked at yet',
                     lambda: int(swift.head_object(*signal)['content-length']), timeout=60)
    cut_short, cut_short_config = start_run('mysql', 'BACKUP', 'db_server_2',
                                            pause_seconds=120)
    outages.started(cloud, 'demo-db-2', cut_short_config)

    cloud.stop()
    cloud.start()

    page = user.get(f'/project/deployments/{delivered.id}/', allow_redirects=False)
    assert page.status_code == 200
    server_page = user.get(f'/project/servers/{delivered.server_id}/').text
    assert dashboard.row_status(server_page, delivered.id) == 'COMPLETE'
    again, _config = start_run('mysql', 'BACKUP', 'db_server_2', pause_seconds=0)
    assert waiting.finished(heat, again.id, timeout=60).status == 'COMPLETE'
    # Its script stopped with the server's agent, which had marked it deployed: it runs
    # no more, and stays running until its timeout.
    assert heat.software_deployments.get(cut_short.id).status == 'IN_PROGRESS'
