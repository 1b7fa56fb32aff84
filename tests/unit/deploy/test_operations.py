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

"""An operation is recorded in each of its runs' derived configs and deployments, and read back
from them."""

import dataclasses
from datetime import datetime
from datetime import timezone

import pytest

from heat_deploy_runner import build_derived_config
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner import FOLLOWED
from heat_deploy_runner import Operation
from heat_deploy_runner import operation_of_run
from heat_deploy_runner import Run
from heat_deploy_runner import RunRequest
from heat_deploy_runner import start
from heat_deploy_runner import transport_for

SOURCE = {'name': 'mysql', 'group': 'script', 'config': 'true', 'inputs': [],
          'options': {'enable_hiera': True}}
OPERATION = Operation('0b6b0f3e-5d6e-4f3a-9a57-0d1f5c1e2a3b', 'demo', '2026-11-23T08:00:00Z',
                      '7c0d1e2f-3a4b-4c5d-8e6f-708192a3b4c5')


def _derived(operation_option=None, source=SOURCE):
    return build_derived_config(source, name='mysql-BACKUP', action='BACKUP', server_id='s1',
                                input_values={}, signal_transport='NO_SIGNAL',
                                operation_option=operation_option)


def test_a_new_operation_has_an_id_its_starter_and_the_utc_time():
    moment = datetime(2026, 11, 23, 9, 30, 5, tzinfo=timezone.utc)
    first, second = Operation.new('demo', 'src', moment), Operation.new('demo', 'src', moment)

    assert (first.started_by, first.started_at, first.source) == (
        'demo', '2026-11-23T09:30:05Z', 'src')
    assert first.id != second.id


def test_the_derived_config_carries_the_operation_beside_the_sources_options():
    config = _derived(OPERATION.as_option())

    assert config['options'] == {'enable_hiera': True, OPERATION_OPTION: OPERATION.as_option()}


def test_a_config_copied_from_a_run_does_not_pass_that_runs_operation_on():
    copied = dict(SOURCE, options=_derived(OPERATION.as_option())['options'])

    assert _derived(source=copied)['options'] == {'enable_hiera': True}


def test_a_run_without_a_readable_operation_has_none():
    for values in (None, {}, {OPERATION_OPTION: 'x'}, {OPERATION_OPTION: {'operation': 'o'}},
                   {OPERATION_OPTION: {'operation': 'o', 'started_by': 7,
                                       'started_at': 'now'}}, ['not', 'a', 'dict']):
        assert operation_of_run(Run('d1', 's1', 'c1', input_values=values)) is None, values


def test_an_operation_kept_before_its_source_was_has_none():
    kept = {key: value for key, value in OPERATION.as_option().items() if key != 'source'}

    assert operation_of_run(Run('d1', 's1', 'c1', input_values={OPERATION_OPTION: kept})
                            ).source is None


def test_every_run_of_one_trigger_carries_the_same_operation(heat):
    source_id = heat.add_config(**SOURCE)

    result = start(
        heat, transport_for, RunRequest(
            config_id=source_id, action='BACKUP', server_ids=['s1', 's2'], transport='NO_SIGNAL'),
        operation=OPERATION)

    assert [run.operation for run in result.created] == [OPERATION, OPERATION]


def test_each_runs_deployment_carries_its_operation_so_a_listing_tells_it(heat):
    source_id = heat.add_config(**SOURCE)

    result = start(
        heat, transport_for, RunRequest(
            config_id=source_id, action='BACKUP', server_ids=['s1', 's2'], transport='NO_SIGNAL'),
        operation=OPERATION)

    assert [operation_of_run(heat.software_deployments.get(d.id))
            for d in result.created] == [OPERATION, OPERATION]
    assert [heat.deployments[d.id]['input_values'] for d in result.created] == [
        {OPERATION_OPTION: OPERATION.as_option()}] * 2


def test_a_run_made_outside_the_dashboard_has_none():
    stack_run = Run('d2', 's1', 'c2', input_values={'db_dsn': 'mysql://db'})

    assert operation_of_run(stack_run) is None
    # What a run's deployment says is all: its config is not read for it.
    assert Run('d1', 's1', 'c1').described(_derived(OPERATION.as_option())).operation is None


def test_which_try_a_run_is_reads_back_from_its_deployment(heat):
    tried = dataclasses.replace(OPERATION, runner=FOLLOWED, try_number=2, tries=3)
    source_id = heat.add_config(**SOURCE)

    [run] = start(heat, transport_for, RunRequest(
        config_id=source_id, action='BACKUP', server_ids=['s1'], transport='NO_SIGNAL'),
        operation=tried).created

    found = operation_of_run(heat.software_deployments.get(run.id))
    assert found == tried and found.followed
    assert not OPERATION.followed
    assert Operation.new('demo', 'src', runner=FOLLOWED).followed


@pytest.mark.parametrize('try_number, tries', [
    (0, 3), (-1, 3), (2, 0), (True, 3), (2, True), ('2', 3), (2, '3'), (1.5, 3), (2, None),
    (None, 3), ([2], 3)])
def test_a_try_count_that_is_not_two_whole_numbers_above_zero_is_none(try_number, tries):
    kept = dict(OPERATION.as_option(), **{'try': try_number, 'tries': tries})

    found = operation_of_run(Run('d1', 's1', 'c1', input_values={OPERATION_OPTION: kept}))

    assert (found.id, found.try_number, found.tries) == (OPERATION.id, None, None)


def test_a_runner_other_than_mistral_is_not_followed():
    kept = dict(OPERATION.as_option(), runner='cron')

    found = operation_of_run(Run('d1', 's1', 'c1', input_values={OPERATION_OPTION: kept}))

    assert found.runner is None and not found.followed
