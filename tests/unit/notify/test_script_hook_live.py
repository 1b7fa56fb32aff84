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
server here): snapshots in order, masked, bounded, and never in the way of the run."""

import datetime
import json
import time
from urllib import parse

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
ZAQAR_PATH = '/v2/queues/live-1/messages'


@pytest.fixture
def target():
    live = hooks.LiveTarget()
    yield live
    live.close()


def _live_notes(run):
    return [line for line in run.stderr.splitlines() if '(heat-config.live)' in line]


def _run_answered(answer, inputs_of, tmp_path):
    """The hook's run of SLOW_SCRIPT, sending to a target that answers each request with
    ``answer``(request), and the target (closed)."""
    target = hooks.LiveTarget(answer=answer)
    try:
        return hooks.run_hook(hooks.OURS, hooks.config(SLOW_SCRIPT, inputs=inputs_of(target)),
                              tmp_path / 'hook'), target
    finally:
        target.close()


def _grows(bodies):
    """Each snapshot holds the one before: its text ends with what is new by the sizes."""
    for before, after in zip(bodies, bodies[1:]):
        for stream in ('stdout', 'stderr'):
            new = after[f'{stream}_bytes'] - before[f'{stream}_bytes']
            assert new >= 0
            text = after[stream].encode()
            assert before[stream].encode() + text[len(text) - new:] == text


def test_each_send_puts_a_snapshot_over_the_one_before(target, tmp_path):
    config = hooks.config(SLOW_SCRIPT, inputs=[
        {'name': 'password', 'value': PASSWORD}, {'name': 'other', 'value': 'not masked'},
        *hooks.swift_inputs(target, secrets=['password'])])

    run = hooks.run_hook(hooks.OURS, config, tmp_path / 'hook')

    requests, bodies = target.requests, target.bodies()
    assert len(requests) >= 3
    assert {(request.method, request.path) for request in requests} == {
        ('PUT', f'{hooks.LIVE_OBJECT}?{hooks.LIVE_QUERY}')}
    assert {request.headers['X-Delete-At'] for request in requests} == {'1900000000'}
    assert [body['seq'] for body in bodies] == list(range(1, len(bodies) + 1))
    assert [body['final'] for body in bodies] == [False] * (len(bodies) - 1) + [True]
    assert [body['status_code'] for body in bodies] == [None] * (len(bodies) - 1) + [2]
    # The first line went before the script ended, masked.
    assert (bodies[0]['stdout'], bodies[0]['stdout_bytes']) == ('one ********\n', 13)
    _grows(bodies)
    assert {key: bodies[-1][key] for key in ('stdout', 'stderr', 'stdout_bytes',
                                             'stderr_bytes')} == {
        'stdout': 'one ********\ntwo\n', 'stderr': 'three\n', 'stdout_bytes': 17,
        'stderr_bytes': 6}
    # The last line of the stream written to last, for a listing to show.
    assert requests[0].headers['Content-Type'] == (
        'application/json; line=one%20%2A%2A%2A%2A%2A%2A%2A%2A')
    assert requests[-1].headers['Content-Type'] == 'application/json; line=three'
    # The result is hook-script's: the script's own output, unmasked.
    assert run.result == {'deploy_stdout': f'one {PASSWORD}\ntwo\n', 'deploy_stderr': 'three\n',
                          'deploy_status_code': 2}


def test_each_send_posts_a_message_and_deletes_the_one_before(target, tmp_path):
    config = hooks.config(SLOW_SCRIPT, inputs=hooks.zaqar_inputs(target))

    hooks.run_hook(hooks.OURS, config, tmp_path / 'hook')

    requests = target.requests
    posts = [request for request in requests if request.method == 'POST']
    assert len(posts) >= 3
    # POST, then DELETE of the message the POST before made (the target names it m<n>).
    made = [f'm{at + 1}' for at, request in enumerate(requests) if request.method == 'POST']
    assert [(request.method, request.path) for request in requests] == [
        ('POST', ZAQAR_PATH)] + [step for gone in made[:-1] for step in (
            ('POST', ZAQAR_PATH), ('DELETE', f'{ZAQAR_PATH}?ids={gone}'))]
    for request in requests:
        assert (request.headers['URL-Signature'], request.headers['URL-Methods'],
                request.headers['URL-Paths'], request.headers['URL-Expires'],
                request.headers['X-Project-ID']) == (
            '5ec12e7', 'POST,DELETE', ZAQAR_PATH, '2030-01-01T00:00:00', 'p1')
        assert request.headers['Client-ID'] == requests[0].headers['Client-ID']
    messages = [json.loads(request.body)['messages'] for request in posts]
    assert {len(each) for each in messages} == {1}
    # Zaqar's longest TTL, the URL's expiry being further off.
    assert {each[0]['ttl'] for each in messages} == {14 * 24 * 3600}
    bodies = [each[0]['body'] for each in messages]
    assert [body['seq'] for body in bodies] == list(range(1, len(bodies) + 1))
    assert bodies[-1]['final'] is True
    _grows(bodies)
    # No secret named: the password goes as it is.
    assert bodies[-1]['stdout'] == 'one \ntwo\n'


@pytest.mark.parametrize('seconds_left, ttl', [(7200, (7190, 7200)), (10, (60, 60)),
                                               (-3600, (60, 60))])
def test_a_message_lives_until_the_url_expires_and_a_minute_at_least(target, tmp_path,
                                                                     seconds_left, ttl):
    expires = (datetime.datetime.now(datetime.timezone.utc)
               + datetime.timedelta(seconds=seconds_left)).strftime('%Y-%m-%dT%H:%M:%S')
    config = hooks.config('#!/bin/sh\necho hi\n', inputs=hooks.zaqar_inputs(target, expires))

    hooks.run_hook(hooks.OURS, config, tmp_path / 'hook')

    sent = [body['messages'][0]['ttl'] for body in target.bodies()]
    assert sent and all(ttl[0] <= each <= ttl[1] for each in sent)


def test_a_failed_delete_changes_nothing(tmp_path):
    run, target = _run_answered(lambda request: 500 if request.method == 'DELETE' else 201,
                                hooks.zaqar_inputs, tmp_path)

    bodies = [body['messages'][0]['body'] for body in target.bodies()]
    assert len(bodies) >= 3
    assert [body['seq'] for body in bodies] == list(range(1, len(bodies) + 1))
    assert bodies[-1]['stdout'] == 'one \ntwo\n'
    assert _live_notes(run) == []


def test_a_chatty_script_makes_at_most_one_bounded_send_a_second(target, tmp_path):
    # 10 MB of numbered lines on stdout, and some stderr, as fast as they come.
    script = ('#!/bin/sh\nseq -w 1 1000000 | sed "s/$/ line/" | head -c 10485760\n'
              'echo last line\necho err >&2\n')
    started = time.monotonic()
    run = hooks.run_hook(hooks.OURS, hooks.config(script, inputs=hooks.swift_inputs(target)),
                         tmp_path / 'hook')
    seconds = time.monotonic() - started

    bodies = target.bodies()
    stdout = run.result['deploy_stdout']
    assert len(stdout) == 10485760 + len('last line\n')
    assert 1 <= len(bodies) <= seconds + 2
    for body in bodies:
        assert len(body['stdout'].encode()) <= 64 * 1024
    final = bodies[-1]
    assert final['stdout_bytes'] == len(stdout)
    assert len(final['stdout']) == 64 * 1024 and stdout.endswith(final['stdout'])
    assert (final['stderr'], final['stderr_bytes']) == ('err\n', 4)
    line = parse.unquote(target.requests[-1].headers['Content-Type'].partition('line=')[2])
    assert line == 'err'


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
    run, target = _run_answered(lambda request: 401, hooks.swift_inputs, tmp_path)

    assert len(target.requests) == 1
    [said] = _live_notes(run)
    assert said.endswith('Live output stopped: send 1 refused (HTTP 401)')
    assert run.result['deploy_stdout'] == 'one \ntwo\n'


def test_a_failed_send_pauses_and_the_next_snapshot_holds_its_text(tmp_path):
    answers = iter([503])
    run, target = _run_answered(lambda request: next(answers, 201), hooks.swift_inputs, tmp_path)

    # The first send failed; the pause lasts past the script: the final send alone follows.
    first, final = target.bodies()
    assert first['stdout'] == 'one \n'
    assert (final['seq'], final['final'], final['stdout'], final['stdout_bytes']) == (
        2, True, 'one \ntwo\n', 9)
    [said] = _live_notes(run)
    assert 'send 1 failed (HTTP 503)' in said


def test_secrets_that_are_not_a_list_of_names_send_nothing(target, tmp_path):
    inputs = hooks.swift_inputs(target)
    inputs.append({'name': 'deploy_live_secrets', 'value': 'password'})

    run = hooks.run_hook(hooks.OURS, hooks.config(SLOW_SCRIPT, inputs=inputs),
                         tmp_path / 'hook')

    assert target.requests == []
    assert 'deploy_live_secrets is not a JSON list of input names' in run.stderr
    assert run.result['deploy_status_code'] == 2
