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

"""Running actions of Heat software configs, without Django.

The one place that builds derived configs and signal URLs. It works on the caller's own
clients: a heatclient v1 Client and, for TEMP_URL_SIGNAL, a swiftclient Connection, for
ZAQAR_SIGNED_URL_SIGNAL a zaqarclient v2 Client. Used alike by the dashboard's forms, the
command line, Mistral's actions, the integration tests and the benchmark.

    find_transport = partial(transport_for, swift=swift)
    started = start(heat, find_transport, RunRequest(config_id=..., action='BACKUP',
                                                     server_ids=[...], input_values={...}))
    cancel(heat, deployment_id, user)
    delete(heat, deployment_id, partial(transport_for, swift=swift))
    collect(heat, run, partial(transport_for, zaqar=zaqar))   # a Run with its config
    expire(heat, run)

These entry points are imported from the package alone (``from heat_deploy_runner import
start``), everything else from its module; the modules import each other directly. The
subpackages, each a layer over the ones before it: configs, signalling, running, components,
workflows, pruning, scheduling, following, outputs; then mistral (Mistral's actions) and osc
(the command line), which use them all (doc/source/contributor/layout.rst).
"""

from heat_deploy_runner.configs.derived import build_derived_config
from heat_deploy_runner.configs.derived import derived_input_values
from heat_deploy_runner.configs.inputs import coerce_input_values
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message
from heat_deploy_runner.running.cancel import cancel
from heat_deploy_runner.running.cancel import is_cancelled
from heat_deploy_runner.running.cancel import late_result
from heat_deploy_runner.running.delete import delete
from heat_deploy_runner.running.expiry import as_timed_out
from heat_deploy_runner.running.expiry import expire
from heat_deploy_runner.running.expiry import is_overdue
from heat_deploy_runner.running.expiry import TIMED_OUT_PREFIX
from heat_deploy_runner.running.operations import FOLLOWED
from heat_deploy_runner.running.operations import Operation
from heat_deploy_runner.running.operations import operation_of_run
from heat_deploy_runner.running.results import collect
from heat_deploy_runner.running.results import may_have_results
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.running.run_request import RunRequest
from heat_deploy_runner.running.settling import settle
from heat_deploy_runner.running.starting import start
from heat_deploy_runner.running.starting import Started
from heat_deploy_runner.signalling.deadlines import deadline
from heat_deploy_runner.signalling.signals import NotAnswering
from heat_deploy_runner.signalling.transports import transport_for
from heat_deploy_runner.signalling.transports import TRANSPORT_NAMES

__all__ = [
    'InputError', 'Message', 'NotAnswering', 'Operation', 'FOLLOWED', 'Run', 'RunRequest',
    'Started',
    'TIMED_OUT_PREFIX', 'TRANSPORT_NAMES', 'as_timed_out', 'build_derived_config', 'cancel',
    'coerce_input_values', 'collect', 'deadline', 'delete', 'derived_input_values', 'expire',
    'is_cancelled', 'is_overdue', 'late_result', 'may_have_results',
    'operation_of_run', 'settle', 'start', 'transport_for',
]
