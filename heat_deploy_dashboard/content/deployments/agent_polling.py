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

"""What a running run's page can say of the server's agent, which sends no word until it has a
result: how long the server has had the run, against how often its agent looks for new runs.

Stock images poll their metadata every 30 s (os-collect-config's default; Heat's metadata sets
none), so the first half minute of a run is the agent not having looked yet, and a run that
never started looks like one that runs long. A cloud whose images poll at another interval says
so in HEAT_DEPLOY_AGENT_POLLING_INTERVAL (seconds).
"""

from django.conf import settings
from django.utils.translation import gettext

from heat_deploy_dashboard.content import times
from heat_deploy_runner.running import runs
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner.signalling.signals import NoSignal

DEFAULT_POLLING_INTERVAL = 30


def polling_interval():
    return getattr(settings, 'HEAT_DEPLOY_AGENT_POLLING_INTERVAL', DEFAULT_POLLING_INTERVAL)


def waiting_note(run):
    """A sentence for a run still waiting on its server, None for any other."""
    if run.status != IN_PROGRESS or run.transport == NoSignal.name:
        return None
    had = runs.duration(run)
    if had is None:
        return None
    interval = polling_interval()
    words = {'had': times.duration(had), 'interval': interval}
    if had.total_seconds() < interval:
        return gettext('The server has had this run for %(had)s. Its agent looks for new runs '
                       'every %(interval)s s, so it may not have started it yet.') % words
    if run.live:
        return gettext('The server has had this run for %(had)s. Its agent looks for new runs '
                       'every %(interval)s s; the lines the script writes show on the Outputs '
                       'tab as the server sends them.') % words
    return gettext('The server has had this run for %(had)s. Its agent looks for new runs '
                   'every %(interval)s s and sends nothing until the run ends: it is still '
                   'running, or the agent has not run it (stopped, or without a hook for the '
                   'action\'s tool).') % words
