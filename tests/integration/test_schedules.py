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

"""Schedules on the real cloud: Run Action's Repeat makes a Mistral cron trigger; its firings
run through the trust Mistral made from the user (Heat and Swift take its token); the
schedule and its record survive restarts of Horizon and of Mistral's API; pause, change and
delete; a server no longer the project's named on the row; a secret input kept in the
project's Swift, not in Mistral."""

import concurrent.futures
import datetime
import json
import re
import uuid

import pytest

from devcloud import credentials
import heat_deploy_runner as runner
from heat_deploy_runner.scheduling import schedules as runner_schedules
from heat_deploy_runner.workflows import secret_store
from tests.conftest import schedule_operations
from tests.integration import corpus
from tests.integration import dashboard
from tests.integration import test_outages as outages
from tests.integration import waiting

# It stops or restarts services: make test runs it on a cloud of its own (tests/conftest.py).
pytestmark = pytest.mark.second_cloud

EVERY_MINUTE = '* * * * *'
# Mistral fires 1 to 2 s before each minute: the first firing is at most a minute away.
FIRST_FIRING_SECONDS = 70
# Run Action's form for a BACKUP of mysql on the 1st of January at 03:00: not in a test run.
NEVER = {'action': 'BACKUP', 'transport': 'TEMP_URL_SIGNAL', 'timeout': '10',
         'repeat': '0 3 1 1 *', 'input__backup_dir': 'never', 'input__retention_days': '5',
         'input__tables': 'users', 'input__labels': '{}', 'input__pause_seconds': '0',
         'input__backup_file': ''}


def _schedule_rows(user):
    """(the Schedules pages' text, the names of their rows but the project's retention, which
    the first schedule made: test_retention.py). The panel shows a page at a time: its "More"
    links are followed to the last."""
    texts, query = [], ''
    while query is not None:
        page = user.get('/project/schedules/' + query.replace('&amp;', '&'))
        assert page.status_code == 200
        texts.append(page.text)
        more = re.search(r'<a href="(\?marker=[^"]+)"', page.text)
        query = more and more.group(1)
    text = ''.join(texts)
    names = re.findall(r'<tr[^>]*data-object-id="(hdd-[^"]+)"', text)
    return text, [name for name in names if name != runner_schedules.RETENTION]


def _rotate_keys(server, repeat, **fields):
    """Run Action's form for a ROTATE_KEYS of wordpress on the web server, repeated: a run
    of 30 s, which ends well before the next minute's firing."""
    return {'action': 'ROTATE_KEYS', 'servers': [server], 'transport': 'TEMP_URL_SIGNAL',
            'timeout': '10', 'repeat': repeat, 'input__db_dsn': 'mysql://db/demo',
            'input__cache_size_mb': '32', 'input__pause_seconds': '30',
            'input__key_secret': '', **fields}


def _operation_runs(heat, operation):
    return [run for run in heat.software_deployments.list()
            if getattr(runner.operation_of_run(run), 'id', None) == operation]


def _ended(mistral, operation, what):
    def finished():
        execution = mistral.executions.get(operation)
        return execution if execution.state in ('SUCCESS', 'ERROR') else None
    execution = waiting.wait_for(what, finished, timeout=120)
    assert execution.state == 'SUCCESS', execution.state_info


