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

"""What running runs' live targets hold (signalling/live.py), read by the transport each run's
derived config names: one run's latest snapshot, and the last lines of many, one look per
place where the transport can (a TempURL submit's runs: one listing of their container)."""

from collections.abc import Callable, Mapping

from heat_deploy_runner.configs import derived
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.signalling import live
from heat_deploy_runner.signalling.signals import SignalTransport
from heat_deploy_runner.signalling.transports import transport_of


def latest(config: Mapping, find_transport: Callable[[str], SignalTransport]
           ) -> live.Snapshot | None:
    """The latest snapshot of the run whose derived config is ``config``; None before the
    first, without a live target, or where its transport cannot be had."""
    values = derived.derived_input_values(config)
    transport = transport_of(values, find_transport) if live.is_live(values) else None
    return transport.live_output(values) if transport else None


def last_lines(configs: Mapping[str, Mapping],
               find_transport: Callable[[str], SignalTransport]) -> dict[str, str]:
    """{run id: the last line its live output gave} of the runs (``configs``: {id: its
    derived config}) whose live target holds one; each transport is asked once, for all of
    its runs."""
    by_transport: dict[str, list[tuple[str, dict]]] = {}
    for run_id, config in configs.items():
        values = derived.derived_input_values(config)
        if live.is_live(values):
            by_transport.setdefault(values.get(derived.SIGNAL_TRANSPORT), []).append(
                (run_id, values))
    lines = {}
    for runs in by_transport.values():
        transport = transport_of(runs[0][1], find_transport)
        if transport is None:
            continue
        found = transport.live_lines([values for _run_id, values in runs])
        lines.update({run_id: line for (run_id, _values), line in zip(runs, found) if line})
    return lines


# Why a reader of a running run's output (the command line's --follow) gets no lines yet.
NOT_LIVE = gettext_noop(
    'No lines come until the run ends: it was started without live output (--live), which '
    'a server sends while the script runs when its image has heat-deploy-script-hook.')
SILENT = gettext_noop(
    'No lines have come yet: the script has written none, or the server\'s image lacks '
    'heat-deploy-script-hook, which sends them while the script runs; its output then '
    'comes when the run ends.')
