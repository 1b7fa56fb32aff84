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

"""The archive of pruned runs in the project's Swift: records, their indexes, and pages of
them newest first."""

import dataclasses
import json

import pytest

from heat_deploy_runner import masking
from heat_deploy_runner import Operation
from heat_deploy_runner.pruning import archive
from heat_deploy_runner import Run

OPERATION = Operation('op-1', 'alice', '2026-11-26T08:00:00Z', source='c')
CONFIG = {'name': 'mysql-BACKUP', 'group': 'component', 'config': 'echo',
          'inputs': [{'name': 'db_password', 'type': 'String', 'value': 'hunter22'},
                     {'name': 'retention_days', 'type': 'Number', 'value': 3},
                     {'name': 'deploy_signal_id', 'type': 'String',
                      'value': 'http://swift/v1/AUTH_p/c/o?temp_url_sig=abc123&x=1'}],
          'outputs': [{'name': 'dump_path'}]}


def _run(number, server='s1', operation=OPERATION, **changed):
    return Run(id=f'00000000-0000-0000-0000-{number:012d}', server_id=server,
               config_id=f'config-{number}', action='BACKUP', status='COMPLETE',
               status_reason='Outputs received',
               creation_time=f'2026-11-{number:02d}T08:00:00Z',
               updated_time=f'2026-11-{number:02d}T08:01:00Z',
               input_values={'heat_deploy_dashboard': operation.as_option()} if operation
               else {},
               output_values={'deploy_stdout': 'password is hunter22\n',
                              'deploy_stderr': '', 'deploy_status_code': 0,
                              'dump_path': '/backups/1'},
               config=CONFIG, **changed)


def test_a_record_reads_back_as_the_run_archived_with_no_secret_in_it(swift):
    run = _run(3)
    archive.put(swift, run)

    body = swift.containers[archive.CONTAINER]['run/' + run.id].decode()
    found = archive.get(swift, run.id)

    assert 'hunter22' not in body and 'abc123' not in body
    assert found.archived and found.operation == OPERATION
    assert (found.id, found.server_id, found.action, found.status, found.name) == (
        run.id, 's1', 'BACKUP', 'COMPLETE', 'mysql-BACKUP')
    assert found.output_values['deploy_stdout'] == f'password is {masking.MASK}\n'
    assert found.output_values['dump_path'] == '/backups/1'
    assert json.loads(body)['format'] == archive.FORMAT


def test_a_run_is_listed_by_server_operation_and_project_newest_first(swift):
    for number, server in ((1, 's1'), (2, 's2'), (3, 's1')):
        archive.put(swift, _run(number, server))
    archive.put(swift, _run(4, 's1', operation=None))

    def listed(prefix):
        return [run.id[-1] for run in archive.page(swift, prefix, 10).runs]

    assert listed(archive.server_prefix('s1')) == ['4', '3', '1']
    assert listed(archive.operation_prefix('op-1')) == ['3', '2', '1']
    assert listed(archive.PROJECT) == ['4', '3', '2', '1']


def test_pages_go_forward_and_back_with_horizons_markers(swift):
    for number in range(1, 8):
        archive.put(swift, _run(number))
    prefix = archive.server_prefix('s1')

    first = archive.page(swift, prefix, 3)
    second = archive.page(swift, prefix, 3, marker=archive.listed_as(first.runs[-1]))
    back = archive.page(swift, prefix, 3, marker=archive.listed_as(second.runs[0]),
                        backwards=True)
    last = archive.page(swift, prefix, 3, marker=archive.listed_as(second.runs[-1]))

    def numbers(found):
        return [int(run.id[-2:]) for run in found.runs], found.has_prev, found.has_more

    assert numbers(first) == ([7, 6, 5], False, True)
    assert numbers(second) == ([4, 3, 2], True, True)
    assert numbers(back) == ([7, 6, 5], False, True)
    assert numbers(last) == ([1], True, False)


def test_a_page_costs_one_listing_and_one_read_per_run_however_long_the_archive(swift):
    for number in range(1, 31):
        archive.put(swift, _run(number))
    swift.calls.clear()

    archive.page(swift, archive.PROJECT, 5, marker=archive.listed_as(_run(20)))

    assert [call[0] for call in swift.calls] == ['get_container'] + ['get_object'] * 5


def test_nothing_archived_is_an_empty_page_and_an_unknown_run_not_found(swift):
    assert archive.page(swift, archive.PROJECT, 5) == archive.Page([], False, False)
    archive.put(swift, _run(1))
    with pytest.raises(LookupError):
        archive.get(swift, 'other')


def test_deleting_an_archived_run_removes_its_record_and_every_index(swift):
    kept, gone = _run(1), _run(2)
    archive.put(swift, kept)
    archive.put(swift, gone)

    assert archive.delete(swift, gone.id)
    assert not archive.delete(swift, gone.id)
    assert sorted(swift.containers[archive.CONTAINER]) == sorted(
        ['run/' + kept.id] + archive.index_names(kept))


def test_a_run_whose_config_is_gone_is_archived_without_it(swift):
    run = dataclasses.replace(_run(1), config=None)
    archive.put(swift, run)

    assert archive.get(swift, run.id).config is None


def test_a_short_secret_is_masked_where_kept_but_not_scrubbed_from_the_outputs(swift):
    config = dict(CONFIG, inputs=[{'name': 'pin_secret', 'type': 'String', 'value': 'on'}])
    archive.put(swift, dataclasses.replace(_run(1), config=config, output_values={
        'deploy_stdout': 'logging on\n'}))

    found = archive.get(swift, _run(1).id)

    assert found.config['inputs'][0]['value'] == masking.MASK
    assert found.output_values['deploy_stdout'] == 'logging on\n'


def test_backwards_without_a_marker_is_the_first_page(swift):
    for number in range(1, 4):
        archive.put(swift, _run(number))

    found = archive.page(swift, archive.PROJECT, 2, backwards=True)

    assert [run.id[-1] for run in found.runs] == ['3', '2'] and found.has_more


def test_records_a_cache_holds_are_not_read_again_and_those_read_are_given(swift):
    for number in range(4):
        archive.put(swift, _run(number))
    first = archive.page(swift, archive.PROJECT, 10)
    kept = dict(first.read)
    reads = len(swift.called('get_object'))

    again = archive.page(swift, archive.PROJECT, 10,
                         cached=lambda run_ids: {each: kept[each] for each in run_ids
                                                 if each in kept})

    assert len(first.read) == 4 and again.read == {}
    assert len(swift.called('get_object')) == reads
    assert [run.id for run in again.runs] == [run.id for run in first.runs]
