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

"""Start a run request (run_request.RunRequest): the action of a software config on servers,
one deployment each.

Per server, the CLI's steps (see derived.py) with the transport's signal
target: prepare the signal target, create the derived config, create the
deployment. A server whose steps fail is rolled back and reported; the
other servers go ahead, so one broken server does not block the rest.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field
import logging
import re

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc

from heat_deploy_runner.configs import derived
from heat_deploy_runner.configs.inputs import coerce_input_values
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message
from heat_deploy_runner.running.operations import as_input_values
from heat_deploy_runner.running.operations import Operation
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.running.run_request import RunRequest
from heat_deploy_runner.running import servers as servers_mod
from heat_deploy_runner.running import settling
from heat_deploy_runner.signalling import live as live_mod
from heat_deploy_runner.signalling.signals import SignalTransport

LOG = logging.getLogger(__name__)

NO_ACTION = gettext_noop('Choose an action to run.')
NO_SERVERS = gettext_noop('Choose at least one server.')
EMPTY_SERVER = gettext_noop('A server ID cannot be empty.')
BAD_TIMEOUT = gettext_noop('The timeout must be a whole number of minutes '
                           'greater than zero.')
SIGNAL_FAILED = gettext_noop(
    'Could not start %(action)s on server %(server)s: the place for its '
    'result could not be prepared in Object Storage.')
CONFIG_FAILED = gettext_noop(
    'Could not start %(action)s on server %(server)s: its configuration '
    'could not be created.')
DEPLOYMENT_FAILED = gettext_noop(
    'Could not start %(action)s on server %(server)s: its deployment '
    'could not be created.')
# Heat's refusals at its per-project caps (heat/engine/service.py), with the cap; its API
# answers 400 with them.
QUOTAS = (
    (re.compile(r'maximum software deployments per tenant, (\d+)'),
     gettext_noop(
         'Could not start %(action)s on server %(server)s: the project has reached '
         'Heat\'s limit of %(limit)s software deployments '
         '(max_software_deployments_per_tenant). Delete old runs, or ask your cloud '
         'administrator to raise the limit.')),
    (re.compile(r'maximum software configs per tenant, (\d+)'),
     gettext_noop(
         'Could not start %(action)s on server %(server)s: the project has reached '
         'Heat\'s limit of %(limit)s software configs (max_software_configs_per_tenant; '
         'every run has one). Delete old runs, or ask your cloud administrator to raise '
         'the limit.')),
)
QUOTA_TEMPLATES = tuple(template for _pattern, template in QUOTAS)
LEFT_OUT_BUSY = gettext_noop('Left out, still running an earlier run: %(servers)s.')
ALL_BUSY = gettext_noop('Every server chosen is still running an earlier run (%(servers)s): '
                        'nothing was started.')


@dataclass
class Started:
    """``created``: the new runs (Run, each with its derived config), in
    server order. ``failures``: (server_id, Message) for each server left out.
    ``operation``: the operation the runs carry, if one was given. ``busy``: the servers
    left out because they were still running an earlier run (leave_out_busy).
    ``unanswered``: whether a server was left out at a create Heat may carry out all the
    same (see unanswered).
    ``not_followed``: the workflow service was asked to follow the runs and did not take
    them (followers.start_and_follow): nothing records their ends unless a page watches."""

    created: list[Run] = field(default_factory=list)
    failures: list[tuple[str, Message]] = field(default_factory=list)
    operation: Operation | None = None
    busy: list[str] = field(default_factory=list)
    unanswered: bool = False
    not_followed: bool = False

    def busy_left_out(self, server_names: Mapping[str, str] | None = None) -> Message | None:
        """What says which servers were left out as busy (named by ``server_names``), or
        None."""
        if not self.busy:
            return None
        return Message(LEFT_OUT_BUSY, {'servers': ', '.join(
            servers_mod.called(server, server_names) for server in self.busy)})


class _ServerFailed(Exception):
    def __init__(self, message: Message, error: Exception):
        super().__init__(str(message))
        self.message = message
        # Heat (or another service behind keystoneauth) did not answer at all.
        self.unreachable = error if isinstance(error, ks_exc.ConnectionError) else None
        self.unanswered = unanswered(error)


def unanswered(error: Exception) -> bool:
    """Whether Heat may carry out the call that failed with ``error`` all the same: it
    took the request but gave no answer in time, or failed behind its API. While
    heat-engine is stopped, Heat's API holds a create in RabbitMQ until its RPC timeout and
    the engine, back before then, makes what it was asked for (orphans.py)."""
    if isinstance(error, ks_exc.ConnectTimeout):
        return True
    code = getattr(error, 'code', None) if isinstance(error, heat_exc.HTTPException) else None
    return isinstance(code, int) and code >= 500


def _quota_refusal(error: Exception, params: dict) -> Message | None:
    """The sentence for Heat's refusal at one of its per-project caps, or None."""
    if not isinstance(error, heat_exc.HTTPException):
        return None
    for pattern, template in QUOTAS:
        found = pattern.search(str(error))
        if found:
            return Message(template, dict(params, limit=found.group(1)))
    return None


