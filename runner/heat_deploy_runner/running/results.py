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

"""Applying a result that Heat does not read itself, the way Heat would.

Heat applies a TEMP_URL_SIGNAL result when it shows a running deployment.
For a transport whose target Heat never reads (ZAQAR_SIGNED_URL_SIGNAL),
the dashboard's status poll does the same work: claim the waiting result,
apply it with Heat's rule while the deployment is still IN_PROGRESS, and
only then consume it. The claim makes this happen once, however many
Horizon workers poll at the same moment; a result that finds the
deployment already finished (cancelled) is released and kept as its late
result. A TempURL result Heat will never apply, as its deployment was updated
after it arrived, is applied the same way (_stranded_applied).
"""

import logging
from collections.abc import Callable, Mapping

from heat_deploy_runner.configs import derived
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.signalling.signals import COMPLETE
from heat_deploy_runner.signalling.signals import FAILED
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner.signalling.signals import SignalTransport
from heat_deploy_runner.signalling.transports import look_place
from heat_deploy_runner.signalling.transports import transport_of
from heat_deploy_runner import times

LOG = logging.getLogger(__name__)

STATUS_CODE = 'deploy_status_code'
OUTPUT_KEYS = ('deploy_stdout', 'deploy_stderr', STATUS_CODE)
# Heat's wording, stored in Heat, so not translated here either.
COMPLETE_REASON = 'Outputs received'
NON_ZERO_REASON = 'Deployment exited with non-zero status code: %s'


def outcome(result: Mapping, declared_outputs, output_values=None
            ) -> tuple[str, str, dict]:
    """(status, status_reason, output_values) for a received result.

    Heat's rule (heat.engine.service_software_config.
    signal_software_deployment): a non-zero deploy_status_code, or a value
    for an output declared ``error_output``, fails the deployment; its
    reason lists each cause. Declared outputs the result carries are kept,
    and the three standard outputs are always set.
    """
    values = dict(output_values or {})
    reasons = {}
    code = result.get(STATUS_CODE)
    if code and str(code) != '0':
        reasons[STATUS_CODE] = NON_ZERO_REASON % code
    for output in declared_outputs or []:
        key = output['name']
        if key in result:
            values[key] = result[key]
            if output.get('error_output', False):
                reasons[key] = result[key]
    for key in OUTPUT_KEYS:
        values[key] = result.get(key)
    if reasons:
        return FAILED, ', '.join(f'{key} : {reason}'
                                 for key, reason in reasons.items()), values
    return COMPLETE, COMPLETE_REASON, values


def may_have_results(configs: Mapping[str, object],
                     find_transport: Callable[[str], SignalTransport],
                     map_=map) -> set[str]:
    """The ids of those running deployments whose result may have arrived; ``configs``: {id:
    its derived config}.

    A run is left out only when its transport could look cheaply and found nothing sent yet
    (SignalTransport.may_have_result); one look serves the runs whose results arrive in one
    place (transports.look_place: a submit's runs share a Swift container, one listing for
    all 200). ``map_`` looks at the places side by side (a pool's map), each on a transport of
    its own: a swiftclient Connection serves one thread. Raises signals.NotAnswering where
    the service the results arrive in does not answer at all: a show in Heat would wait on it
    too.
    """
    def look(runs):
        transport = transport_of(runs[0][1], find_transport)
        if transport is None:
            return [run_id for run_id, _values in runs]
        found = transport.may_have_results([values for _run_id, values in runs])
        return [run_id for (run_id, _values), may in zip(runs, found) if may]
    return {run_id for found in map_(look, places(configs)) for run_id in found}


def places(configs: Mapping[str, object]) -> list[list[tuple[str, dict]]]:
    """The running deployments (``configs``: {id: its derived config}) by the place one look
    tells of their results (transports.look_place), each as [(id, its derived config's input
    values)]: a run looked at alone is a place of its own."""
    found: dict[tuple, list] = {}
    for run_id, config in configs.items():
        values = derived.derived_input_values(config)
        place = look_place(values)
        found.setdefault((values.get(derived.SIGNAL_TRANSPORT),
                          run_id if place is None else place), []).append((run_id, values))
    return list(found.values())


def collect(heat, run: Run, find_transport: Callable[[str], SignalTransport]) -> Run:
    """The run (with its derived config), with a result waiting for the dashboard applied;
    as it is afterwards, with its config.

    Changes nothing unless the run is IN_PROGRESS and its transport holds a result Heat does
    not read itself, or one Heat reads but will never apply (_stranded_applied).
    """
    if run.status != IN_PROGRESS:
        return run
    values = derived.derived_input_values(run.config)
    transport = transport_of(values, find_transport)
    if transport is None:
        return run
    claimed = transport.claim_result(values)
    if claimed is None:
        return _stranded_applied(heat, run, transport, values)
    try:
        current, applied = _applied(heat, run, claimed.result)
    except Exception:
        _quietly(claimed.release, 'release the result', run.id)
        raise
    if applied:
        _quietly(claimed.consume, 'remove the applied result', run.id)
    else:
        # Kept on the queue as the late result of a cancelled run.
        _quietly(claimed.release, 'release the result', run.id)
    return current


def _stranded_applied(heat, run: Run, transport: SignalTransport, values) -> Run:
    """The run, with a result Heat will never apply applied here, once.

    Heat applies a TempURL result when it shows the running deployment, but only while the
    object's Last-Modified (whole seconds) is later than the deployment's updated_at: a
    running deployment updated after its result arrived keeps it IN_PROGRESS for every show
    (SignalTransport.stranded_result). Only such a run costs the look (a GET): a running
    deployment has no updated_time otherwise. Once applied here the deployment is finished,
    so Heat never applies it as well; a cancelled run is not running, and its result stays
    where it is, its late result.
    """
    updated = times.parse_time(run.updated_time)
    if updated is None:
        return run
    result = transport.stranded_result(values, updated)
    if result is None:
        return run
    LOG.info('Deployment %s was updated after its result arrived, which Heat then never '
             'applies: applying it', run.id)
    return _applied(heat, run, result)[0]


def _applied(heat, run: Run, result: Mapping) -> tuple[Run, bool]:
    """(The run as it is afterwards, with its config; whether ``result`` was applied): with
    Heat's rule (outcome), if it is still running when read again."""
    # Read again: a cancel may have landed since the caller read it.
    current = Run.from_heat(heat.software_deployments.get(run.id))
    if current.status != IN_PROGRESS:
        return current.described(run.config), False
    status, reason, outputs = outcome(
        result, derived.as_dict(run.config).get('outputs'), current.output_values)
    return Run.from_heat(heat.software_deployments.update(
        run.id, status=status, status_reason=reason,
        output_values=outputs)).described(run.config), True


def _quietly(step: Callable[[], object], what: str, deployment_id) -> None:
    # The deployment is as Heat has it either way; the message becomes
    # visible again when its claim expires, and the next poll then finds
    # the deployment finished and leaves the message alone.
    try:
        step()
    except Exception:
        LOG.warning('Could not %s of deployment %s', what,
                    deployment_id, exc_info=True)
