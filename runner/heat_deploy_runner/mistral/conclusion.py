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

"""The ``conclude`` action of the rolling and follow workflows: the operation's outcome once
its runs have ended, and the notice of it posted to the queues subscribed (notices)."""

import logging
import time

from heatclient import exc as heat_exc
from mistral_lib import actions

from heat_deploy_runner.configs import derived
from heat_deploy_runner.following import notices
from heat_deploy_runner.following import outcome
from heat_deploy_runner.following import side_by_side
from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner.mistral import following
from heat_deploy_runner.mistral import kept
from heat_deploy_runner.mistral import service
from heat_deploy_runner.signalling.signals import FAILED

LOG = logging.getLogger(__name__)

# A notice Zaqar did not take (its service restarting, say) is tried again after each of
# these pauses, about a minute in all, before the outcome records that it failed.
NOTICE_RETRY_SECONDS = (5, 10, 20, 30)


class ConcludeAction(actions.Action):
    """The operation's outcome (outcome.outcome), once its runs have ended, posted as a
    notice to the queues subscribed to its operation, component and schedule (notices): the
    follow and rolling workflows publish it as their output. The operation is the
    workflow execution's id."""

    def __init__(self, config_id, action_name, deployment_ids, refused=None,
                 not_started=None, schedule=None, server_names=None, link=None,
                 trust_id=None):
        super().__init__()
        self.config_id = config_id
        self.action_name = action_name
        self.deployment_ids = deployment_ids
        self.refused = refused or []
        self.not_started = not_started or []
        self.schedule = schedule
        self.server_names = server_names or {}
        self.link = link
        self.trust_id = trust_id

    @clients_mod.stops_where_trust_refused
    # Run again whole: a notice is posted last, and a failure to post it is not raised.
    @following.waits_out_a_moment
    def run(self, context):
        clients = clients_mod.clients_for(context.security, self.trust_id)
        operation_id = context.execution.workflow_execution_id
        configs, found, gone = kept.CONFIGS.of(clients.project_id), [], []
        seen_ended = {run_id: kept.ENDED.get(clients.project_id, run_id)
                      for run_id in self.deployment_ids}
        to_read = [run_id for run_id, run in seen_ended.items() if run is None]
        with side_by_side.Readers(clients) as readers:
            read = dict(zip(to_read, readers.each(
                lambda own, run_id: following.settled_or_gone(own, run_id, configs),
                to_read)))
        for run_id in self.deployment_ids:
            run = seen_ended[run_id] or read[run_id]
            if run is None:
                gone.append(run_id)
                continue
            # The outcome tells a failed run's stderr with its secrets scrubbed: only its
            # config is needed (one more Heat call a run, for 200 runs 2 s of the outcome's).
            if run.status == FAILED and run.config_id not in configs:
                configs[run.config_id] = _config_or_none(clients.heat, run.config_id)
            found.append(run.described(configs.get(run.config_id)))
        recorded = outcome.outcome(found, self.refused, self.not_started, gone)
        if clients.zaqar is not None:
            self._notify(clients, operation_id, recorded,
                         once=service.run_again(clients.session, context))
        return recorded

    def _notify(self, clients, operation_id, recorded, once):
        source = _config_or_none(clients.heat, self.config_id) or {}
        message = notices.notice(
            recorded, operation_id=operation_id, action=self.action_name,
            component={'id': self.config_id, 'name': source.get('name')},
            schedule=self.schedule, server_names=self.server_names, link=self.link)
        # The queues posted to by a try that failed half way get none again.
        done = set()
        for pause in (*NOTICE_RETRY_SECONDS, None):
            try:
                recorded['notified'] = notices.post(
                    clients.zaqar, [operation_id, self.config_id, self.schedule], message,
                    once, done)
            except Exception as error:
                # The outcome is recorded still; the operation's page says the notice failed.
                recorded['notice_failed'] = str(error)[:200]
                LOG.warning('Could not post the notice of operation %s', operation_id,
                            exc_info=True)
            else:
                recorded.pop('notice_failed', None)
                return
            if pause is None:
                return
            time.sleep(pause)


def _config_or_none(heat, config_id):
    try:
        return derived.as_dict(heat.software_configs.get(config_id))
    except heat_exc.HTTPNotFound:
        return None
