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

"""A user watches, cancels, deletes and re-runs deployments in the dashboard, on the real cloud."""

import datetime
import re

from heatclient import exc as heat_exc
import pytest
from swiftclient import exceptions as swift_exc

from devcloud import servers
import heat_deploy_runner as runner
from heat_deploy_runner.running import runs
from heat_deploy_runner import times
from tests.integration import dashboard
from tests.integration import waiting

LONG_OUTPUT_LINES = 3000   # about 150 KB of stdout


@pytest.fixture
def run_backup(user, heat, demo_resources):
    """Run mysql's BACKUP on demo-db-2 through the form; return the new deployment."""
    def run(**inputs):
        before = {d.id for d in heat.software_deployments.list()}
        values = {'backup_dir': 'ui', 'retention_days': '2', 'tables': 'posts',
                  'labels': '{}', 'pause_seconds': '0', 'backup_file': '', 'log_lines': '0'}
        values.update(inputs)
        response = user.post(f'/project/components/{demo_resources["mysql"]}/run/', {
            'action': 'BACKUP', 'servers': [demo_resources['db_server_2']],
            'transport': 'TEMP_URL_SIGNAL', 'timeout': '30',
            **{f'input__{name}': value for name, value in values.items()}})
        assert 'Started BACKUP on 1 server.' in dashboard.messages(response.text)
        [new] = [d for d in heat.software_deployments.list() if d.id not in before]
        return new
    return run


@pytest.fixture(scope='module', autouse=True)
def unanswered(heat, find_transport, demo_resources):
    """A run to a made-up server, with a timeout of one minute, made first: no agent reads
    the server, so nothing will ever report back, and its minute passes while the module's
    other tests run (its test is the module's last)."""
    result = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
            server_ids=['no-agent-reads-this-server'], input_values={}, timeout_minutes=1,
            transport='TEMP_URL_SIGNAL'))
    [run] = result.created
    yield run
    runner.delete(heat, run.id, find_transport)


def _table_action(user, action, deployment_id):
    return user.post('/project/deployments/',
                     {'action': f'deployments__{action}__{deployment_id}'})


def test_cancel_from_the_table_then_the_late_result_shows_on_the_runs_page(
        cloud, user, heat, run_backup):
    # Long enough for the cancel to land while it runs, even on a just-started Horizon.
    run = run_backup(pause_seconds='12')
    config = heat.software_configs.get(run.config_id)
    marker = servers.deployed_marker(cloud.layout, 'demo-db-2', config.id)
    waiting.wait_for('the agent to start the run', marker.exists, timeout=30)

    response = _table_action(user, 'cancel', run.id)
    assert 'Cancelled Run' in ' '.join(dashboard.messages(response.text))
    cancelled = heat.software_deployments.get(run.id)
    assert cancelled.status == 'FAILED'
    assert cancelled.status_reason.startswith('Cancelled by demo at ')
    _table_action(user, 'cancel', run.id)
    assert heat.software_deployments.get(run.id).status_reason == cancelled.status_reason

    def late_result_shown():
        page = user.get(f'/project/deployments/{run.id}/?tab=deployment_details__outputs')
        return page.text if 'Late result' in page.text else None

    page = waiting.wait_for('the late result on the run\'s page', late_result_shown,
                            timeout=60)
    assert 'backup_dir=ui retention_days=2' in page
    assert heat.software_deployments.get(run.id).status == 'FAILED'


def test_delete_from_the_table_removes_the_run_its_config_and_its_container(
        user, heat, swift, run_backup):
    run = run_backup()
    waiting.finished(heat, run.id)
    config = heat.software_configs.get(run.config_id)
    url = runner.derived_input_values(config)['deploy_signal_id']
    container = url.split('?')[0].split('/')[-2]

    response = _table_action(user, 'delete', run.id)

    assert 'Deleted Run' in ' '.join(dashboard.messages(response.text))
    with pytest.raises(heat_exc.HTTPNotFound):
        heat.software_deployments.get(run.id)
    with pytest.raises(heat_exc.HTTPNotFound):
        heat.software_configs.get(config.id)
    with pytest.raises(swift_exc.ClientException):
        swift.head_container(container)


