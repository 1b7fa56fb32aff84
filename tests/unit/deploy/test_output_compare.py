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

"""output_compare: servers grouped by what they said, and two outputs line by line."""

import pytest

from heat_deploy_runner.configs import derived
from heat_deploy_runner import Operation
from heat_deploy_runner.outputs import output_compare
from heat_deploy_runner import Run


def _run(run_id, stdout='', server='s1', action='BACKUP', source='mysql',
         created='2026-11-20T10:00:00Z', **outputs):
    operation = Operation(f'op-{run_id}', 'alice', created, source=source)
    return Run(run_id, server, f'config-{run_id}', action=action, status='COMPLETE',
               creation_time=created,
               input_values={derived.OPERATION_OPTION: operation.as_option()},
               output_values=dict(outputs, deploy_stdout=stdout, deploy_stderr='',
                                  deploy_status_code=0))


@pytest.mark.parametrize('text, expected', [
    ('backup at 2026-11-29T01:02:03Z done', 'backup at <time> done'),
    ('2026-11-29 01:02:03.123+00:00 start', '<time> start'),
    ('on 2026-11-29, took 00:01:05', 'on <time>, took <time>'),
    ('run 6f1c1d9e-3a1b-4c2d-9e8f-0a1b2c3d4e5f ok', 'run <id> ok'),
    ('sha 9fceb02d0ae598e95dc970b74767f19372d61af8', 'sha <id>'),
    ('commit deadbeef', 'commit deadbeef'),
    ('port 8080 of 12 hosts', 'port 8080 of 12 hosts'),
])
def test_times_and_ids_are_masked_and_words_and_small_numbers_kept(text, expected):
    assert output_compare.masked(text) == expected


def test_servers_are_grouped_by_what_they_said_the_largest_group_first():
    runs = [_run('a', 'fingerprint AB:CD at 2026-11-29T01:00:01Z'),
            _run('b', 'fingerprint ZZ:ZZ at 2026-11-29T01:00:09Z'),
            _run('c', 'fingerprint AB:CD at 2026-11-29T01:00:02Z'),
            _run('d', 'fingerprint AB:CD at 2026-11-29T01:00:05Z')]

    groups = output_compare.alike(runs, 'deploy_stdout')

    assert [[run.id for run in group.runs] for group in groups] == [['a', 'c', 'd'], ['b']]
    assert groups[0].text == 'fingerprint AB:CD at <time>'
    unmasked = output_compare.alike(runs, 'deploy_stdout', mask=False)
    assert len(unmasked) == 4


def test_a_declared_output_is_grouped_and_a_missing_one_counts_as_nothing_said():
    runs = [_run('a', table_count='2'), _run('b', table_count='3'), _run('c')]

    groups = output_compare.alike(runs, 'table_count')

    assert sorted(group.text for group in groups) == ['', '2', '3']


def test_differences_give_the_changed_lines_with_their_numbers_and_some_context():
    first = '\n'.join(f'line {n}' for n in range(1, 21))
    second = first.replace('line 5', 'line five').replace('line 18\n', '')

    found = output_compare.differences(first, second, context=1)

    changed = [(line.kind, line.left, line.right, line.text) for line in found
               if line is not None and line.kind != ' ']
    assert changed == [('-', 5, None, 'line 5'), ('+', None, 5, 'line five'),
                       ('-', 18, None, 'line 18')]
    # Two changes apart: the lines the same between them are left out once.
    assert found.count(None) == 1
    assert output_compare.differences(first, first) == []


def test_side_by_side_puts_each_changed_line_beside_what_replaced_it():
    first = 'a\nb\nc\nd\ne'
    second = 'a\nB\nc\ne\nf\ng'

    rows = output_compare.side_by_side(output_compare.differences(first, second, context=1))

    shown = [row and (row.kind, row.left and (row.left.left, row.left.text),
                      row.right and (row.right.right, row.right.text)) for row in rows]
    assert shown == [(' ', (1, 'a'), (1, 'a')), ('~', (2, 'b'), (2, 'B')),
                     (' ', (3, 'c'), (3, 'c')), ('-', (4, 'd'), None),
                     (' ', (5, 'e'), (4, 'e')), ('+', None, (5, 'f')), ('+', None, (6, 'g'))]
    # More removed than added: the extra removed lines stand alone, in their order.
    rows = output_compare.side_by_side(output_compare.differences('x\ny\nz', 'X'))
    assert [row.kind for row in rows] == ['~', '-', '-']
    assert [row.left.text for row in rows] == ['x', 'y', 'z']
    # A gap between two changes stays one gap.
    many = '\n'.join(map(str, range(20)))
    rows = output_compare.side_by_side(output_compare.differences(
        many, many.replace('2\n', 'two\n', 1).replace('17', 'seventeen'), context=1))
    assert rows.count(None) == 1


def test_the_previous_run_is_the_same_servers_last_of_the_same_action_and_source():
    run = _run('now', created='2026-11-29T10:00:00Z')
    others = [_run('older', created='2026-11-01T10:00:00Z'),
              _run('previous', created='2026-11-28T10:00:00Z'),
              _run('later', created='2026-11-30T10:00:00Z'),
              _run('other-server', server='s2', created='2026-11-28T12:00:00Z'),
              _run('other-action', action='RESTORE', created='2026-11-28T12:00:00Z'),
              _run('other-source', source='nginx', created='2026-11-28T12:00:00Z'),
              run]

    assert output_compare.previous_run(run, others).id == 'previous'
    assert output_compare.previous_run(_run('first', created='2026-10-01T00:00:00Z'),
                                       others) is None