def _checked_servers(server_ids: Iterable[str]) -> list[str]:
    servers = []
    for server_id in server_ids:
        if not server_id or not server_id.strip():
            raise InputError(Message(EMPTY_SERVER))
        # One run per server: the same server twice is a double click.
        if server_id not in servers:
            servers.append(server_id)
    if not servers:
        raise InputError(Message(NO_SERVERS))
    return servers


def _check_timeout(timeout_minutes: int) -> None:
    if (isinstance(timeout_minutes, bool)
            or not isinstance(timeout_minutes, int) or timeout_minutes < 1):
        raise InputError(Message(BAD_TIMEOUT))


def derived_name(name: str, action: str) -> str:
    """What a run's derived configs are called: the CLI's deployment name."""
    return f'{name}-{action}'


def start(heat, find_transport: Callable[[str], SignalTransport], request: RunRequest,
          operation: Operation | None = None, source: dict | None = None,
          server_names: Mapping[str, str] | None = None) -> Started:
    """Run the request's action of its config on every server of it.

    ``find_transport`` maps the request's transport name to a transport on the caller's
    clients (transports.transport_for). ``source``: the request's config, as a dict, when
    the caller has it already; else it is read. Raises InputError, before anything is
    created, for a blank action, no servers, a bad timeout, an unavailable transport or an
    override that does not fit its input's type, and, for a request that leaves out busy
    servers (settling.busy_servers), when every server is busy; the only calls made before that
    check are reading the source config, whose input types it needs, and the busy check.
    Errors reading the source config come from heatclient unchanged, and so does
    keystoneauth's ConnectionError when Heat does not answer before any run is made (what
    was made for the server is removed first); a server whose steps fail otherwise is left
    out and said in ``failures``. The derived configs are named "<name or source
    name>-<action>", and carry ``operation``, shared by every run of this call (see
    operations). ``server_names`` ({id: name}, where the caller has them) name the servers
    in the sentences of ``failures`` (servers.called).
    """
    action = (request.action or '').strip()
    if not action:
        raise InputError(Message(NO_ACTION))
    servers = _checked_servers(request.server_ids)
    _check_timeout(request.timeout_minutes)
    transport = find_transport(request.transport)

    # Configs are immutable, so one read serves every server.
    if source is None:
        source = derived.as_dict(heat.software_configs.get(request.config_id))
    # Values a form coerced already come through unchanged.
    values = coerce_input_values(source.get('inputs') or [], request.input_values)
    run_name = derived_name(request.name or source.get('name') or request.config_id, action)

    result = Started(operation=operation)
    if request.leave_out_busy:
        result.busy = settling.busy_servers(heat, find_transport, servers, {})
        servers = [server for server in servers if server not in result.busy]
        if not servers:
            raise InputError(Message(ALL_BUSY, {'servers': ', '.join(
                servers_mod.called(server, server_names) for server in result.busy)}))
    for server_id in servers:
        refused = next((message for _server, message in result.failures
                        if message.template in QUOTA_TEMPLATES), None)
        if refused is not None:
            # Heat would refuse it alike: said without a call, nothing made for it.
            result.failures.append((server_id, Message(refused.template, dict(
                refused.params, server=servers_mod.called(server_id, server_names)))))
            continue
        try:
            deployment, config = _start_one(
                heat, transport, source, run_name=run_name, action=action,
                server_id=server_id, values=values,
                timeout_minutes=request.timeout_minutes, live=request.live,
                operation=operation, server=servers_mod.called(server_id, server_names))
        except _ServerFailed as failure:
            if failure.unreachable is not None and not result.created:
                # Every server would fail alike and nothing was made: the caller says which
                # service did not answer, once.
                raise failure.unreachable
            result.failures.append((server_id, failure.message))
            result.unanswered = result.unanswered or failure.unanswered
        else:
            result.created.append(
                Run.from_heat(deployment).described(derived.as_dict(config)))
    return result