def test_run_again_reproduces_the_runs_inputs(user, heat, run_backup):
    first = run_backup(retention_days='9', tables='users,posts', labels='{"run": 1}')
    waiting.finished(heat, first.id)

    form = user.get(f'/project/deployments/{first.id}/rerun/')
    assert '/project/components/' in form.url and '/run/' in form.url
    filled = {name: value for name, value in
              re.findall(r'name="(input__\w+)"[^>]*value="([^"]*)"', form.text)}
    assert filled['input__retention_days'] == '9'
    assert filled['input__tables'] == 'users,posts'

    second = run_backup(retention_days=filled['input__retention_days'],
                        tables=filled['input__tables'], labels='{"run": 1}')
    first_inputs = runs.run_inputs(heat.software_configs.get(first.config_id))
    second_inputs = runs.run_inputs(heat.software_configs.get(second.config_id))
    assert second_inputs == first_inputs


def test_long_output_is_cut_on_the_page_and_whole_in_the_download(user, heat, run_backup):
    run = run_backup(log_lines=str(LONG_OUTPUT_LINES))
    done = waiting.finished(heat, run.id)
    stdout = done.output_values['deploy_stdout']
    assert len(stdout) > runs.DISPLAY_LIMIT

    page = user.get(f'/project/deployments/{run.id}/?tab=deployment_details__outputs').text
    assert 'Download the full text' in page
    # Its end is shown (errors are at the end), its beginning is in the download.
    assert f'progress {LONG_OUTPUT_LINES - 1}:' in page
    assert 'progress 0:' not in page

    download = user.get(f'/project/deployments/{run.id}/outputs/deploy_stdout/')
    assert download.status_code == 200
    assert download.text == stdout
    assert 'attachment' in download.headers['Content-Disposition']


def test_cancel_and_delete_on_a_runs_own_page_work_behind_25_newer_runs(
        user, heat, find_transport, demo_resources):
    def start(transport, server):
        result = runner.start(
            heat, find_transport, runner.RunRequest(
                config_id=demo_resources['mysql'], action='BACKUP', name='mysql',
                server_ids=[server], input_values={}, transport=transport))
        [run] = result.created
        return run

    # Still running when its page is used: no agent reads this server. Nor the newer runs':
    # a server's agent would spend some 75 s running them after the test, and the next test's
    # run on that server would wait behind them.
    target = start('TEMP_URL_SIGNAL', 'no-agent-reads-this-server')
    # Heat's times are in whole seconds, and runs of one second are listed in the order of
    # their ids: the newer runs start from the next second.
    started = times.parse_time(target.creation_time)
    waiting.wait_for('the next second', lambda: times.parse_time(
        datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')) > started,
        timeout=5)
    newer = [start('NO_SIGNAL', 'no-agent-reads-this-either') for _ in range(25)]
    try:
        page = user.get(f'/project/deployments/{target.id}/').text
        # The page's buttons post to the list, whose first page no longer holds the run.
        assert f'value="deployments__cancel__{target.id}"' in page
        assert target.id not in user.get('/project/deployments/').text

        cancelled = _table_action(user, 'cancel', target.id)

        assert 'Cancelled Run' in ' '.join(dashboard.messages(cancelled.text))
        assert heat.software_deployments.get(target.id).status_reason.startswith(
            'Cancelled by demo at ')

        deleted = _table_action(user, 'delete', target.id)

        assert 'Deleted Run' in ' '.join(dashboard.messages(deleted.text))
        with pytest.raises(heat_exc.HTTPNotFound):
            heat.software_deployments.get(target.id)
    finally:
        for run in [target] + newer:
            try:
                runner.delete(heat, run.id, find_transport)
            except heat_exc.HTTPNotFound:
                pass


def test_a_run_whose_server_never_answers_fails_as_timed_out(user, heat, unanswered):
    # Nothing follows it (no operation): the page's status poll records its timeout.
    def poll():
        reply = user.post('/project/deployments/status/', {'id': [unanswered.id]}).json()
        return unanswered.id not in reply['running'] and reply['rows'].get(unanswered.id)

    row = waiting.wait_for('the run to time out', poll, timeout=120, interval=2)
    assert 'Timed out: the server did not report back by ' in row
    shown = heat.software_deployments.get(unanswered.id)
    assert shown.status == 'FAILED'
    assert shown.status_reason.endswith(
        '(timeout: 1 min). Its agent either never ran it or could not send the result over '
        'TEMP_URL_SIGNAL.')
