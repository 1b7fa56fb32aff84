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

"""The actions of the rolling workflows (workflows/rolling_v*.yaml), the follow workflows
(follow_v*.yaml) and retention's (retention_v1.yaml), run by Mistral's executor.

An operation started through Mistral's API first makes the trust its later actions act
through (``entrust``; trusts), each given it as ``trust_id``; a firing acts through its
trigger's. Each calls the same code as the dashboard's Run Action: ``trigger``
(StartAction; the name the released workflow gives it) starts the runs of one batch (or one
try of it), ``wait`` watches them as a page's poll did before Mistral followed operations
(applying results Heat does not read itself, and time-outs), ``conclude`` (conclusion.py)
records the outcome and posts the notices subscribed to it. A server's failure is data the
workflow counts, never an action error; an action fails only when it cannot do its job at
all (bad input, Heat refusing the call).

Mistral makes a new action object per call: nothing is kept between calls but the
workflow's own variables, and what an executor process keeps to read less (kept.py). It
delivers an action at most once, and fails one whose executor was lost only once its
heartbeats stop; the workflows then run it again (their retry on a missed heartbeat). So
each action can be run again: one run again (``service.run_again``) makes no second run on a
server and posts no second notice.
"""

import dataclasses
from datetime import datetime
from datetime import timezone
import logging
import time

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
from mistral_lib import actions
from swiftclient import exceptions as swift_exc

import heat_deploy_runner as runner
from heat_deploy_runner.following import side_by_side
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message
from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner.mistral import following
from heat_deploy_runner.mistral import kept
from heat_deploy_runner.mistral import service
from heat_deploy_runner.mistral import trusts
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.running.cancel import is_cancelled
from heat_deploy_runner.running import operations
from heat_deploy_runner.running.operations import Operation
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.running.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.running.run_request import DEFAULT_TRANSPORT
from heat_deploy_runner.running.run_request import RunRequest
from heat_deploy_runner.running import settling
from heat_deploy_runner.scheduling import schedules
from heat_deploy_runner.signalling.signals import FAILED
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner import times
from heat_deploy_runner.workflows import secret_store

LOG = logging.getLogger(__name__)

# One wait call returns within this; the workflow calls again while runs are in progress,
# so no action runs for hours and a cancelled execution stops within a call.
WAIT_SECONDS = 50

COMPONENT_GONE = gettext_noop('The component %(config_id)s no longer exists.')
TOO_MANY_FAILED = gettext_noop('Servers failed: %(failed)s, more than the %(allowed)s '
                               'allowed.')
STOPPED = gettext_noop('Stopped: servers failed: %(failed)s, more than the %(allowed)s '
                       'allowed; not started: %(not_started)s.')
SECRETS_GONE = gettext_noop('The secret inputs kept for this run in Object Storage '
                            '(%(container)s/%(name)s) are gone: nothing was started.')
RETIRED = gettext_noop('Skipped: the schedule was paused, changed or deleted; this trigger '
                       'goes once the firing still running has ended.')
ALL_BUSY = gettext_noop('Skipped: every server is still running an earlier run '
                        '(%(servers)s).')


def batches_of(server_ids, batch_size):
    """The servers in order, in batches of ``batch_size`` (0: all in one batch)."""
    size = batch_size if batch_size and batch_size > 0 else max(len(server_ids), 1)
    return [server_ids[start:start + size] for start in range(0, len(server_ids), size)]


