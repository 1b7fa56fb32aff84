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

"""`--follow` (`software run output`; `component run`, `run create` and `operation
rerun-failed` with --wait): one run's stdout and stderr printed to the command's own as its
server sends them (live output, signalling/live.py), then what of its final output was not
printed yet.

Each snapshot holds the end of each stream and its whole size in bytes: what is new is what
the size grew by since the last one printed (Snapshot.unseen), as on the run's page. Live
output is masked by the server's hook; the final output is scrubbed here of the same secrets
(masking.scrubbed), so that the two line up byte for byte.
"""

import logging

from heat_deploy_runner import masking
from heat_deploy_runner.messages import Message
from heat_deploy_runner.running import live_output
from heat_deploy_runner.running import runs
from heat_deploy_runner.signalling.live import Snapshot
from heat_deploy_runner.signalling.signals import COMPLETE
from heat_deploy_runner.signalling.zaqar import ZaqarSignedUrlSignal

LOG = logging.getLogger(__name__)

# Each stream as live output names it, and the output that holds it once the run has ended.
STREAMS = {'stdout': 'deploy_stdout', 'stderr': 'deploy_stderr'}
# A live run whose server has sent nothing this long after it was made most likely runs on
# an image without the hook (or a script that writes nothing): the agent looks for new runs
# every 30 s, and the hook sends within about a second of the script's first line.
SILENT_SECONDS = 40
# The exit status of a command that stopped following when asked (Ctrl-C), as a shell's.
INTERRUPTED = 130


def exit_status(run):
    """The exit status of a command that followed the run to its end: the exit code its
    server reported; a run that did not complete, without one, exits 1 (as --wait does)."""
    try:
        code = int(runs.exit_code(run))
    except (TypeError, ValueError):
        code = 0
    if run.status != COMPLETE:
        # A shell takes an exit status modulo 256: 256 would read as success.
        return code % 256 or 1
    return code % 256


def stopped(run_id, operation_id=None):
    """What Ctrl-C while following says: the run (or, before it was seen, the operation)
    goes on."""
    if run_id is None:
        return (f'Stopped following; operation {operation_id} goes on (nothing was '
                f'cancelled): `openstack software operation show {operation_id}` says how '
                'it stands.')
    return (f'Stopped following; the run {run_id} goes on (it was not cancelled): '
            f'`openstack software run output {run_id} --follow` follows it again.')


class OutputFollower:
    """Prints one run's output to ``out`` and ``err`` (text streams) as it comes: ``watch``
    each time the run is seen running, ``finish`` once it has ended."""

    def __init__(self, out, err, find_transport):
        self._to = {'stdout': out, 'stderr': err}
        self._find_transport = find_transport
        # The bytes of each stream printed so far, as the streams' sizes count them.
        self._printed = dict.fromkeys(STREAMS, 0)
        self._said = set()
        self._config = None
        # The run followed, once seen.
        self.run_id = None

    def watch(self, run):
        """Print what the run's live output holds that is new; say once why no lines come
        where none do."""
        self.run_id, self._config = run.id, run.config or self._config
        snapshot = self._latest(run) if run.live else None
        if snapshot is not None:
            self._print(snapshot)
            return
        why = _why_no_lines(run)
        if why and not any(self._printed.values()):
            self._say_once(str(Message(why)))

    def finish(self, run):
        """Print what of the ended run's final output was not printed yet, its secrets
        scrubbed as they were from live output."""
        config = run.config or self._config
        secrets = masking.secret_values(config) if config else []
        final = {stream: masking.scrubbed(runs.output_text(run.output_values.get(output)),
                                          secrets)
                 for stream, output in STREAMS.items()}
        self._print(Snapshot(final=True, **final, **{
            stream + '_bytes': len(text.encode()) for stream, text in final.items()}))

    def _latest(self, run):
        try:
            return live_output.latest(run.config, self._find_transport)
        except Exception:
            # The run goes on and its output comes at its end: so does following.
            LOG.debug('Could not read the live output of run %s', run.id, exc_info=True)
            service = ('the messaging service' if run.transport == ZaqarSignedUrlSignal.name
                       else 'Object Storage')
            self._say_once(f'The lines the server sent could not be read: {service} could '
                           'not be reached or answered with an error. Following goes on; '
                           'the whole output comes when the run ends.')
            return None

    def _print(self, snapshot):
        for stream in STREAMS:
            text, not_shown = snapshot.unseen(stream, self._printed[stream])
            if not_shown:
                self._say(f'… {not_shown} bytes not shown live …')
            if text:
                self._to[stream].write(text)
                self._to[stream].flush()
            self._printed[stream] = max(self._printed[stream],
                                        getattr(snapshot, stream + '_bytes'))

    def _say_once(self, sentence):
        if sentence not in self._said:
            self._said.add(sentence)
            self._say(sentence)

    def _say(self, sentence):
        self._to['stderr'].write(f'{sentence}\n')
        self._to['stderr'].flush()


def _why_no_lines(run):
    """Why no lines come while the run goes (a runner message), None while they may."""
    if not run.live:
        return live_output.NOT_LIVE
    had = runs.duration(run)
    if had is not None and had.total_seconds() >= SILENT_SECONDS:
        return live_output.SILENT
    return None
