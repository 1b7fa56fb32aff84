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

"""Retention on the real cloud: the retention workflow, run by Mistral as the project's
retention schedule fires it, archives the runs past its bound in the project's Swift (no
secret in the clear) and deletes them from Heat with their configs and containers; archived
runs are read by the pages and the command line, their outputs download, Run Again opens the
form they came from, and deleting one removes its objects. Swift's own listing pages the
archive newest first, forward and back.

It prunes as the schedule would, with a bound that leaves only the latest run of each
server, component and action: the runs other modules left in the demo project go too (a
stack's own deployments never do), as they would in a project with retention on.
"""

import json
import uuid

import pytest

import heat_deploy_runner as runner
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.scheduling import schedules as runner_schedules
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import workflows
from tests.integration.command_line import json_of
from tests.integration.command_line import openstack
from tests.integration import dashboard
from tests.integration import test_schedules
from tests.integration import waiting


def _rotate_keys(heat, find_transport, demo_resources, key):
    """A finished ROTATE_KEYS on the web server, as the form starts one."""
    operation = runner.Operation.new('demo', demo_resources['wordpress'])
    [run] = runner.start(heat, find_transport, runner.RunRequest(
        config_id=demo_resources['wordpress'], action='ROTATE_KEYS', name='wordpress',
        server_ids=[demo_resources['web_server']], input_values={
            'db_dsn': 'mysql://db/demo', 'pause_seconds': 0, 'key_secret': key}),
        operation).created
    return waiting.finished(heat, run.id)


def _prune(mistral, project_id):
    """The retention workflow, run as the project's retention schedule fires it, with a
    bound that keeps only the latest run of each server, component and action."""
    workflow_id = workflows.ensure(mistral, project_id, workflows.RETENTION_WORKFLOW)
    started = mistral.executions.create(workflow_id, workflow_input={
        'keep_latest': 1, 'keep_days': 0, 'keep_at_most': 2000})
    ended = waiting.wait_for('the retention workflow', lambda: (
        lambda found: found if found.state in ('SUCCESS', 'ERROR') else None)(
            mistral.executions.get(started.id)), timeout=120, interval=1)
    assert ended.state == 'SUCCESS', ended.state_info
    return json.loads(ended.output)


@pytest.fixture(scope='module')
def pruned(heat, swift, mistral, session, find_transport, demo_resources):
    """(the run pruned, the run kept, the secret both used, what the workflow said)."""
    key = f'k3y-{uuid.uuid4().hex}'
    old = _rotate_keys(heat, find_transport, demo_resources, key)
    new = _rotate_keys(heat, find_transport, demo_resources, key)
    old_config = heat.software_configs.get(old.config_id)
    said = _prune(mistral, session.get_project_id())
    yield old, new, key, said, old_config
    runner.delete(heat, new.id, find_transport)
    archive.delete(swift, old.id)


def test_the_workflow_archives_the_older_run_and_deletes_what_it_made(
        heat, swift, pruned):
    old, new, key, said, old_config = pruned
    container, _name = signal_location(runner.derived_input_values(old_config))

    assert old.id in said['pruned'] and new.id not in said['pruned'] and said['left'] == []
    deployments = {each.id for each in heat.software_deployments.list()}
    assert old.id not in deployments and new.id in deployments
    assert old.config_id not in {each.id for each in heat.software_configs.list()}
    assert container not in {each['name'] for each in swift.get_account(full_listing=True)[1]}
    # The stack's own deployments are the stack's: never pruned.
    assert all(each.id in deployments for each in heat.software_deployments.list()
               if runner.operation_of_run(each) is None)


def test_the_archive_holds_no_secret_in_the_clear(swift, pruned):
    _old, _new, key, _said, _config = pruned
    _headers, objects = swift.get_container(archive.CONTAINER, full_listing=True)

    assert objects
    for each in objects:
        assert key not in swift.get_object(archive.CONTAINER, each['name'])[1].decode()


def test_the_command_line_shows_an_archived_run_and_its_outputs(cloud, pruned):
    old = pruned[0]
    shown = json_of(openstack(cloud, 'software', 'run', 'show', old.id, '-f', 'json'))
    outputs = json_of(openstack(cloud, 'software', 'run', 'output', old.id, '--all',
                                '-f', 'json'))

    assert (shown['archived'], shown['status'], shown['action']) == (
        True, 'COMPLETE', 'ROTATE_KEYS')
    assert shown['inputs']['key_secret'] == '********'
    assert outputs['deploy_stdout'] == old.output_values['deploy_stdout']


