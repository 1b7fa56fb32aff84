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

"""Live output on the local cloud: runs started with RunRequest(live=True) on the servers
that carry heat-deploy-script-hook (demo-db-2 over TEMP_URL_SIGNAL, demo-mon-1 over
ZAQAR_SIGNED_URL_SIGNAL) show their script's output through the runner's transport while they
run, as snapshots that grow, masked, the signed URLs included; the result arrives as ever,
and deleting the run leaves no live object or queue. A stock server given a live target
sends nothing live and completes as ever."""

import json
from urllib import parse
import uuid

import pytest
from swiftclient import exceptions as swift_exc

import heat_deploy_runner as runner
from heat_deploy_runner.configs import derived
from heat_deploy_runner import masking
from heat_deploy_runner.signalling import live
from heat_deploy_runner.signalling import tempurl
from tests.integration.test_zaqar_signals import _queue_names
from tests.integration import waiting

# Its runs print for a minute or so, which the main lane need not wait for.
pytestmark = pytest.mark.second_cloud

PASSWORD = 'correct-horse-battery'
# Its first line, then it waits for the test to have seen that line live; a line a second,
# then its environment (the signed URLs in it), and a last line.
SCRIPT = '''#!/bin/sh
echo "starting with $password"
tries=0
while [ ! -e "$go_file" ] && [ $tries -lt 600 ]; do sleep 0.1; tries=$((tries+1)); done
for step in 1 2 3 4 5; do echo "step $step"; sleep 1; done
echo "a warning" >&2
env
echo done
'''


@pytest.fixture(scope='module')
def streaming(heat):
    component = heat.software_configs.create(
        name=f'stream-{uuid.uuid4().hex[:8]}', group='component',
        inputs=[{'name': name, 'type': 'String', 'default': ''}
                for name in ('password', 'go_file')],
        config={'configs': [{'actions': ['STREAM'], 'tool': 'script', 'config': SCRIPT}]})
    yield component
    heat.software_configs.delete(component.id)


def _start(heat, find_transport, component, server, transport, go_file):
    made = runner.start(heat, find_transport, runner.RunRequest(
        config_id=component.id, action='STREAM', name=component.name, server_ids=[server],
        transport=transport, live=True,
        input_values={'password': PASSWORD, 'go_file': str(go_file)}))
    assert made.failures == []
    [run] = made.created
    config = heat.software_configs.get(run.config_id)
    return run, config, derived.derived_input_values(config)


def _masked(text, values):
    """The text as the hook masks it: each value deploy_live_secrets names, longest first."""
    secrets = sorted((values[name] for name in json.loads(values[live.LIVE_SECRETS])
                      if len(values[name] or '') >= masking.SCRUBBED_LENGTH),
                     key=len, reverse=True)
    for secret in secrets:
        text = text.replace(secret, masking.MASK)
    return text


def _new_text(before, after, stream='stdout'):
    """What ``after`` holds beyond ``before``, by the sizes (as a reader takes it)."""
    new = getattr(after, f'{stream}_bytes') - getattr(before, f'{stream}_bytes')
    text = getattr(after, stream).encode()
    return text[len(text) - new:].decode()


def _watch(heat, find_transport, run, config, values, go_file):
    """Read the run's live output through its transport while it runs; the finished run and
    its last snapshot."""
    transport = find_transport(values[derived.SIGNAL_TRANSPORT])
    first = waiting.wait_for('the first live snapshot', lambda: transport.live_output(values),
                             timeout=120)
    assert (first.stdout, first.stdout_bytes) == (f'starting with {masking.MASK}\n', 23)
    waiting.wait_for('the first line in live_lines',
                     lambda: transport.live_lines([values]) == [f'starting with {masking.MASK}'])
    assert heat.software_deployments.get(run.id).status == 'IN_PROGRESS'
    go_file.touch()

    # The script writes a line a second: a later snapshot while it still runs holds it.
    later = waiting.wait_for('step 2 live', lambda: (
        lambda snapshot: snapshot if 'step 2\n' in snapshot.stdout else None)(
            transport.live_output(values)), timeout=60, interval=0.2)
    assert heat.software_deployments.get(run.id).status == 'IN_PROGRESS'
    assert later.seq > first.seq and not later.final
    assert later.stdout.startswith(first.stdout)
    assert _new_text(first, later).startswith('step 1\nstep 2\n')
    waiting.wait_for('a later step in live_lines', lambda: transport.live_lines([values])[0]
                     in ('step 2', 'step 3', 'step 4', 'step 5'), timeout=30)

    done = waiting.collected(heat, run.id, config, find_transport, timeout=120)
    assert done.status == 'COMPLETE', done.status_reason
    last = transport.live_output(values)
    assert last.final and last.seq > later.seq
    stdout = _masked(done.output_values['deploy_stdout'], values)
    assert (last.stdout, last.stdout_bytes) == (stdout, len(stdout.encode()))
    assert (last.stderr, last.stderr_bytes) == ('a warning\n', 10)
    assert later.stdout + _new_text(later, last) == last.stdout
    return done, last


