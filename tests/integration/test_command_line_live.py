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

"""`openstack software component run ... --live --wait --follow` on the local cloud, as an
operator types it: mysql's TAIL_LOG (a line a second for about a minute) on demo-db-2, whose
image has heat-deploy-script-hook, prints its lines while the run goes, in the order of its
final output, none lost or doubled; on demo-db-1 (heat-agents' stock hook) it says once why
no lines come, then prints the final output. Both exit with the run's exit code."""

import codecs
import os
import re
import selectors
import subprocess
import time

import pytest

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud.services import identity
import heat_deploy_runner as runner
from heat_deploy_runner import Message
from heat_deploy_runner.running import live_output

# Its runs print for a minute or so, which the main lane need not wait for.
pytestmark = pytest.mark.second_cloud

# A bound on the whole command: TAIL_LOG takes about a minute once the agent has it.
COMMAND_SECONDS = 600


class Followed:
    """`component run mysql TAIL_LOG --server SERVER --live --wait --follow`, read as it
    prints: ``events`` is (stream, text) in the order they came; ``at_first`` the run's
    status in Heat, and the stdout printed, when ``stream`` first held ``awaited``."""

    def __init__(self, cloud, heat, server, stream, awaited=''):
        self.heat, self.stream, self.awaited = heat, stream, awaited
        self.events, self.at_first, self.run = [], None, None
        env = dict(os.environ, **identity.cli_environment(
            cloud.layout, credentials.DEMO_USER, credentials.DEMO_PASSWORD,
            credentials.DEMO_PROJECT))
        self.process = subprocess.Popen(
            [layout_mod.venv_bin('openstack'), 'software', 'component', 'run', 'mysql',
             'TAIL_LOG', '--server', server, '--live', '--wait', '--follow'],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def read(self):
        streams = {self.process.stdout: 'stdout', self.process.stderr: 'stderr'}
        # A read may end inside a character.
        decoders = {pipe: codecs.getincrementaldecoder('utf-8')() for pipe in streams}
        with selectors.DefaultSelector() as selector:
            for pipe in streams:
                selector.register(pipe, selectors.EVENT_READ)
            deadline = time.monotonic() + COMMAND_SECONDS
            while selector.get_map():
                ready = selector.select(timeout=max(0, deadline - time.monotonic()))
                if not ready:
                    self.process.kill()
                    pytest.fail(f'The command was still running after {COMMAND_SECONDS} s: '
                                f'{self.events}')
                for key, _mask in ready:
                    data = os.read(key.fileobj.fileno(), 65536)
                    if not data:
                        selector.unregister(key.fileobj)
                        continue
                    self._came(streams[key.fileobj], decoders[key.fileobj].decode(data))
        return self.process.wait()

    def _came(self, stream, text):
        self.events.append((stream, text))
        self.run = self.run or self._run()
        if self.run and self.at_first is None and stream == self.stream and (
                self.awaited in self.text(stream)):
            # Shown, not listed: a show applies a result that has arrived.
            self.at_first = (self.heat.software_deployments.get(self.run.id).status,
                             self.text('stdout'))

    def _run(self):
        """The run of the operation the command says first ("Following operation ID."), once
        said."""
        said = re.search(r'Following operation (\S+)\.\n', self.text('stderr'))
        if not said:
            return None
        [run] = [each for each in self.heat.software_deployments.list()
                 if getattr(runner.operation_of_run(each), 'id', None) == said.group(1)]
        return run

    def text(self, stream):
        return ''.join(text for each, text in self.events if each == stream)


def _ended(heat, followed, cleanup):
    """(the command's exit status, the run as it ended)."""
    try:
        exits = followed.read()
    finally:
        if followed.process.poll() is None:
            followed.process.kill()
        if followed.run:
            cleanup.append(followed.run)
    return exits, heat.software_deployments.get(followed.run.id)


def test_a_hooked_servers_lines_come_while_it_runs_in_the_order_of_its_output(
        cloud, heat, demo_resources, cleanup):
    followed = Followed(cloud, heat, 'demo-db-2', 'stdout')

    exits, run = _ended(heat, followed, cleanup)

    assert (run.status, exits) == ('COMPLETE', run.output_values['deploy_status_code'])
    status, printed_then = followed.at_first
    assert status == 'IN_PROGRESS' and 'checkpoint 1 of 60' in printed_then
    printed = followed.text('stdout')
    # Every line once, in order: what came live and the rest after it make the output.
    assert printed == run.output_values['deploy_stdout']
    assert len(printed.splitlines()) == 61
    assert 'not shown live' not in followed.text('stderr')
    assert followed.text('stderr').endswith('demo-db-2: COMPLETE, exit code 0\n')


def test_a_stock_server_says_why_no_lines_come_then_prints_the_output(
        cloud, heat, demo_resources, cleanup):
    sentence = f'{Message(live_output.SILENT)}\n'
    followed = Followed(cloud, heat, 'demo-db-1', 'stderr', awaited=sentence)

    exits, run = _ended(heat, followed, cleanup)

    assert (run.status, exits) == ('COMPLETE', run.output_values['deploy_status_code'])
    assert followed.text('stderr').count(sentence) == 1
    # Said while the run went, before any line; then the whole output, at its end.
    assert followed.at_first == ('IN_PROGRESS', '')
    assert followed.text('stdout') == run.output_values['deploy_stdout']