class PlanAction(actions.Action):
    """Whether the operation can start, and its batches. With ``skip_busy`` (a schedule's
    firing), servers still running an earlier run are left out, never run twice at once. A
    firing of a ``trigger`` its ``schedule`` no longer fires through (paused, changed or
    deleted while an earlier firing ran) runs nothing."""

    def __init__(self, config_id, server_ids, batch_size=0, skip_busy=False, schedule=None,
                 trigger=None):
        super().__init__()
        self.config_id = config_id
        self.server_ids = list(server_ids)
        self.batch_size = batch_size
        self.skip_busy = skip_busy
        self.schedule = schedule
        self.trigger = trigger

    @clients_mod.stops_where_trust_refused
    @following.waits_out_a_moment
    def run(self, context):
        # The first step: the starter's token is still good.
        clients = clients_mod.clients_for(context.security)
        heat = clients.heat
        started_at = times.utc_text(datetime.now(timezone.utc))
        plan = {'batches': [], 'skipped': [], 'problem': None, 'started_at': started_at,
                'retired': False}
        if self.trigger and not schedules.fires_through(
                service.environment(clients.session, self.schedule), self.schedule,
                self.trigger):
            return dict(plan, problem=str(Message(RETIRED)), retired=True)
        try:
            heat.software_configs.get(self.config_id)
        except heat_exc.HTTPNotFound:
            plan['problem'] = str(Message(COMPONENT_GONE, {'config_id': self.config_id}))
            return plan
        servers = self.server_ids
        if self.skip_busy:
            plan['skipped'] = settling.busy_servers(clients.heat, clients.find_transport,
                                                    servers, {})
            servers = [server for server in servers if server not in plan['skipped']]
            if not servers:
                plan['problem'] = str(Message(ALL_BUSY, {'servers': ', '.join(plan['skipped'])}))
                return plan
        plan['batches'] = batches_of(servers, self.batch_size)
        return plan


class EntrustAction(actions.Action):
    """The first step of an operation started through Mistral's API, while the starter's
    token is still good: the trust its later steps act through (``trust_id``; trusts),
    expiring after ``until`` (its last run's deadline) or after ``rounds`` runs of
    ``timeout_minutes`` one after another. A firing acts through its trigger's trust:
    ``trust_id`` None. Run again after an executor's loss, it makes a second trust and the
    first expires unused. Where Keystone makes no trust (trusts turned off, a user it will
    not delegate for, Keystone not answering), the operation goes on with the starter's
    token, as before trusts: followed for as long as that token lasts."""

    def __init__(self, until=None, timeout_minutes=0, rounds=1, retry_delay=0):
        super().__init__()
        self.until = until
        self.timeout_minutes = timeout_minutes
        self.rounds = rounds
        self.retry_delay = retry_delay

    def run(self, context):
        if context.security.trust_id:
            return {'trust_id': None}
        expires = trusts.expires_at(
            datetime.now(timezone.utc), times.parse_time(self.until),
            int(self.timeout_minutes or 0), int(self.rounds or 1), int(self.retry_delay or 0))
        session = clients_mod.session_for(context.security)
        try:
            return {'trust_id': trusts.make(session, clients_mod.service_user_id(), expires)}
        except ks_exc.ClientException as refused:
            LOG.warning('Keystone made no trust for operation %s; it is followed with its '
                        "starter's token: %s", context.execution.workflow_execution_id, refused)
            return {'trust_id': None}


class ReleaseAction(actions.Action):
    """The end of every operation's execution (follow_v2, rolling_v3 and later). The trust
    the operation made for itself (``trust_id``) goes, as the very last call. A schedule's
    firing whose ``trigger`` the schedule no longer fires through (paused, changed or
    deleted while it ran: those leave the trigger, and the trust Mistral acts through, to
    the firing) deletes it once no other firing of it runs, with the secret inputs the
    schedule no longer keeps: the trigger last, as its trust goes with it."""

    def __init__(self, schedule=None, trigger=None, secret_ref=None, trust_id=None):
        super().__init__()
        self.schedule = schedule
        self.trigger = trigger
        self.secret_ref = secret_ref
        self.trust_id = trust_id

    def run(self, context):
        released = bool(self.trigger) and self._release_trigger(context)
        if self.trust_id:
            try:
                trusts.delete(clients_mod.session_for(context.security, self.trust_id),
                              self.trust_id)
            except ks_exc.ClientException:
                # The operation has ended as it did: the trust expires on its own (and one
                # whose starter lost their role cannot be used to delete itself).
                LOG.warning('The trust %s of operation %s was left to expire', self.trust_id,
                            context.execution.workflow_execution_id, exc_info=True)
        return {'released': released}

    def _release_trigger(self, context):
        clients = clients_mod.clients_for(context.security)
        record = service.environment(clients.session, self.schedule)
        if schedules.fires_through(record, self.schedule, self.trigger) or schedules.firing(
                service.running_operations(clients.session), context.security.project_id,
                self.trigger, but=context.execution.workflow_execution_id):
            return False
        if self.secret_ref and (record or {}).get('secret_ref') != self.secret_ref:
            if clients.swift is not None:
                secret_store.forget(clients.swift, self.secret_ref)
        service.cron_trigger_delete(clients.session, self.trigger)
        return True