def _shows_no_signature(last, values):
    """The script printed its environment: every signed URL's input is in it, masked."""
    names = json.loads(values[live.LIVE_SECRETS])
    signed = [name for name in values if name == tempurl.SIGNAL_ID or 'signature' in name
              or name == live.LIVE_URL]
    assert signed and set(signed) <= set(names)
    for name in signed:
        assert f'{name}={masking.MASK}\n' in last.stdout
        assert values[name] not in last.stdout
    assert PASSWORD not in last.stdout and f'password={masking.MASK}\n' in last.stdout


def test_a_temp_url_runs_output_is_live_in_one_object_gone_with_the_run(
        heat, swift, find_transport, demo_resources, streaming, tmp_path, cleanup):
    run, config, values = _start(heat, find_transport, streaming,
                                 demo_resources['db_server_2'], 'TEMP_URL_SIGNAL',
                                 tmp_path / 'go')
    cleanup.append(run)

    _done, last = _watch(heat, find_transport, run, config, values, tmp_path / 'go')
    _shows_no_signature(last, values)
    container, signal_object = tempurl.signal_location(values)
    listed = {each['name']: each for each in swift.get_container(container)[1]}
    assert live.line_of(listed[live.object_name(signal_object)]['content_type']) == 'done'
    # The object goes by itself with its URL, which Swift's tempurl middleware let through.
    headers = swift.head_object(container, live.object_name(signal_object))
    expires = parse.parse_qs(parse.urlparse(values[live.LIVE_URL]).query)['temp_url_expires']
    assert [headers['x-delete-at']] == expires

    runner.delete(heat, run.id, find_transport)
    cleanup.remove(run)
    with pytest.raises(swift_exc.ClientException) as gone:
        swift.head_object(container, live.object_name(signal_object))
    assert gone.value.http_status == 404


def test_a_zaqar_runs_output_is_live_in_a_queue_of_one_message_gone_with_the_run(
        heat, session, zaqar, find_transport, demo_resources, streaming, tmp_path, cleanup):
    run, config, values = _start(heat, find_transport, streaming,
                                 demo_resources['monitor_server'], 'ZAQAR_SIGNED_URL_SIGNAL',
                                 tmp_path / 'go')
    cleanup.append(run)
    queue = zaqar.queue(values[live.LIVE_QUEUE], auto_create=False)

    _done, last = _watch(heat, find_transport, run, config, values, tmp_path / 'go')
    _shows_no_signature(last, values)
    # Each send deleted the one before through the signed URL: the last alone is left.
    assert [message.body['seq'] for message in queue.messages(echo=True)] == [last.seq]
    assert values[live.LIVE_QUEUE] in _queue_names(session, zaqar)

    runner.delete(heat, run.id, find_transport)
    cleanup.remove(run)
    assert values[live.LIVE_QUEUE] not in _queue_names(session, zaqar)


def test_a_stock_server_given_a_live_target_sends_nothing_live_and_completes(
        heat, swift, find_transport, demo_resources, streaming, tmp_path, cleanup):
    go_file = tmp_path / 'go'
    go_file.touch()
    run, config, values = _start(heat, find_transport, streaming,
                                 demo_resources['db_server_1'], 'TEMP_URL_SIGNAL', go_file)
    cleanup.append(run)
    assert live.is_live(values)

    done = waiting.collected(heat, run.id, config, find_transport, timeout=120)
    assert done.status == 'COMPLETE', done.status_reason
    assert done.output_values['deploy_stdout'].startswith(f'starting with {PASSWORD}\n')
    transport = find_transport('TEMP_URL_SIGNAL')
    assert transport.live_output(values) is None
    assert transport.live_lines([values]) == [None]


def test_a_run_whose_live_object_is_deleted_mid_run_ends_with_its_whole_result(
        heat, swift, find_transport, demo_resources, streaming, tmp_path, cleanup):
    go_file = tmp_path / 'go'
    run, config, values = _start(heat, find_transport, streaming,
                                 demo_resources['db_server_2'], 'TEMP_URL_SIGNAL', go_file)
    cleanup.append(run)
    transport = find_transport('TEMP_URL_SIGNAL')
    waiting.wait_for('the first live snapshot', lambda: transport.live_output(values),
                     timeout=120)
    container, signal_object = tempurl.signal_location(values)
    swift.delete_object(container, live.object_name(signal_object))
    go_file.touch()

    done = waiting.collected(heat, run.id, config, find_transport, timeout=120)
    assert done.status == 'COMPLETE', done.status_reason
    stdout = done.output_values['deploy_stdout']
    assert stdout.startswith(f'starting with {PASSWORD}\nstep 1\n') and stdout.endswith('done\n')
    # The hook's next send made it again: the reader goes on where it was.
    assert transport.live_output(values).final
