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

"""heat-deploy-script-hook sending a running script's output to a live target (a local HTTP
server here): in order, masked, coalesced, and never in the way of the run."""

import json
import time

import pytest

from tests.unit.notify import hooks

PASSWORD = 'hunter2-s3cret'
# Three writes more than a second apart: three sends at least, then the final one.
SLOW_SCRIPT = '''#!/bin/sh
echo "one $password"
sleep 1.5
echo two
sleep 1.5
echo three >&2
exit 2
'''


@pytest.fixture
def target():
    live = hooks.LiveTarget()
    yield live
    live.close()


def _joined(bodies, stream):
    return ''.join(body[stream] for body in bodies)


def test_output_goes_to_prefix_objects_in_order_while_the_script_runs(target, tmp_path):
    config = hooks.config(SLOW_SCRIPT, inputs=[
        {'name': 'password', 'value': PASSWORD}, {'name': 'other', 'value': 'not masked'},
        *hooks.swift_inputs(target, secrets=['password'])])

    run = hooks.run_hook(hooks.OURS, config, tmp_path / 'hook')

    requests, bodies = target.requests, target.bodies()
    assert len(requests) >= 3
    assert [request.method for request in requests] == ['PUT'] * len(requests)
    assert [request.path for request in requests] == [
        f'/v1/AUTH_p/live/run-{seq:06d}?temp_url_sig=5ec12e7&temp_url_expires=1900000000&'
        f'temp_url_prefix=run-' for seq in range(1, len(requests) + 1)]
    assert [body['seq'] for body in bodies] == list(range(1, len(bodies) + 1))
    assert [body['final'] for body in bodies] == [False] * (len(bodies) - 1) + [True]
    assert [body['status_code'] for body in bodies] == [None] * (len(bodies) - 1) + [2]
    # The first line went before the script ended.
    assert bodies[0]['stdout'] == 'one ********\n'
    assert _joined(bodies, 'stdout') == 'one ********\ntwo\n'
    assert _joined(bodies, 'stderr') == 'three\n'
    assert {body['skipped_stdout'] + body['skipped_stderr'] for body in bodies} == {0}
    # The result is hook-script's: the script's own output, unmasked.
    assert run.result == {'deploy_stdout': f'one {PASSWORD}\ntwo\n', 'deploy_stderr': 'three\n',
                          'deploy_status_code': 2}


def test_output_goes_to_a_zaqar_queue_as_messages(target, tmp_path):
    config = hooks.config(SLOW_SCRIPT, inputs=hooks.zaqar_inputs(target))

    hooks.run_hook(hooks.OURS, config, tmp_path / 'hook')

    requests = target.requests
    assert len(requests) >= 3
    for request in requests:
        assert (request.method, request.path) == ('POST', '/v2/queues/live-1/messages')
        assert (request.headers['URL-Signature'], request.headers['URL-Methods'],
                request.headers['URL-Paths'], request.headers['URL-Expires'],
                request.headers['X-Project-ID']) == (
            '5ec12e7', 'POST', '/v2/queues/live-1/messages', '2030-01-01T00:00:00', 'p1')
        assert request.headers['Client-ID']
    messages = [json.loads(request.body)['messages'] for request in requests]
    assert {len(each) for each in messages} == {1}
    assert {each[0]['ttl'] for each in messages} == {14 * 24 * 3600}
    bodies = [each[0]['body'] for each in messages]
    assert [body['seq'] for body in bodies] == list(range(1, len(bodies) + 1))
    assert bodies[-1]['final'] is True
    # No secret named: the password goes as it is.
    assert _joined(bodies, 'stdout') == 'one \ntwo\n'


def test_a_chatty_script_makes_at_most_one_bounded_send_a_second(target, tmp_path):
    # 10 MB of numbered lines on stdout, and some stderr, as fast as they come.
    script = ('#!/bin/sh\nseq -w 1 1000000 | sed "s/$/ line/" | head -c 10485760\n'
              'echo last line\necho err >&2\n')
    started = time.monotonic()
    run = hooks.run_hook(hooks.OURS, hooks.config(script, inputs=hooks.swift_inputs(target)),
                         tmp_path / 'hook')
    seconds = time.monotonic() - started

    bodies = target.bodies()
    assert len(run.result['deploy_stdout']) == 10485760 + len('last line\n')
    assert 1 <= len(bodies) <= seconds + 2
    for body in bodies:
        assert len(body['stdout'].encode()) <= 64 * 1024
    assert (sum(len(body['stdout']) + body['skipped_stdout'] for body in bodies)
            == len(run.result['deploy_stdout']))
    assert bodies[-1]['stdout'].endswith('last line\n')
    assert _joined(bodies, 'stderr') == 'err\n'


def test_a_target_that_never_answers_holds_neither_the_script_nor_the_result(target, tmp_path):
    target.server.hold.clear()
    # More than a pipe holds, written while the first send waits for its answer.
    config = hooks.config('#!/bin/sh\necho first\nsleep 0.5\nhead -c 5000000 /dev/zero\n'
                          'echo done >&2\n', inputs=hooks.swift_inputs(target))

    stock = hooks.run_hook(hooks.STOCK, config, tmp_path / 'hook')
    ours = hooks.run_hook(hooks.OURS, config, tmp_path / 'hook')

    # It ended while no send had an answer.
    assert not target.server.hold.is_set() and target.requests
    assert (ours.returncode, ours.result) == (stock.returncode, stock.result)


def test_a_refusal_stops_sending_and_is_logged_once_without_the_url(tmp_path):
    target = hooks.LiveTarget(answer=lambda request: 401)
    try:
        run = hooks.run_hook(hooks.OURS, hooks.config(SLOW_SCRIPT,
                                                      inputs=hooks.swift_inputs(target)),
                             tmp_path / 'hook')
    finally:
        target.close()

    assert len(target.requests) == 1
    [said] = [line for line in run.stderr.splitlines() if '(heat-config.live)' in line]
    assert said.endswith('Live output stopped: send 1 refused (HTTP 401)')
    assert run.result['deploy_stdout'] == 'one \ntwo\n'


def test_a_failed_send_pauses_and_its_text_is_counted_in_the_next(tmp_path):
    answers = iter([503])
    target = hooks.LiveTarget(answer=lambda request: next(answers, 201))
    try:
        run = hooks.run_hook(hooks.OURS, hooks.config(SLOW_SCRIPT,
                                                      inputs=hooks.swift_inputs(target)),
                             tmp_path / 'hook')
    finally:
        target.close()

    # The first send failed; the pause lasts past the script: the final send alone follows.
    first, final = target.bodies()
    assert first['stdout'] == 'one \n'
    assert (final['seq'], final['final'], final['stdout']) == (2, True, 'two\n')
    assert final['skipped_stdout'] == len('one \n')
    [said] = [line for line in run.stderr.splitlines() if '(heat-config.live)' in line]
    assert 'send 1 failed (HTTP 503)' in said


def test_secrets_that_are_not_a_list_of_names_send_nothing(target, tmp_path):
    inputs = hooks.swift_inputs(target)
    inputs.append({'name': 'deploy_live_secrets', 'value': 'password'})

    run = hooks.run_hook(hooks.OURS, hooks.config(SLOW_SCRIPT, inputs=inputs),
                         tmp_path / 'hook')

    assert target.requests == []
    assert 'deploy_live_secrets is not a JSON list of input names' in run.stderr
    assert run.result['deploy_status_code'] == 2