def test_a_schedule_every_minute_survives_restarts_and_a_pause_change_and_delete_mid_firing(
        cloud, session, keystone, user, mistral, heat, swift, demo_resources, made_schedules):
    """Paused while batch 1 of its firing runs, then deleted while batch 2 runs: the firing
    goes on to its end (the trigger, and the trust Mistral acts through, are kept until
    then), then releases the trigger; nothing fires after. Another schedule, changed while its
    firing runs (the same minute, on the web server): its firing goes on as it was, then
    releases the old trigger; the change's new trigger stays."""
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]

    def trusts():
        return {each.id for each in keystone.trusts.list(trustor_user=session.get_user_id())}
    trusts_before = trusts()
    triggers_before = {each.name for each in mistral.cron_triggers.list()}
    _page, before = _schedule_rows(user)
    created_at = datetime.datetime.now(datetime.timezone.utc)
    response = user.post(f'/project/components/{demo_resources["mysql"]}/run/', {
        'action': 'BACKUP', 'servers': servers, 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '10', 'repeat': EVERY_MINUTE, 'batch_size': '1', 'max_failures': '0',
        'input__backup_dir': 'scheduled', 'input__retention_days': '5',
        'input__tables': 'users', 'input__labels': '{}', 'input__pause_seconds': '12',
        'input__backup_file': ''})
    assert 'Scheduled BACKUP on 2 servers.' in dashboard.messages(response.text)
    assert response.url.endswith('/project/schedules/')
    [name] = set(_schedule_rows(user)[1]) - set(before)
    made_schedules.append(name)
    response = user.post(f'/project/components/{demo_resources["wordpress"]}/run/',
                         _rotate_keys(demo_resources['web_server'], EVERY_MINUTE))
    assert 'Scheduled ROTATE_KEYS on 1 server.' in dashboard.messages(response.text)
    [changed] = set(_schedule_rows(user)[1]) - set(before) - {name}
    made_schedules.append(changed)

    # Horizon and Mistral's API restarted while they wait: the schedules are Mistral's, and
    # their firings come from Mistral's engine.
    outages.restart(cloud, 'horizon')
    outages.restart(cloud, 'mistral-api')
    user.login()
    assert {name, changed} <= set(_schedule_rows(user)[1])

    def fired(schedule):
        found = schedule_operations(mistral, schedule)
        return found and next(iter(found))
    operation = waiting.wait_for('the first firing', lambda: fired(name),
                                 timeout=FIRST_FIRING_SECONDS + 30)
    fired_at = datetime.datetime.now(datetime.timezone.utc)
    assert (fired_at - created_at).total_seconds() <= FIRST_FIRING_SECONDS + 5
    changed_operation = waiting.wait_for('the other firing', lambda: fired(changed),
                                         timeout=30)

    waiting.wait_for('batch 1', lambda: _operation_runs(heat, operation), timeout=30)
    response = user.post('/project/schedules/', {'action': f'schedules__pause__{name}'})
    assert 'The firing now running goes on; no more firings.' in dashboard.messages(
        response.text)
    assert name in {each.name for each in mistral.cron_triggers.list()}

    def row_shows_the_running_firing():
        text, _rows = _schedule_rows(user)
        row = text[text.index(f'data-object-id="{name}"'):]
        row = row[:row.index('</tr>')]
        assert 'Paused' in row, row
        return f'/project/deployments/operations/{operation}/' in row
    # The trigger kept for the running firing may fire once more at the minute: that
    # firing is the row's latest until its plan, seconds later, finds it retired.
    waiting.wait_for('the paused row to link to its running firing',
                     row_shows_the_running_firing, timeout=30, interval=1)

    waiting.wait_for('the other run', lambda: _operation_runs(heat, changed_operation),
                     timeout=30)
    old_trigger = runner_schedules.trigger_of(
        changed, mistral.environments.get(changed).variables)
    response = user.post(f'/project/schedules/{changed}/change/', _rotate_keys(
        demo_resources['web_server'], NEVER['repeat'], input__cache_size_mb='128'))
    assert ('The firing now running goes on as it was; the next firing runs the change.'
            in dashboard.messages(response.text))
    new_trigger = runner_schedules.trigger_of(
        changed, mistral.environments.get(changed).variables)
    assert new_trigger != old_trigger
    assert {old_trigger, new_trigger} <= {each.name for each in mistral.cron_triggers.list()}

    waiting.wait_for('batch 2', lambda: len(_operation_runs(heat, operation)) == 2,
                     timeout=120)
    response = user.post('/project/schedules/', {'action': f'schedules__delete__{name}'})
    assert 'The firing now running goes on; no more firings.' in dashboard.messages(
        response.text)
    assert name not in _schedule_rows(user)[1]

    _ended(mistral, operation, 'the paused and deleted firing to end')
    runs = _operation_runs(heat, operation)
    assert sorted(run.server_id for run in runs) == sorted(servers)
    for run in runs:
        run = heat.software_deployments.get(run.id)
        assert run.status == 'COMPLETE', run.status_reason
        assert run.output_values['backup_file'].startswith('scheduled/backup-')
    # Released at its end: no trigger, no record, and no firing after it ran anything.
    assert not [each for each in mistral.cron_triggers.list() if each.name.startswith(name)]
    assert name not in {each.name for each in mistral.environments.list()}
    every_run = [run for run in heat.software_deployments.list()
                 if getattr(runner.operation_of_run(run), 'id', None)
                 in schedule_operations(mistral, name)]
    assert len(every_run) == 2

    _ended(mistral, changed_operation, 'the changed firing to end')
    [run] = [heat.software_deployments.get(run.id)
             for run in _operation_runs(heat, changed_operation)]
    assert run.status == 'COMPLETE', run.status_reason
    inputs = {each['name']: each.get('value')
              for each in heat.software_configs.get(run.config_id).inputs}
    # As it was (the change asks 128): Heat keeps a config's input values as given.
    assert inputs['cache_size_mb'] == '32'
    triggers = {each.name: each.pattern for each in mistral.cron_triggers.list()
                if each.name.startswith(changed)}
    assert triggers == {new_trigger: NEVER['repeat']}
    # Of the triggers' trusts, only those of the triggers left stay: the change's, and the
    # project's retention schedule's where the first schedule made it.
    left = {each.name for each in mistral.cron_triggers.list()} - triggers_before
    assert new_trigger in left
    assert len(trusts() - trusts_before) == len(left) and not trusts_before - trusts()


