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

"""Retention: which runs go past the bound, and pruning them into the archive."""

import datetime
import functools

import pytest

from heat_deploy_runner import derived_input_values
from heat_deploy_runner import Operation
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.pruning import retention
from heat_deploy_runner import Run
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import start
from heat_deploy_runner import transport_for

NOW = datetime.datetime(2026, 11, 27, 12, tzinfo=datetime.timezone.utc)


def _run(number, days_ago, server='s1', action='BACKUP', source='c', status='COMPLETE',
         operation=True):
    started = (NOW - datetime.timedelta(days=days_ago)).strftime('%Y-%m-%dT%H:%M:%SZ')
    kept = Operation(f'op-{number}', 'alice', started, source=source)
    return Run(id=f'run-{number:03d}', server_id=server, config_id=f'c-{number}',
               action=action, status=status, creation_time=started,
               input_values={'heat_deploy_dashboard': kept.as_option()} if operation
               else {})


def _past(found, **policy):
    return [run.id for run in retention.past(found, retention.Policy(**policy), NOW)]


def test_runs_older_than_the_days_and_beyond_the_latest_of_their_kind_go_oldest_first():
    found = [_run(number, days_ago=20 - number) for number in range(1, 11)]

    assert _past(found, keep_latest=3, keep_days=14) == ['run-001', 'run-002', 'run-003',
                                                         'run-004', 'run-005']


def test_the_latest_of_each_server_component_and_action_is_kept_however_old():
    found = [_run(1, 90), _run(2, 80), _run(3, 90, server='s2'), _run(4, 90, action='CHECK'),
             _run(5, 90, source='other'), _run(6, 70, server='s2')]

    assert _past(found, keep_latest=1, keep_days=0) == ['run-001', 'run-003']


def test_a_running_run_and_a_stacks_own_deployment_are_never_pruned():
    found = [_run(1, 30, status='IN_PROGRESS'), _run(2, 30, operation=False), _run(3, 29),
             _run(4, 1)]

    assert _past(found, keep_latest=1, keep_days=7, keep_at_most=0) == ['run-003']


def test_over_the_count_the_oldest_go_even_within_the_days():
    found = [_run(number, days_ago=0, server=f's{number % 2}') for number in range(1, 9)]

    assert _past(found, keep_latest=5, keep_days=7, keep_at_most=5) == [
        'run-001', 'run-002', 'run-003']


def test_a_policy_of_settings_takes_what_it_knows_and_defaults_the_rest():
    assert retention.Policy.of({'keep_days': '3', 'unknown': 1}) == retention.Policy(
        keep_days=3)
    assert retention.Policy.of(None) == retention.Policy()


@pytest.fixture
def old_and_new(heat, swift):
    """A finished run of November 1st and a run of today, of one component on one server:
    at keep_latest 1, the old one is past the bound."""
    source = heat.add_config(name='mysql', inputs=[{'name': 'db_password',
                                                    'type': 'String'}])
    made = []
    for number, day in ((1, '2026-11-01'), (2, '2026-11-27')):
        [run] = start(heat, functools.partial(transport_for, swift=swift), RunRequest(
            config_id=source, action='BACKUP', server_ids=['s1'],
            input_values={'db_password': 'hunter22'}), Operation(
                f'op-{number}', 'alice', f'{day}T00:00:00Z', source=source)).created
        made.append(run)
    heat.deployments[made[0].id].update(creation_time='2026-11-01T00:00:00Z',
                                        status='COMPLETE',
                                        output_values={'deploy_stdout': 'done'})
    return made


def _prune(heat, swift, dry_run=False):
    return retention.prune(heat, swift, functools.partial(transport_for, swift=swift),
                           'project-1', retention.Policy(keep_latest=1, keep_days=7), NOW,
                           dry_run=dry_run)


def test_prune_archives_then_deletes_with_the_config_and_the_container(heat, swift,
                                                                       old_and_new):
    old, new = old_and_new
    container, _object = signal_location(derived_input_values(heat.configs[old.config_id]))

    done = _prune(heat, swift)

    assert [run.id for run in done.runs] == [old.id] and done.leftovers == []
    assert list(heat.deployments) == [new.id]
    assert old.config_id not in heat.configs and container not in swift.containers
    kept = archive.get(swift, old.id)
    assert kept.output_values == {'deploy_stdout': 'done'} and kept.name == 'mysql-BACKUP'
    assert b'hunter22' not in swift.containers[archive.CONTAINER]['run/' + old.id]


def test_a_pruned_run_is_read_from_heat_once(heat, swift, old_and_new):
    # Its config once, to archive it; then the run and its config are deleted.
    old, _new = old_and_new
    before = {name: len(heat.called(name)) for name in (
        'software_deployments.get', 'software_configs.get')}

    _prune(heat, swift)

    assert len(heat.called('software_deployments.get')) == before[
        'software_deployments.get']
    assert [call[1] for call in heat.called('software_configs.get')][
        before['software_configs.get']:] == [(old.config_id,)]


def test_a_dry_run_says_which_and_changes_nothing(heat, swift, old_and_new):
    containers = set(swift.containers)

    done = _prune(heat, swift, dry_run=True)

    assert [run.id for run in done.runs] == [old_and_new[0].id]
    assert len(heat.deployments) == 2 and set(swift.containers) == containers


def test_a_failing_archive_deletes_nothing(heat, swift, old_and_new):
    swift.fail('put_object', RuntimeError('swift down'),
               when=lambda container, name: container == archive.CONTAINER)

    with pytest.raises(RuntimeError):
        _prune(heat, swift)
    assert old_and_new[0].id in heat.deployments
