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

"""heat-deploy-script-hook on the local cloud's servers that carry it: a run's script output
lands in its live target while the script still runs, in order and masked, through a real
Swift prefix TempURL and a real Zaqar pre-signed URL; the result goes to the signal target
as ever."""

import json
from urllib import parse
import uuid

import pytest
from swiftclient import utils as swift_utils

import heat_deploy_runner as runner
from heat_deploy_runner import masking
from heat_deploy_runner import tempurl
from tests.integration import waiting

PASSWORD = 'correct-horse-battery'
LIVE_INPUTS = ('deploy_live_url', 'deploy_live_zaqar_queue', 'deploy_live_zaqar_paths',
               'deploy_live_zaqar_methods', 'deploy_live_zaqar_expires',
               'deploy_live_zaqar_signature', 'deploy_live_secrets')
# Its first line, then it waits for the test to have seen that line live.
SCRIPT = '''#!/bin/sh
echo "starting with $password"
tries=0
while [ ! -e "$go_file" ] && [ $tries -lt 600 ]; do sleep 0.1; tries=$((tries+1)); done
echo "half way"
sleep 1.5
echo "a warning" >&2
echo done
'''


@pytest.fixture(scope='module')
def streaming(heat):
    component = heat.software_configs.create(
        name=f'stream-{uuid.uuid4().hex[:8]}', group='component',
        inputs=[{'name': name, 'type': 'String', 'default': ''}
                for name in ('password', 'go_file', *LIVE_INPUTS)],
        config={'configs': [{'actions': ['STREAM'], 'tool': 'script', 'config': SCRIPT}]})
    yield component
    heat.software_configs.delete(component.id)


def _prefix_temp_url(swift, container, prefix):
    """A PUT TempURL of every object of the container whose name starts with prefix."""
    key = swift.head_account().get(tempurl.KEY_HEADER)
    if not key:
        # The runner's transport sets one the same way when the account has none.
        swift.post_account({tempurl.KEY_HEADER: uuid.uuid4().hex})
        key = swift.head_account()[tempurl.KEY_HEADER]
    storage = parse.urlparse(tempurl.storage_url(swift))
    signed = swift_utils.generate_temp_url(f'{storage.path}/{container}/{prefix}', 600, key,
                                           'PUT', prefix=True)
    return f'{storage.scheme}://{storage.netloc}{signed}'


def _start(heat, find_transport, component, server, transport, go_file, live):
    made = runner.start(heat, find_transport, runner.RunRequest(
        config_id=component.id, action='STREAM', name=component.name, server_ids=[server],
        transport=transport, input_values={
            'password': PASSWORD, 'go_file': str(go_file),
            'deploy_live_secrets': json.dumps(['password']), **live}))
    assert made.failures == []
    [run] = made.created
    return run, heat.software_configs.get(run.config_id)


def _check(heat, find_transport, run, config, go_file, sent):
    """Wait for the first line to be sent live while the run is still running, let the script
    go on, then compare everything sent with the result."""
    first = waiting.wait_for('the first live send', lambda: sent()[:1], timeout=120)
    assert first[0]['stdout'] == f'starting with {masking.MASK}\n'
    assert heat.software_deployments.get(run.id).status == 'IN_PROGRESS'
    go_file.touch()

    done = waiting.collected(heat, run.id, config, find_transport, timeout=120)
    assert done.status == 'COMPLETE', done.status_reason
    bodies = sent()
    assert [body['seq'] for body in bodies] == list(range(1, len(bodies) + 1))
    assert len(bodies) >= 3
    assert [body['final'] for body in bodies] == [False] * (len(bodies) - 1) + [True]
    assert bodies[-1]['status_code'] == 0
    stdout = ''.join(body['stdout'] for body in bodies)
    assert stdout == f'starting with {masking.MASK}\nhalf way\ndone\n'
    assert stdout == done.output_values['deploy_stdout'].replace(PASSWORD, masking.MASK)
    assert ''.join(body['stderr'] for body in bodies) == 'a warning\n'


def test_a_runs_output_goes_to_a_swift_prefix_temp_url_while_it_runs(
        heat, swift, find_transport, demo_resources, streaming, tmp_path, cleanup):
    container, prefix = f'live-{uuid.uuid4().hex[:8]}', 'out-'
    swift.put_container(container)
    go_file = tmp_path / 'go'
    try:
        run, config = _start(heat, find_transport, streaming, demo_resources['db_server_2'],
                             'TEMP_URL_SIGNAL', go_file,
                             {'deploy_live_url': _prefix_temp_url(swift, container, prefix)})
        cleanup.append(run)

        def sent():
            names = [each['name'] for each in swift.get_container(container)[1]]
            return [json.loads(swift.get_object(container, name)[1]) for name in names]

        _check(heat, find_transport, run, config, go_file, sent)
        names = [each['name'] for each in swift.get_container(container)[1]]
        assert names == [f'{prefix}{seq:06d}' for seq in range(1, len(names) + 1)]
    finally:
        for each in swift.get_container(container)[1]:
            swift.delete_object(container, each['name'])
        swift.delete_container(container)


def test_a_runs_output_goes_to_a_zaqar_signed_url_while_it_runs(
        heat, zaqar, find_transport, demo_resources, streaming, tmp_path, cleanup):
    queue = zaqar.queue(f'live-{uuid.uuid4().hex[:8]}', force_create=True)
    signed = queue.signed_url(['messages'], methods=['POST'], ttl_seconds=600)
    go_file = tmp_path / 'go'
    try:
        run, config = _start(heat, find_transport, streaming, demo_resources['monitor_server'],
                             'ZAQAR_SIGNED_URL_SIGNAL', go_file, {
                                 'deploy_live_zaqar_queue': queue.name,
                                 'deploy_live_zaqar_paths': ','.join(signed['paths']),
                                 'deploy_live_zaqar_methods': ','.join(signed['methods']),
                                 'deploy_live_zaqar_expires': signed['expires'],
                                 'deploy_live_zaqar_signature': signed['signature']})
        cleanup.append(run)

        def sent():
            # A handful: one page (Zaqar lists at most 20 at a time), in the order posted.
            return [message.body for message in queue.messages(echo=True, limit=20)]

        _check(heat, find_transport, run, config, go_file, sent)
    finally:
        queue.delete()