def test_another_project_and_the_admin_neither_see_nor_change_a_schedule(
        cloud, user, mistral, demo_resources, made_schedules):
    response = user.post(f'/project/components/{demo_resources["mysql"]}/run/',
                         dict(NEVER, servers=[demo_resources['db_server_1']]))
    assert 'Scheduled BACKUP on 1 server.' in dashboard.messages(response.text)
    [name] = [each.name for each in mistral.environments.list()
              if each.variables.get('input_values', {}).get('backup_dir') == 'never']
    made_schedules.append(name)
    for who, password in ((credentials.OTHER_USER, credentials.OTHER_PASSWORD),
                          ('admin', credentials.ADMIN_PASSWORD)):
        intruder = corpus.User(cloud.layout.dashboard_url, who, password)
        page = intruder.get('/project/schedules/')
        assert page.status_code == 200 and name not in page.text, who
        for action in ('pause', 'resume', 'delete'):
            intruder.post('/project/schedules/', {'action': f'schedules__{action}__{name}'})
        assert intruder.get(f'/project/schedules/{name}/change/').status_code == 404, who
        changed = intruder.post(f'/project/schedules/{name}/change/', dict(
            NEVER, servers=[demo_resources['db_server_1']], repeat='0 4 1 1 *'))
        assert changed.status_code == 404, who
        assert name in {each.name for each in mistral.cron_triggers.list()}, who
        record = mistral.environments.get(name).variables
        assert (record['paused'], record['pattern']) == (False, '0 3 1 1 *'), who
    assert name in _schedule_rows(user)[1]