def _start_one(heat, transport: SignalTransport, source: dict, *,
               run_name: str, action: str, server_id: str,
               values: dict, timeout_minutes: int, live: bool,
               operation: Operation | None, server: str):
    # (what, how to remove it, whether what was made before it must stay when that fails)
    undo: list[tuple[str, Callable[[], object], bool]] = []
    failed_step = SIGNAL_FAILED
    try:
        target = transport.prepare(run_name, timeout_minutes, live)
        undo.append(('signal target', lambda: transport.cleanup(target.values), False))

        failed_step = CONFIG_FAILED
        body = derived.build_derived_config(
            source, name=run_name, action=action, server_id=server_id,
            input_values=values, signal_transport=transport.name,
            signal_inputs=target.inputs,
            operation_option=operation.as_option() if operation else None)
        if live_mod.is_live(target.values):
            body['inputs'].append(live_mod.secrets_input(body['inputs']))
        config = heat.software_configs.create(**body)
        undo.append(('derived config %s' % config.id,
                     lambda: heat.software_configs.delete(config.id), False))

        failed_step = DEPLOYMENT_FAILED
        # Heat may have stored a deployment it could not be removed of (its API killed as it
        # answered, or down when asked): what it stands on must stay.
        undo.append(('deployment', lambda: _delete_stored_anyway(heat, config.id, server_id),
                     True))
        status, reason = transport.initial_status()
        deployment = heat.software_deployments.create(
            config_id=config.id, server_id=server_id, action=action,
            status=status, status_reason=reason, input_values=as_input_values(operation))
        return deployment, config
    except Exception as error:
        LOG.exception('Starting %s on server %s failed', action, server_id)
        _undo(undo, server_id)
        params = {'action': action, 'server': server}
        raise _ServerFailed(
            _quota_refusal(error, params) or Message(failed_step, params), error)


def _delete_stored_anyway(heat, config_id: str, server_id: str) -> None:
    """Delete the server's deployment of ``config_id`` if Heat stored it though its create
    failed: Heat stores a deployment, then pushes the server's metadata, and answers 500 when
    that fails (a Zaqar queue whose service is down). Left, it would run with its result's
    place removed, and time out. Its delete may fail the same way after removing it."""
    def stored():
        return [row.id for row in heat.software_deployments.list(server_id=server_id)
                if row.config_id == config_id]
    for deployment_id in stored():
        try:
            heat.software_deployments.delete(deployment_id)
        except Exception:
            if deployment_id in stored():
                raise


def _undo(undo: list[tuple[str, Callable[[], object], bool]],
          server_id: str) -> None:
    """Undo the steps, newest first: each may depend on the one made before it. A step that
    cannot be undone and whose entry says so keeps what was made before it: a deployment
    Heat may have stored still finds its config and the place for its result, and its
    result is not lost."""
    for what, step, keeps_the_rest in reversed(undo):
        try:
            step()
        except Exception:
            # The user is told the server failed; a leftover is an
            # operator's matter, so it is logged rather than shown.
            LOG.warning('Could not remove the %s of the failed run on server %s', what,
                        server_id, exc_info=True)
            if keeps_the_rest:
                return