class StartAction(actions.Action):
    """One batch's runs, carrying the operation whose id is the workflow execution's. Its
    arguments are the rolling workflow's names for a RunRequest's (RunRequest.workflow_input),
    kept as they came: Mistral sends an action to its executor as its attributes, in JSON."""

    def __init__(self, config_id, action_name, server_ids, started_by, started_at,
                 name=None, input_values=None, transport=DEFAULT_TRANSPORT,
                 timeout_minutes=DEFAULT_TIMEOUT_MINUTES, secret_ref=None, try_number=None,
                 tries=None, trust_id=None, live=False):
        super().__init__()
        self.config_id = config_id
        self.action_name = action_name
        self.server_ids = server_ids
        self.started_by = started_by
        self.started_at = started_at
        self.name = name
        self.input_values = input_values or {}
        self.transport = transport
        self.timeout_minutes = timeout_minutes
        # Where the secret inputs are kept (secret_store), out of Mistral.
        self.secret_ref = secret_ref
        # Which try on these servers, of how many (rolling_v2 tries a failed server again).
        self.try_number = try_number
        self.tries = tries
        self.trust_id = trust_id
        # Given by rolling_v6 and later.
        self.live = live

    def run_request(self):
        return RunRequest(config_id=self.config_id, action=self.action_name,
                          server_ids=tuple(self.server_ids),
                          input_values=dict(self.input_values), transport=self.transport,
                          timeout_minutes=self.timeout_minutes, name=self.name,
                          live=bool(self.live))

    @clients_mod.stops_where_trust_refused
    def run(self, context):
        clients = clients_mod.clients_for(context.security, self.trust_id)
        counted = bool(self.tries and self.tries > 1)
        operation = Operation(context.execution.workflow_execution_id, self.started_by,
                              self.started_at, self.config_id, runner=operations.FOLLOWED,
                              try_number=self.try_number if counted else None,
                              tries=self.tries if counted else None)
        made_before = (_made_before(clients.heat, operation, self.server_ids)
                       if service.run_again(clients.session, context) else {})
        request = self.run_request()
        request = dataclasses.replace(request, server_ids=tuple(
            server for server in request.server_ids if server not in made_before))
        if not request.server_ids:
            return {'deployment_ids': list(made_before.values()), 'failed_to_start': []}
        if self.secret_ref:
            try:
                secrets = secret_store.get(clients.swift, self.secret_ref)
            except swift_exc.ClientException as error:
                if error.http_status != 404:
                    raise
                return actions.Result(error=str(Message(SECRETS_GONE, {
                    'container': secret_store.CONTAINER, 'name': self.secret_ref})))
            request = dataclasses.replace(
                request, input_values=dict(request.input_values, **secrets))
        try:
            made = runner.start(clients.heat, clients.find_transport, request, operation)
        except InputError as refused:
            return actions.Result(error=str(refused.message))
        return {'deployment_ids': list(made_before.values()) + [run.id for run in made.created],
                'failed_to_start': [[server, str(message)] for server, message in made.failures]}


def _made_before(heat, operation, server_ids):
    """{server: run id} of the runs of this operation's try already made on these servers."""
    made = {}
    for server in server_ids:
        for row in heat.software_deployments.list(server_id=server):
            found = Run.from_heat(row).operation
            if (found and found.id == operation.id
                    and found.try_number == operation.try_number):
                made[server] = row.id
    return made


