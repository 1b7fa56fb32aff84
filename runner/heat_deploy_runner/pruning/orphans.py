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

"""Derived configs no run uses: what a start asked Heat for after it had stopped waiting.

A start (starting.py) creates a run's derived config, then its deployment. While heat-engine
is stopped, Heat's API holds each create until its RPC timeout (rpc_response_timeout, 60 s by
default), the request waiting in RabbitMQ all that time; the dashboard gives up after 10 s,
the command line and Mistral after 30 s, and the start says nothing was started. An engine
back before the request expires makes the config all the same: no deployment uses it, no page
shows it, and it counts against the project's cap (max_software_configs_per_tenant). A
deployment create that went unanswered leaves a config too: the start keeps it, and the place
for its result, for a deployment Heat may still make.

Where Mistral is, a start that Heat left unanswered hands it a sweep of that operation's
configs (sweep_later; workflows/sweep_v1.yaml), run once Heat has dropped every create it
still held: within SWEEP_AFTER, its configs no run uses are gone, whatever their age. Where
the operator set a longer RPC timeout, what the engine makes later is retention's.

Retention sweeps them all (retention.prune), with the place for their result. A config is the
dashboard's own only when all three marks a start gives it are there: an operation in its
options, the server and action inputs of a derived config, and a name ending with that action;
a stack's configs and anyone else's never carry them. One listing each of configs and
deployments, and a read of each config no deployment uses but the configs runs are started
from: bounded by the few configs left unused, however many runs the project has.
"""

import dataclasses
import datetime
import logging

from heatclient import exc as heat_exc

from heat_deploy_runner.configs import derived
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import Message
from heat_deploy_runner.running import operations
from heat_deploy_runner.signalling.transports import transport_of
from heat_deploy_runner import times
from heat_deploy_runner import workflows

LOG = logging.getLogger(__name__)

# How old a config no deployment uses must be to go: past any wait for the deployment of a
# start still under way (Heat drops a create it has not taken within its RPC timeout, 60 s by
# default), with room for an operator's longer timeout and for clocks apart. Heat neither
# deletes a config a deployment uses nor makes a deployment of a deleted config, so a sweep
# too early could only fail a start, never leave a run without its config.
AGE = datetime.timedelta(minutes=5)
# When the sweep of one start's configs runs: twice Heat's default RPC timeout after the
# start gave up, so that Heat has dropped every create of it that it still held.
SWEEP_AFTER = datetime.timedelta(minutes=2)

CONFIG_LEFT = gettext_noop(
    'The configuration %(config_id)s, which no run uses, could not be deleted.')
SIGNAL_LEFT = gettext_noop(
    'The configuration %(config_id)s, which no run used, was deleted, but the place '
    'for its result could not be removed.')


@dataclasses.dataclass
class Swept:
    # The configs deleted (dicts, as Heat shows them), oldest first.
    configs: list
    # What was left behind (Messages).
    leftovers: list


def is_ours(config) -> bool:
    """Whether ``config`` is a derived config a start of the dashboard made (its command
    line's, its schedules')."""
    config = derived.as_dict(config)
    values = derived.derived_input_values(config)
    action = values.get(derived.ACTION)
    return (operations.operation_of_config(config) is not None
            and isinstance(values.get(derived.SERVER_ID), str)
            and isinstance(action, str) and bool(action)
            and (config.get('name') or '').endswith(f'-{action}'))


def unused(heat, project_id: str, now: datetime.datetime, operation_id: str | None = None,
           action: str | None = None) -> list:
    """The project's configs of the dashboard's that no deployment uses, made more than AGE
    before ``now`` (dicts, read whole), oldest first; with ``operation_id``, those of that
    operation's ``action`` at any age."""
    rows = [row for row in map(derived.as_dict, heat.software_configs.list())
            if row.get('project', project_id) == project_id
            and (action is None or (row.get('name') or '').endswith(f'-{action}'))]
    # Listed after the configs: a deployment made in between is seen.
    deployments = heat.software_deployments.list()
    used = {each.config_id for each in deployments}
    # The configs runs start from are no run's own: known without reading them.
    used.update(operation.source for operation in map(operations.operation_of_run, deployments)
                if operation and operation.source)
    before = now - AGE
    found = []
    for row in sorted(rows, key=lambda row: (row.get('creation_time') or '', row['id'])):
        made = times.parse_time(row.get('creation_time'))
        if row['id'] in used or made is None or (operation_id is None and made > before):
            continue
        config = derived.config_or_none(heat, row['id'])
        if config is None or not is_ours(config):
            continue
        operation = operations.operation_of_config(config)
        if operation_id is None or operation.id == operation_id:
            found.append(derived.as_dict(config))
    return found


def sweep(heat, find_transport, project_id: str, now: datetime.datetime,
          operation_id: str | None = None, action: str | None = None) -> Swept:
    """Delete the configs ``unused`` finds, and the place each was to get its result. Safe
    to run again: one already gone is skipped."""
    done = Swept([], [])
    for config in unused(heat, project_id, now, operation_id, action):
        params = {'config_id': config['id']}
        try:
            heat.software_configs.delete(config['id'])
        except heat_exc.HTTPNotFound:
            pass
        except Exception:
            # A deployment made since it was listed uses it (Heat refuses), or Heat failed.
            LOG.warning('Could not delete config %s, which no run used', config['id'],
                        exc_info=True)
            done.leftovers.append(Message(CONFIG_LEFT, params))
            continue
        done.configs.append(config)
        values = derived.derived_input_values(config)
        transport = transport_of(values, find_transport)
        if transport is None:
            continue
        try:
            transport.cleanup(values)
        except Exception:
            LOG.warning('Could not remove the %s signal target of config %s',
                        transport.name, config['id'], exc_info=True)
            done.leftovers.append(Message(SIGNAL_LEFT, params))
    return done


def sweep_later(mistral, project_id: str, operation, action: str) -> None:
    """Hand Mistral the sweep of ``operation``'s configs of ``action``, for a start Heat
    left unanswered (starting.unanswered); where Mistral does not take it, retention's
    sweep is left to find them."""
    try:
        workflow_id = workflows.ensure(mistral, project_id, workflows.SWEEP_WORKFLOW)
        mistral.executions.create(workflow_id, workflow_input={
            'operation_id': operation.id, 'action_name': action,
            'after': int(SWEEP_AFTER.total_seconds())},
            description='heat-deploy-dashboard: sweeps operation ' + operation.id)
    except Exception:
        LOG.warning('Mistral did not take the sweep of operation %s', operation.id,
                    exc_info=True)
