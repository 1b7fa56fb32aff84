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

"""One run request, from the form to the server: its two released shapes kept in Mistral (the
rolling workflow's input, a schedule's record) are written and read in one place."""

import dataclasses
import inspect

import pytest
import yaml

from heat_deploy_runner.mistral import actions
from heat_deploy_runner import RunRequest
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows import rolling

REQUEST = RunRequest(config_id='component-1', action='BACKUP', server_ids=('s1', 's2'),
                     input_values={'retention_days': 3, 'tables': ['users']},
                     transport='ZAQAR_SIGNED_URL_SIGNAL', timeout_minutes=15, name='mysql',
                     batch_size=1, max_failures=1, retries=2, retry_delay=30)


def _declared_inputs():
    name = workflows.ROLLING_WORKFLOW
    workflow = yaml.safe_load(workflows.definition(name))[name]
    return {next(iter(each)) if isinstance(each, dict) else each for each in workflow['input']}


def test_the_workflow_input_names_only_what_the_released_workflow_declares():
    made = REQUEST.workflow_input('alice', secret_ref='hdd-1')

    assert set(made) <= _declared_inputs()
    assert (made['action_name'], made['server_ids'], made['started_by']) == (
        'BACKUP', ['s1', 's2'], 'alice')
    assert REQUEST.workflow_input('alice')['secret_ref'] is None


def test_the_start_action_takes_the_workflow_input_back_as_the_same_request():
    made = REQUEST.workflow_input('alice')
    taken = {name: made[name] for name in inspect.signature(actions.StartAction).parameters
             if name in made}

    action = actions.StartAction(started_at='2026-11-26T08:00:00Z', **taken)

    # Batches and tries are the workflow's to make: a batch's request has none of its own.
    assert action.run_request() == dataclasses.replace(REQUEST, batch_size=0, max_failures=0,
                                                       retries=0, retry_delay=0)


def test_a_schedules_record_gives_back_the_request_it_keeps():
    assert RunRequest.from_record(REQUEST.record()) == REQUEST


def test_a_record_kept_before_retries_reads_back_as_trying_once():
    record = {key: value for key, value in REQUEST.record().items()
              if key not in ('retries', 'retry_delay')}

    assert RunRequest.from_record(record) == dataclasses.replace(
        REQUEST, retries=0, retry_delay=0)


def test_a_schedules_firing_is_its_request_for_its_owner_leaving_busy_servers_out():
    record = dict(REQUEST.record(), component_name='demo-mysql-x', pattern='0 2 * * *',
                  owner='bob', paused=False, secret_ref='hdd-2', secret_names=['db_password'],
                  server_names={'s1': 'db-1'}, link='https://dash/ops/{operation}/')

    made = workflows.schedule_input(record, 'hdd-2', 'bob')

    assert made == dict(REQUEST.workflow_input('bob', 'hdd-2'), skip_busy=True,
                        schedule='hdd-2', trigger='hdd-2', server_names={'s1': 'db-1'},
                        link='https://dash/ops/{operation}/')
    assert set(made) <= _declared_inputs()
    # A schedule made again fires through a trigger of another name, which it carries.
    again = workflows.schedule_input(dict(record, trigger='hdd-2.5e1f'), 'hdd-2', 'bob')
    assert (again['schedule'], again['trigger']) == ('hdd-2', 'hdd-2.5e1f')


def test_a_schedule_recorded_without_names_or_link_fires_with_none():
    made = workflows.schedule_input(REQUEST.record(), 'hdd-2', 'bob')

    assert (made['server_names'], made['link']) == ({}, None)
    assert set(made) <= _declared_inputs()


@pytest.mark.parametrize('changes, mistral, object_storage, handed', [
    # Batches and tries are the workflow service's alone, with or without it.
    ({'batch_size': 2}, False, True, True),
    ({'retries': 1}, True, True, True),
    # A few servers are started here.
    ({'server_ids': ('s',) * rolling.MAX_STARTED_HERE}, True, True, False),
    # Many go to the workflow service where it is, and its secrets through Object Storage.
    ({'server_ids': ('s',) * (rolling.MAX_STARTED_HERE + 1)}, True, True, True),
    ({'server_ids': ('s',) * (rolling.MAX_STARTED_HERE + 1)}, False, True, False),
    ({'server_ids': ('s',) * (rolling.MAX_STARTED_HERE + 1),
      'input_values': {'db_password': 'x'}}, True, False, False),
    ({'server_ids': ('s',) * (rolling.MAX_STARTED_HERE + 1),
      'input_values': {'db_password': ''}}, True, False, True),
])
def test_who_starts_the_runs(changes, mistral, object_storage, handed):
    request = dataclasses.replace(RunRequest('c', 'BACKUP', ('s',)), **changes)
    assert rolling.hands_over(request, mistral, object_storage) is handed