def test_a_change_makes_a_new_trigger_and_a_gone_server_is_named_on_its_row(
        cloud, user, mistral, demo_resources, made_schedules):
    url = f'/project/components/{demo_resources["mysql"]}/run/'
    response = user.post(url, dict(NEVER, servers=[demo_resources['db_server_1']],
                                   input__backup_dir='before'))
    assert 'Scheduled BACKUP on 1 server.' in dashboard.messages(response.text)
    [name] = [each.name for each in mistral.environments.list()
              if each.variables.get('input_values', {}).get('backup_dir') == 'before']
    made_schedules.append(name)
    form = user.get(f'/project/schedules/{name}/change/')
    assert 'value="0 3 1 1 *"' in form.text and 'value="before"' in form.text

    response = user.post(f'/project/schedules/{name}/change/', dict(
        NEVER, servers=[demo_resources['db_server_1'], demo_resources['db_server_2']],
        repeat='15 4 * * 1', input__backup_dir='after'))
    assert 'Changed the schedule of BACKUP.' in dashboard.messages(response.text)
    record = mistral.environments.get(name).variables
    # A new trigger, the old one gone: no firing of it ran.
    [made] = [each for each in mistral.cron_triggers.list() if each.name.startswith(name)]
    assert made.name == record['trigger'] != name
    assert made.pattern == '15 4 * * 1'
    assert json.loads(made.workflow_input)['input_values']['backup_dir'] == 'after'
    assert record['server_ids'] == [demo_resources['db_server_1'],
                                    demo_resources['db_server_2']]

    # A server deleted since (here: an id that never was the project's) is named on the row.
    gone = str(uuid.uuid4())
    mistral.environments.update(name=name, variables=dict(
        record, server_ids=record['server_ids'] + [gone]))
    text, _rows = _schedule_rows(user)
    row = text[text.index(f'data-object-id="{name}"'):]
    assert f"Not among the project&#x27;s servers any more: {gone}" in row[:row.index('</tr>')]


def test_a_schedules_secret_is_kept_in_swift_not_mistral_and_goes_with_it(
        user, mistral, swift, demo_resources, made_schedules):
    key = f'k3y-{uuid.uuid4().hex}'
    response = user.post(f'/project/components/{demo_resources["wordpress"]}/run/', {
        'action': 'ROTATE_KEYS', 'servers': [demo_resources['web_server']],
        'transport': 'TEMP_URL_SIGNAL', 'timeout': '10', 'repeat': NEVER['repeat'],
        'input__db_dsn': 'mysql://db/demo', 'input__cache_size_mb': '64',
        'input__pause_seconds': '0', 'input__key_secret': key})
    assert 'Scheduled ROTATE_KEYS on 1 server.' in dashboard.messages(response.text)
    [name] = [each.name for each in mistral.environments.list()
              if each.variables.get('action') == 'ROTATE_KEYS'
              and each.variables.get('secret_names') == ['key_secret']]
    made_schedules.append(name)
    record = mistral.environments.get(name).variables
    [made] = [each for each in mistral.cron_triggers.list() if each.name == name]
    assert key not in json.dumps(record) and key not in made.workflow_input
    ref = record['secret_ref']
    assert ref.startswith(name + '/') and json.loads(made.workflow_input)['secret_ref'] == ref
    headers, body = swift.get_object(secret_store.CONTAINER, ref)
    assert json.loads(body) == {'key_secret': key} and 'x-delete-at' not in headers

    text, _rows = _schedule_rows(user)
    row = text[text.index(f'data-object-id="{name}"'):]
    assert 'key_secret = ********' in row[:row.index('</tr>')] and key not in text
    # Its Change form shows it, as Run Action shows what is typed.
    assert f'value="{key}"' in user.get(f'/project/schedules/{name}/change/').text

    user.post('/project/schedules/', {'action': f'schedules__delete__{name}'})
    assert ref not in {each['name'] for each in swift.get_container(
        secret_store.CONTAINER, full_listing=True)[1]}


def test_more_schedules_than_mistral_answers_in_a_page_are_all_listed(
        user, mistral, demo_resources):
    """Mistral answers 1,000 rows a list, and takes no marker for environments (it wants a
    UUID, then looks it up by name): the page must still show every schedule. Records alone
    (no triggers, so no trusts): that is what the page pages through."""
    record = {'component_id': demo_resources['mysql'], 'component_name': 'mysql',
              'run_name': 'mysql', 'action': 'BACKUP', 'server_ids': [], 'input_values': {},
              'transport': 'TEMP_URL_SIGNAL', 'timeout_minutes': 10, 'pattern': NEVER['repeat'],
              'once_at': None, 'owner': 'demo', 'paused': True}
    names = [f'hdd-{uuid.uuid4()}' for _each in range(1001)]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda name: mistral.environments.create(
            name=name, variables=record, scope='private'), names))
    try:
        _page, rows = _schedule_rows(user)
        assert set(names) <= set(rows), f'{len(set(names) - set(rows))} not listed'
    finally:
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(mistral.environments.delete, names))