def test_the_pages_show_an_archived_run_its_outputs_download_and_run_again_fills_the_form(
        user, demo_resources, pruned):
    old = pruned[0]
    listed = user.get('/project/deployments/archived/')
    page = user.get(f'/project/deployments/archived/{old.id}/')
    tab = user.get(f'/project/servers/{demo_resources["web_server"]}/'
                   '?tab=server_details__archived')
    download = user.get(f'/project/deployments/archived/{old.id}/outputs/deploy_stdout/')
    rerun = user.get(f'/project/deployments/archived/{old.id}/rerun/', allow_redirects=False)
    operation = user.get(
        f'/project/deployments/operations/{runner.operation_of_run(old).id}/')

    assert f'/project/deployments/archived/{old.id}/' in listed.text
    assert f'/project/deployments/archived/{old.id}/' in tab.text
    assert 'This run is archived' in page.text and 'rotated the secret keys' in page.text
    assert download.text == old.output_values['deploy_stdout']
    # Its operation's page lists it, from the archive.
    assert operation.status_code == 200
    assert f'/project/deployments/archived/{old.id}/?tab=' in operation.text
    assert rerun.status_code == 302
    assert (f'/project/components/{demo_resources["wordpress"]}/run/?action=ROTATE_KEYS'
            in rerun.headers['Location'])


def test_deleting_an_archived_run_removes_its_objects(cloud, swift, heat, find_transport,
                                                      demo_resources, mistral, session):
    gone = _rotate_keys(heat, find_transport, demo_resources, 'k')
    later = _rotate_keys(heat, find_transport, demo_resources, 'k')
    try:
        assert gone.id in _prune(mistral, session.get_project_id())['pruned']
        done = openstack(cloud, 'software', 'run', 'delete', gone.id)
        assert done.returncode == 0, done.stderr
        names = [each['name'] for each in swift.get_container(
            archive.CONTAINER, full_listing=True)[1]]
        assert not any(gone.id in name for name in names)
    finally:
        runner.delete(heat, later.id, find_transport)


def test_swift_pages_the_archive_newest_first_forward_and_back(swift):
    server = f'paging-{uuid.uuid4().hex[:8]}'
    made = [runner.Run(id=str(uuid.uuid4()), server_id=server, config_id='c',
                       action='CHECK', status='COMPLETE',
                       creation_time=f'2026-01-0{day}T00:00:00Z') for day in range(1, 6)]
    for each in made:
        archive.put(swift, each)
    try:
        prefix = archive.server_prefix(server)
        first = archive.page(swift, prefix, 2)
        second = archive.page(swift, prefix, 2, archive.listed_as(first.runs[-1]))
        back = archive.page(swift, prefix, 2, archive.listed_as(second.runs[0]),
                            backwards=True)
        last = archive.page(swift, prefix, 2, archive.listed_as(second.runs[-1]))

        def days(found):
            return ([int(each.creation_time[9]) for each in found.runs], found.has_prev,
                    found.has_more)

        assert days(first) == ([5, 4], False, True)
        assert days(second) == ([3, 2], True, True)
        assert days(back) == ([5, 4], False, True)
        assert days(last) == ([1], True, False)
    finally:
        for each in made:
            archive.delete(swift, each.id)


def test_a_schedule_turns_retention_on_and_the_panel_lists_it(
        user, mistral, demo_resources, made_schedules):
    made = user.post(f'/project/components/{demo_resources["mysql"]}/run/', dict(
        test_schedules.NEVER, servers=[demo_resources['db_server_1']],
        input__backup_dir='retention-on'))
    assert 'Scheduled BACKUP on 1 server.' in dashboard.messages(made.text)
    made_schedules += [each.name for each in mistral.environments.list()
                       if each.variables.get('input_values', {}).get('backup_dir')
                       == 'retention-on']
    page = user.get('/project/schedules/')

    # Made by this schedule, or by an earlier module's first one.
    [trigger] = [each for each in mistral.cron_triggers.list()
                 if each.name == runner_schedules.RETENTION]
    assert trigger.pattern == retention.PATTERN
    assert json.loads(trigger.workflow_input) == {'keep_latest': 5, 'keep_days': 7,
                                                  'keep_at_most': 2000}
    assert f'data-object-id="{runner_schedules.RETENTION}"' in page.text
    assert 'Archive runs past the bound' in page.text
