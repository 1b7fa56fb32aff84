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

"""The start action, as Mistral's executor receives it (through JSON): the batch's runs
made with the execution as their operation, tries, secret inputs read from the store, bad
input refused, a server that could not start counted."""

import json

from mistral_lib import actions as mistral_actions
import pytest

from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import conclusion
from heat_deploy_runner.running import operations
from heat_deploy_runner.workflows import secret_store
from tests.unit.deploy.mistral.case import EXECUTION_ID


def test_trigger_makes_the_batch_runs_carrying_the_execution_as_operation(
        cloud, context, heat, component):
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2'], 'alice',
                               '2026-11-24T10:00:00Z', name='mysql').run(context)
    assert made['failed_to_start'] == []
    runs = [heat.software_deployments.get(run_id) for run_id in made['deployment_ids']]
    assert [run.server_id for run in runs] == ['s1', 's2']
    assert {operations.operation_of_run(run) for run in runs} == {operations.Operation(
        EXECUTION_ID, 'alice', '2026-11-24T10:00:00Z', component, runner='mistral')}
    assert {heat.configs[run.config_id]['name'] for run in runs} == {'mysql-BACKUP'}


def test_a_try_again_keeps_which_try_its_runs_are_through_mistrals_json(
        cloud, context, heat, component):
    made = _as_mistral_sends_it(actions.StartAction(
        component, 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z', try_number=2,
        tries=3)).run(context)
    only = actions.StartAction(component, 'BACKUP', ['s2'], 'alice', '2026-11-24T10:00:00Z',
                               try_number=1, tries=1).run(context)

    [again] = [operations.operation_of_run(heat.software_deployments.get(run_id))
               for run_id in made['deployment_ids']]
    assert (again.try_number, again.tries, again.followed) == (2, 3, True)
    # An operation that tries each server once keeps the shape runs had before retries.
    [once] = [heat.deployments[run_id]['input_values'] for run_id in only['deployment_ids']]
    assert 'try' not in once[OPERATION_OPTION]


def test_trigger_reads_the_secret_inputs_from_the_store_mistral_never_holds(
        cloud, context, heat, swift, component):
    secret_store.put(swift, 'hdd-1', {'db_password': 'hunter2'})
    made = actions.StartAction(component, 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z',
                               input_values={'backup_dir': 'b'},
                               secret_ref='hdd-1').run(context)
    [run] = [heat.software_deployments.get(run_id) for run_id in made['deployment_ids']]
    given = {each['name']: each.get('value') for each in heat.configs[run.config_id]['inputs']}
    assert (given['db_password'], given['backup_dir']) == ('hunter2', 'b')


def test_trigger_with_its_secrets_gone_starts_nothing(cloud, context, heat, swift, component):
    refused = actions.StartAction(component, 'BACKUP', ['s1'], 'alice',
                                  '2026-11-24T10:00:00Z', secret_ref='hdd-1').run(context)
    assert isinstance(refused, mistral_actions.Result)
    assert 'heat-deploy-secrets/hdd-1' in refused.error
    assert heat.deployments == {}


def test_trigger_refuses_bad_input_as_an_action_error_and_makes_nothing(
        cloud, context, heat, component):
    refused = actions.StartAction(component, ' ', ['s1'], 'alice',
                                  '2026-11-24T10:00:00Z').run(context)
    assert isinstance(refused, mistral_actions.Result)
    assert refused.error == 'Choose an action to run.'
    assert heat.deployments == {}


def test_a_server_that_could_not_start_is_counted_not_raised(cloud, context, heat, component):
    heat.fail('software_deployments.create', RuntimeError('boom'),
              when=lambda **kwargs: kwargs['server_id'] == 's2')
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    assert len(made['deployment_ids']) == 1
    assert made['failed_to_start'] == [[
        's2', 'Could not start BACKUP on server s2: its deployment could not be created.']]


def _as_mistral_sends_it(action):
    """The action as Mistral's executor gets it: its attributes, through JSON."""
    sent = json.loads(json.dumps(vars(action)))
    received = object.__new__(type(action))
    received.__dict__.update(sent)
    return received


def test_trigger_works_as_mistrals_executor_receives_it(cloud, context, heat, component):
    made = _as_mistral_sends_it(actions.StartAction(
        component, 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z', name='mysql',
        input_values={'retention_days': 3})).run(context)

    [run] = [heat.software_deployments.get(run_id) for run_id in made['deployment_ids']]
    assert heat.configs[run.config_id]['name'] == 'mysql-BACKUP'


@pytest.mark.parametrize('action', [
    actions.PlanAction('c1', ['s1'], batch_size=1, skip_busy=True),
    actions.StartAction('c1', 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z'),
    actions.StartAction('c1', 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z',
                        try_number=2, tries=3),
    actions.WaitAction(['d1']),
    actions.JudgeAction(['s1'], 0, [['s1']], 1),
    conclusion.ConcludeAction('c1', 'BACKUP', ['d1'], refused=[['s2', 'why']],
                              not_started=['s3'], schedule='hdd-1',
                              server_names={'s1': 'db'}, link='https://dash/{operation}')])
def test_every_action_travels_as_json(action):
    assert vars(_as_mistral_sends_it(action)) == vars(action)
