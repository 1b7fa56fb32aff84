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

"""output_search: lines of many runs' outputs holding a plain text, with where they are."""

import pytest

from heat_deploy_runner import masking
from heat_deploy_runner.outputs import output_search
from heat_deploy_runner import Run


def _run(run_id, stdout='', stderr='', config=None, **outputs):
    return Run(run_id, f'server-{run_id}', f'config-{run_id}', action='BACKUP',
               status='COMPLETE', output_values=dict(
                   outputs, deploy_stdout=stdout, deploy_stderr=stderr,
                   deploy_status_code=0), config=config)


def _lines(found):
    return [(match.run.id, match.output, match.line_number,
             ''.join(text for text, _ in match.pieces)) for match in found.matches]


def test_every_line_holding_the_text_is_found_in_run_output_and_line_order():
    runs = [_run('a', 'starting\nERROR: disk full\ndone\n', 'warning: error ahead'),
            _run('b', 'all fine\n'),
            _run('c', 'no Error here?\n', report='error count 0')]

    found = output_search.search(runs, 'error')

    assert _lines(found) == [('a', 'deploy_stdout', 2, 'ERROR: disk full'),
                             ('a', 'deploy_stderr', 1, 'warning: error ahead'),
                             ('c', 'deploy_stdout', 1, 'no Error here?'),
                             ('c', 'report', 1, 'error count 0')]
    assert (found.total, found.run_ids) == (4, ['a', 'c'])


def test_the_matches_are_marked_in_their_line():
    [match] = output_search.search([_run('a', 'an Error, then error')], 'error').matches

    assert match.pieces == (('an ', False), ('Error', True), (', then ', False),
                            ('error', True))
    assert not (match.cut_before or match.cut_after)


@pytest.mark.parametrize('text', ['[error]', 'a.b*', '(x|y)', '\\d+', '{$ 1+1 $}', '$^'])
def test_the_text_is_plain_not_a_pattern(text):
    runs = [_run('a', f'before {text} after\nab\nxxxx 1\n')]

    assert _lines(output_search.search(runs, text)) == [
        ('a', 'deploy_stdout', 1, f'before {text} after')]


def test_a_long_line_is_shown_around_its_first_match():
    line = 'x' * 5000 + 'NEEDLE' + 'y' * 5000
    [match] = output_search.search([_run('a', line)], 'needle').matches

    shown = ''.join(text for text, _ in match.pieces)
    assert 'NEEDLE' in shown and len(shown) == output_search.LINE_WINDOW
    assert match.cut_before and match.cut_after


def test_past_the_limit_lines_are_counted_not_returned():
    found = output_search.search([_run('a', 'hit\n' * 30)], 'hit', limit=10)

    assert (len(found.matches), found.total) == (10, 30)


def test_a_secret_the_config_knows_is_scrubbed_before_the_search():
    config = {'inputs': [{'name': 'db_password', 'type': 'String', 'value': 'hunter22'}]}
    runs = [_run('a', 'login with hunter22 ok\n', config=config)]

    assert output_search.search(runs, 'hunter22').matches == []
    assert _lines(output_search.search(runs, 'login')) == [
        ('a', 'deploy_stdout', 1, f'login with {masking.MASK} ok')]


@pytest.mark.parametrize('text', ['', ' ', 'a', '  b '])
def test_a_text_too_short_to_mean_anything_is_refused(text):
    with pytest.raises(ValueError):
        output_search.search([_run('a', 'abc')], text)


def test_nul_and_other_control_characters_are_searched_as_text():
    runs = [_run('a', 'bin\x00ary error\x1b[31m red\n')]

    assert _lines(output_search.search(runs, 'error')) == [
        ('a', 'deploy_stdout', 1, 'bin\x00ary error\x1b[31m red')]