class WaitAction(actions.Action):
    """The batch's runs, watched until none is in progress or WAIT_SECONDS have passed:
    ``done``; the servers whose run failed (``failed``), of those the ones cancelled
    (``cancelled``) and the others (``retryable``). A run deleted meanwhile has ended.

    Each run is read from Heat (and settled) once per call, and again only when its result
    may have arrived (results.may_have_results: one cheap look where it arrives) or its
    deadline has passed: a cancel made meanwhile is seen at the next call."""

    def __init__(self, deployment_ids, trust_id=None):
        super().__init__()
        self.deployment_ids = deployment_ids
        self.trust_id = trust_id

    @clients_mod.stops_where_trust_refused
    def run(self, context):
        # A service failing for a moment (a restart of Heat, Keystone, Swift, PostgreSQL or
        # RabbitMQ) ends nothing: the workflow calls again once the pause is over.
        try:
            return self._watched(context)
        except Exception as error:
            if not following.a_moments_failure(error):
                raise
            LOG.warning('Operation %s: a service failed for a moment, looked at again in '
                        '%s s: %s', context.execution.workflow_execution_id,
                        following.MOMENT_PAUSES[0], error)
            time.sleep(following.MOMENT_PAUSES[0])
            return {'done': False, 'failed': [], 'cancelled': [], 'retryable': []}

    def _watched(self, context):
        clients = clients_mod.clients_for(context.security, self.trust_id)
        configs = kept.CONFIGS.of(clients.project_id)
        give_up = time.monotonic() + WAIT_SECONDS
        with side_by_side.Readers(clients) as readers:
            rows = dict(zip(self.deployment_ids, readers.each(
                lambda own, run_id: following.settled_or_gone(own, run_id, configs),
                self.deployment_ids)))
            while True:
                running = [row for row in rows.values()
                           if row is not None and row.status == IN_PROGRESS]
                if not running or time.monotonic() >= give_up:
                    break
                time.sleep(following.pause(running, datetime.now(timezone.utc)))
                may = following.with_results(clients, running)
                looked = readers.each(lambda own, row: following.looked_at(
                    own, row, configs, row.id in may), running)
                rows.update((row.id, now) for row, now in zip(running, looked))
        ended = [row for row in rows.values() if row is not None]
        kept.ENDED.keep(clients.project_id, [row for row in ended if row.status != IN_PROGRESS])
        failed = [row for row in ended if row.status == FAILED]
        return {'done': not running, 'failed': [row.server_id for row in failed],
                'cancelled': [row.server_id for row in failed if is_cancelled(row)],
                'retryable': [row.server_id for row in failed if not is_cancelled(row)]}


class JudgeAction(actions.Action):
    """Whether the operation stops after a batch: ``stop``, why, or None to go on."""

    def __init__(self, failed, max_failures, batches, next_batch):
        super().__init__()
        self.failed = failed
        self.max_failures = max_failures
        self.batches = batches
        self.next_batch = next_batch

    def run(self, context):
        return {'stop': stop_reason(self.failed, self.max_failures, self.batches,
                                    self.next_batch)}


def stop_reason(failed, max_failures, batches, next_batch):
    if len(failed) <= max_failures:
        return None
    counts = {'failed': len(failed), 'allowed': max_failures,
              'not_started': sum(len(batch) for batch in batches[next_batch:])}
    return str(Message(STOPPED if counts['not_started'] else TOO_MANY_FAILED, counts))


class PruneAction(actions.Action):
    """The project's runs past the retention bound, archived then deleted (retention.prune):
    the ids of those pruned, what was left behind (a config or signal target), and the ids
    of the derived configs no run used, swept."""

    def __init__(self, keep_latest, keep_days, keep_at_most):
        super().__init__()
        # As they came: Mistral sends an action to its executor as its attributes, in JSON.
        self.keep_latest = keep_latest
        self.keep_days = keep_days
        self.keep_at_most = keep_at_most

    def run(self, context):
        clients = clients_mod.clients_for(context.security)
        policy = retention.Policy(int(self.keep_latest), int(self.keep_days),
                                  int(self.keep_at_most))
        done = retention.prune(clients.heat, clients.swift, clients.find_transport,
                               context.security.project_id, policy)
        return {'pruned': [run.id for run in done.runs],
                'left': [str(message) for message in done.leftovers],
                'swept': [config['id'] for config in done.swept]}
