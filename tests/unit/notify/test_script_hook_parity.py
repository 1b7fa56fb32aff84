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

"""heat-deploy-script-hook and heat-agents' hook-script 13.0.0 side by side on the same
configs: the same environment for the script, the same files, outputs, exit statuses, result
JSON and log lines (but their times and a traceback's frames), live inputs or not."""

import pytest

from tests.unit.notify import hooks

# What the script sees: its environment (NUL-separated, sorted), its folder, its standard
# input, its own file.
ENVIRONMENT_SCRIPT = '''#!/bin/sh
env -0 | sort -z > "$heat_outputs_path.env"
pwd > "$heat_outputs_path.cwd"
cat > "$heat_outputs_path.stdin"
ls -l "$0" | cut -c1-10 > "$heat_outputs_path.mode"
echo "an output" > "$heat_outputs_path.result"
printf 'out \\303\\251 \\377 done\\n'
echo "to stderr" >&2
exit 3
'''

CASES = {
    'text inputs, outputs and a failure': hooks.config(
        ENVIRONMENT_SCRIPT, inputs=[{'name': 'foo', 'value': 'bar baz'},
                                    {'name': 'empty', 'value': ''},
                                    {'name': 'no_value'},
                                    {'name': 'unicode', 'value': 'caf\u00e9 \u2603'}],
        outputs=['result', 'missing']),
    'a dict and a list as JSON': hooks.config(
        '#!/bin/sh\necho "$d|$l"\n', inputs=[{'name': 'd', 'value': {'a': [1, 'x']}},
                                             {'name': 'l', 'value': [1, 2]}]),
    'a number never runs the script': hooks.config(
        '#!/bin/sh\necho ran\n', inputs=[{'name': 'n', 'value': 3}]),
    'a boolean never runs the script': hooks.config(
        '#!/bin/sh\necho ran\n', inputs=[{'name': 'b', 'value': True}]),
    'a null never runs the script': hooks.config(
        '#!/bin/sh\necho ran\n', inputs=[{'name': 'z', 'value': None}]),
    'a script without #!': hooks.config('echo no shebang\n'),
    'no config, no outputs': {'id': 'c2', 'inputs': [], 'outputs': None},
    'a script that succeeds': hooks.config('#!/bin/sh\nprintf "line\\n%.0s" 1 2 3\n'),
    'lots of output on both streams': hooks.config(
        '#!/bin/sh\nhead -c 3000000 /dev/zero | tr "\\0" a\nhead -c 2000000 /dev/zero >&2\n'),
}


@pytest.mark.parametrize('name', CASES)
def test_the_same_as_hook_script(name, tmp_path):
    stock = hooks.run_hook(hooks.STOCK, CASES[name], tmp_path / 'hook')
    stock_files = _files(tmp_path / 'hook')
    ours = hooks.run_hook(hooks.OURS, CASES[name], tmp_path / 'hook')

    assert (ours.returncode, ours.result) == (stock.returncode, stock.result)
    assert hooks.log_lines(ours.stderr) == hooks.log_lines(stock.stderr)
    assert _files(tmp_path / 'hook') == stock_files


def test_the_script_sees_what_hook_script_gives_it(tmp_path):
    # What the parity above compares, made sure it is there to compare.
    ours = hooks.run_hook(hooks.OURS, CASES['text inputs, outputs and a failure'],
                          tmp_path / 'hook')
    environment = (tmp_path / 'hook/outputs/c1.env').read_bytes().split(b'\0')
    assert b'foo=bar baz' in environment and b'empty=' in environment
    assert b'no_value=' in environment
    assert f'heat_outputs_path={tmp_path}/hook/outputs/c1'.encode() in environment
    assert (ours.returncode, ours.result['deploy_status_code']) == (0, 3)
    assert ours.result['result'] == 'an output\n' and 'missing' not in ours.result
    assert ours.result['deploy_stdout'] == 'out \u00e9 \ufffd done\n'
    assert (tmp_path / 'hook/outputs/c1.cwd').read_text() == f'{tmp_path}/hook/working\n'
    assert (tmp_path / 'hook/outputs/c1.mode').read_text() == '-rwx------\n'

    number = hooks.run_hook(hooks.OURS, CASES['a number never runs the script'],
                            tmp_path / 'hook')
    assert (number.returncode, number.result) == (1, None)
    assert number.stderr.splitlines()[-1] == (
        'TypeError: expected str, bytes or os.PathLike object, not int')
    unshebanged = hooks.run_hook(hooks.OURS, CASES['a script without #!'], tmp_path / 'hook')
    assert 'Exec format error' in unshebanged.stderr.splitlines()[-1]


def test_a_script_file_left_by_an_earlier_run_is_written_over_in_place(tmp_path):
    # hook-script opens it without truncating: a longer old file keeps its tail.
    old = hooks.config('#!/bin/sh\necho the old script, longer\n')
    new = hooks.config('#!/bin/sh\necho new\n')
    seen = []
    for hook in (hooks.STOCK, hooks.OURS):
        hooks.run_hook(hook, old, tmp_path / 'hook')
        run = hooks.run_hook(hook, new, tmp_path / 'hook', fresh=False)
        seen.append((run.returncode, run.result, _files(tmp_path / 'hook')))
    assert seen[1] == seen[0]
    assert seen[1][1]['deploy_stdout'] == 'new\n'


def test_live_inputs_change_nothing_the_hook_gives_back(tmp_path):
    target = hooks.LiveTarget()
    try:
        config = hooks.config(ENVIRONMENT_SCRIPT, inputs=[
            {'name': 'password', 'value': 'hunter2-secret'},
            *hooks.swift_inputs(target, secrets=['password'])], outputs=['result'])
        stock = hooks.run_hook(hooks.STOCK, config, tmp_path / 'hook')
        stock_files = _files(tmp_path / 'hook')
        ours = hooks.run_hook(hooks.OURS, config, tmp_path / 'hook')
    finally:
        target.close()

    assert (ours.returncode, ours.result) == (stock.returncode, stock.result)
    assert [line for line in hooks.log_lines(ours.stderr)
            if '(heat-config.live)' not in line] == hooks.log_lines(stock.stderr)
    assert _files(tmp_path / 'hook') == stock_files
    assert target.requests, 'the live target got nothing'


def _files(root):
    return {str(path.relative_to(root)): path.read_bytes()
            for path in sorted(root.rglob('*')) if path.is_file()}
