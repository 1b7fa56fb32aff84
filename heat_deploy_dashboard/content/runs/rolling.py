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

"""What an operation's page shows of a rolling run (a Mistral execution of heat-deploy-runner's
rolling workflow): how it stands, why it stopped, and the servers it has not started."""

from django.utils.translation import gettext_lazy as _

from heat_deploy_runner import masking
from heat_deploy_runner.running import runs

STATES = {
    'IDLE': _("Starting"),
    'RUNNING': _("Running in batches"),
    'PAUSED': _("Paused"),
    'SUCCESS': _("Every batch has run"),
    'ERROR': _("Stopped"),
    'CANCELLED': _("Cancelled"),
}
# Reloaded this often while servers wait for their batch, so that each batch's runs appear;
# once every server has its run, the status poll follows them and the page is reloaded only
# now and then, for how the execution stands (a reload of 200 rows every 5 s was 13 requests
# in 15 s, and the page lost what its poll had drawn).
REFRESH_SECONDS = 5
STARTED_REFRESH_SECONDS = 30


def reason(execution):
    """Why the rolling run stopped, in a sentence for the user; None while it goes on."""
    said = execution.output
    # The workflow's own sentences: the plan's problem, or the judge's stop.
    for key in ('stop', 'problem'):
        if isinstance(said.get(key), str) and said[key]:
            return said[key]
    if execution.state == 'CANCELLED':
        # "Cancelled by <user> at <time>" where the dashboard or the command line cancelled it.
        said = _("It was cancelled: no further batch starts.")
        return f'{said} {execution.description}' if execution.description else said
    if execution.state != 'ERROR':
        return None
    if 'Failed to find action' in (execution.state_info or ''):
        return _("The workflow service cannot find this dashboard's actions: heat-deploy-runner "
                 "is not installed on its hosts.")
    # Mistral's own state_info holds tracebacks: not for this page.
    return _("The workflow service could not go on with it: its execution %(id)s says why.") % {
        'id': execution.id}


def summary(execution, runs, names):
    """{state, reason, running, batch_size, max_failures, waiting, not_started, busy,
    leaves_out_busy, refresh}: ``waiting``, servers whose batch has not come yet, while it
    runs (for one that leaves out busy servers, ``leaves_out_busy``, some of them may have
    been left out: the workflow says which when it ends); ``busy``, the servers it left out
    because they were still running an earlier run; ``not_started``, the others it ended
    without starting."""
    asked = execution.asked.request
    started = {run.server_id for run in runs}
    busy = [server for server in execution.output.get('skipped') or ()
            if server in asked.server_ids]
    left = [names.get(server) or server for server in asked.server_ids
            if server not in started and server not in busy]
    running = execution.running
    return {
        'state': STATES.get(execution.state, execution.state),
        'reason': reason(execution),
        'running': running,
        'batch_size': asked.batch_size,
        'max_failures': asked.max_failures,
        'waiting': left if running else [],
        'not_started': [] if running else left,
        'busy': [names.get(server) or server for server in busy],
        'leaves_out_busy': asked.leave_out_busy,
        'refresh': (REFRESH_SECONDS if left else STARTED_REFRESH_SECONDS) if running else None,
    }


def asked_inputs(execution):
    """The input values it runs with, as a run's page shows a run's (secrets masked), for
    before its first run exists."""
    given = execution.asked.request.input_values
    return [{'name': name, 'value': runs.display_text(None, masking.mask_value(name, value))}
            for name, value in sorted(given.items())]
