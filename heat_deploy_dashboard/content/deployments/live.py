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

"""Live output on a running run's page and on its operation's page: what the run's Outputs tab
shows of it, and what the status poll, which both pages make anyway, adds to its reply.

The run's page sends the byte totals of the streams it shows and gets what is new since
(Snapshot.unseen); the operation's page gets the last line of each of its running rows, in one
look per place (a TempURL submit: one listing of its container). Neither costs a request of
its own, and nothing is read for a run without a live target.
"""

import logging

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content.deployments import agent_polling
from heat_deploy_dashboard.content import errors
import heat_deploy_runner as runner
from heat_deploy_runner.configs import derived
from heat_deploy_runner.running import runs
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner.signalling.signals import NoSignal

LOG = logging.getLogger(__name__)

# What a run's page shows while it runs: its lines as they come, or why none come.
LIVE = 'live'
NOT_LIVE = 'not live'
# A live run whose server sent nothing this long after its agent's polling interval most
# likely runs on an image without the hook: the hook sends within about a second of the
# script's first line.
SILENT_MARGIN_SECONDS = 10
# A row's last line as the poll sends it (the cell shows its start, its title the rest).
LINE_CHARS = 500
STREAMS = ('stdout', 'stderr')
# How an operator adds the hook to an image.
SCRIPT_HOOK_DOC = ('https://docs.openstack.org/heat-deploy-dashboard/latest/install/'
                   'server-images.html#script-hook')


def page_state(run):
    """What the run's Outputs tab shows of live output: LIVE (its lines, as they come),
    NOT_LIVE (one sentence: none come until the end), or None (it has ended, waits for no
    result, or its derived config is gone)."""
    if run.status != IN_PROGRESS or run.config is None or run.transport == NoSignal.name:
        return None
    return LIVE if run.live else NOT_LIVE


def silent_after(run):
    """Seconds from now until a live run's server that has sent nothing says its image may
    lack the hook."""
    waited = agent_polling.polling_interval() + SILENT_MARGIN_SECONDS
    had = runs.duration(run)
    return max(0, int(waited - (had.total_seconds() if had else 0)))


def polled(request, sent, running, rendered, lines):
    """What the status poll adds to its reply: "live", what is new of the run the page names
    in ``sent`` (its "live" and the byte totals it shows), while it runs; "lines", the last
    line of each running rendered row's live output, when the page shows ``lines``.
    ``running``: {id: derived config} of the running runs polled."""
    reply = {}
    asked = sent.get('live')
    if asked in running:
        reply['live'] = output_since(request, running[asked], sent)
    if lines:
        reply['lines'] = last_lines(request, {each: config for each, config in running.items()
                                              if each in rendered})
    return reply


def _count(text):
    try:
        return max(0, int(text))
    except (TypeError, ValueError):
        return 0


def output_since(request, config, sent):
    """What the run's live output holds beyond the byte totals a page shows (``sent``'s
    "stdout_bytes" and "stderr_bytes"): each stream's new text, its total, and the bytes
    between that text and what the page has that no snapshot holds any more; None before the
    server's first send, {"error": sentence} when it could not be read."""
    try:
        snapshot = api.deploy.live_output(request, config)
    except Exception:
        LOG.warning('Could not read the live output of derived config %s', config.get('id'),
                    exc_info=True)
        transport = runner.derived_input_values(config).get(derived.SIGNAL_TRANSPORT)
        return {'error': errors.live_output_failed(transport)}
    if snapshot is None:
        return None
    reply = {'seq': snapshot.seq}
    for stream in STREAMS:
        text, not_shown = snapshot.unseen(stream, _count(sent.get(stream + '_bytes')))
        reply.update({stream: text, stream + '_bytes': getattr(snapshot, stream + '_bytes'),
                      stream + '_not_shown': not_shown})
    return reply


def last_lines(request, configs):
    """{id: the last line its live output gave} of the runs (``configs``: {id: derived
    config}) that gave one; none when it could not be read (the page keeps what it shows)."""
    if not configs:
        return {}
    try:
        found = api.deploy.live_lines(request, configs)
    except Exception:
        LOG.warning('Could not read the last lines of %d runs', len(configs), exc_info=True)
        return {}
    return {each: line[:LINE_CHARS] for each, line in found.items()}
