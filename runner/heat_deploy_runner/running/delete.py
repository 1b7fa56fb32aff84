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

"""Delete a deployment with everything its run made.

The CLI deletes the deployment and its config but leaves the Swift
container behind; here the signal target goes too. Order matters: Heat
refuses to delete a config a deployment still uses, and the config is
what says where the signal target is, so it is read before anything goes.
"""

from collections.abc import Callable
import logging

from heatclient import exc as heat_exc

from heat_deploy_runner.configs import derived
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import Message
from heat_deploy_runner.running.cancel import is_cancelled
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner.signalling.signals import SignalTransport
from heat_deploy_runner.signalling.transports import transport_of

LOG = logging.getLogger(__name__)

CONFIG_LEFT = gettext_noop(
    'The deployment %(deployment_id)s was deleted, but its configuration '
    '%(config_id)s could not be.')
SIGNAL_LEFT = gettext_noop(
    'The deployment %(deployment_id)s was deleted, but the place its '
    'result was sent to could not be removed.')


def delete(heat, deployment_id: str,
           find_transport: Callable[[str], SignalTransport]) -> list[Message]:
    """Delete the deployment, its derived config and its signal target.

    Anything already gone is skipped. Failing to read or delete the
    deployment raises heatclient's error unchanged; once the deployment is
    gone, a leftover config or signal target is logged and returned as a
    Message instead, since the deletion the user asked for did happen.
    ``find_transport`` maps a transport name to a transport, e.g.
    ``functools.partial(transports.transport_for, swift=connection)``.
    """
    try:
        deployment = Run.from_heat(heat.software_deployments.get(deployment_id))
    except heat_exc.HTTPNotFound:
        return []
    config = derived.config_or_none(heat, deployment.config_id)
    return delete_read(heat, deployment.described(config and derived.as_dict(config)),
                       find_transport)


def delete_read(heat, deployment: Run,
                find_transport: Callable[[str], SignalTransport]) -> list[Message]:
    """As delete, for a run the caller has just read with its config (Run.described; None
    when gone): retention reads both to archive a run that has ended, and reading them again
    was two of the five Heat calls a pruned run cost."""
    deployment_id = deployment.id
    config = deployment.config
    try:
        heat.software_deployments.delete(deployment_id)
    except heat_exc.HTTPNotFound:
        pass

    if config is None or not derived.is_derived_for(
            config, deployment.server_id):
        return []
    leftovers = []
    params = {'deployment_id': deployment_id,
              'config_id': deployment.config_id}
    try:
        heat.software_configs.delete(deployment.config_id)
    except heat_exc.HTTPNotFound:
        pass
    except Exception:
        LOG.warning('Could not delete config %s of deployment %s',
                    deployment.config_id, deployment_id, exc_info=True)
        leftovers.append(Message(CONFIG_LEFT, params))

    values = derived.derived_input_values(config)
    transport = transport_of(values, find_transport)
    if transport is not None:
        try:
            transport.cleanup(values, may_still_report=(
                deployment.status == IN_PROGRESS or is_cancelled(deployment)))
        except Exception:
            LOG.warning('Could not remove the %s signal target of '
                        'deployment %s', transport.name, deployment_id,
                        exc_info=True)
            leftovers.append(Message(SIGNAL_LEFT, params))
    return leftovers
