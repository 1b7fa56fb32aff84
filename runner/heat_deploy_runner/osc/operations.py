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

"""`openstack software operation list | show | cancel | rerun-failed`: the operations the
dashboard's pages show (one submit of Run Action or Deploy, a run in batches, a schedule's
firing), found by what their runs' deployments say (runner.running.operations), and the Mistral
execution of the operation's id that follows it (a run in batches', or a follower's: see
runner.following.followers) with the outcome it recorded (runner.following.outcome)."""

import collections

from osc_lib.cli import format_columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.components import listing
from heat_deploy_runner.configs import inputs
from heat_deploy_runner.following.outcome import last_tries
from heat_deploy_runner.following.recent_operations import recent
from heat_deploy_runner.osc.component_run import StartingCommand
from heat_deploy_runner.osc import failures
from heat_deploy_runner.osc.request_options import add_input_file
from heat_deploy_runner.osc.request_options import given_texts
from heat_deploy_runner.osc.request_options import transport
from heat_deploy_runner.osc.request_options import whole_number
from heat_deploy_runner.running.cancel import cancel
from heat_deploy_runner.running.cancel import CANCELLED
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running.operations import FOLLOWED
from heat_deploy_runner.running.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.running.run_request import MAX_TIMEOUT_MINUTES
from heat_deploy_runner.running.run_request import RunRequest
from heat_deploy_runner.running import runs
from heat_deploy_runner.signalling.signals import FAILED
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner.signalling.signals import NoSignal
from heat_deploy_runner.signalling.transports import TRANSPORT_NAMES
from heat_deploy_runner.workflows import executions
from heat_deploy_runner.workflows import rolling

OPERATION_HELP = 'The operation: its ID, as `component run` and `operation list` show it.'
NOT_FOLLOWED = 'not followed: nothing records its timeouts while no page or --wait watches'


def _parser(parser):
    parser.add_argument('operation', metavar='<operation>', help=OPERATION_HELP)
    return parser


def _counts(statuses):
    """"1 COMPLETE, 2 FAILED" of the statuses (or of {status: count})."""
    return ', '.join(f'{count} {status}' for status, count in sorted(
        collections.Counter(statuses).items()))


def _execution(clients, operation_id):
    """The project's execution of this id that runs or follows an operation (executions), or
    None."""
    if clients.mistral is None:
        return None
    return executions.get(clients.mistral, clients.project_id, operation_id)


def find_operation(clients, operation_id):
    """(its runs, each with its derived config, in server order; its Mistral execution or
    None). Not found when neither is the project's."""
    with failures.calling(failures.HEAT, f'retrieve the operation {operation_id}'):
        found = listing.operation_runs(clients.heat, clients.project_id, operation_id)
    execution = None
    # Only an operation Mistral follows (or one whose runs are not made yet) is its to tell.
    if not found or any(run.operation.runner == FOLLOWED for run in found):
        with failures.calling(failures.MISTRAL, f'retrieve the operation {operation_id}'):
            execution = _execution(clients, operation_id)
    if not found and execution is None:
        raise osc_exc.CommandError(f'No operation {operation_id} in this project.')
    return found, execution


def _component_names(clients):
    return {each.id: each.short_name
            for each in listing.components(clients.heat, clients.project_id)}


class ListOperation(command.Lister):
    """List the project's latest operations, newest first: each submit of Run Action or
    Deploy, run in batches or schedule's firing, with who started it and how its runs
    stand."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--limit', metavar='<count>', type=whole_number(1, 1000), default=20,
                            help='Show this many of the latest (default 20).')
        return parser

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        with failures.calling(failures.HEAT, 'retrieve the operations'):
            found = recent(listing.runs(clients.heat, clients.project_id),
                           count=parsed_args.limit, among=max(parsed_args.limit * 20, 200))
            names = _component_names(clients)
        columns = ('ID', 'Action', 'Component', 'Started By', 'Started At', 'Runs')
        return columns, [
            (each.id, each.action,
             names.get(each.operation.source) or each.operation.source or '',
             each.operation.started_by, each.operation.started_at, _counts(each.statuses))
            for each in found]


def _try(run):
    """Which try on its server the run is ("2 of 3"), or '' for a run tried once only."""
    operation = run.operation
    return f'{operation.try_number} of {operation.tries}' if operation.tries else ''


def _following(clients, operation_id, found, execution):
    """What follows the operation to its end: its Mistral execution, or nothing."""
    if execution is not None:
        return f'followed by Mistral execution {execution.id} ({execution.state})'
    if not any(run.operation.followed for run in found):
        return NOT_FOLLOWED
    # Its runs say Mistral follows it, but Mistral has no execution of its id to show.
    if clients.mistral is None:
        return (f'followed by Mistral execution {operation_id} (its state is unknown: the '
                'workflow service is not in your service catalog)')
    return (f'{NOT_FOLLOWED} (Mistral has no execution {operation_id}: it did not take the '
            'operation to follow, or the execution was deleted)')


def _recorded(outcome, names):
    """The fields of an outcome the follower recorded (runner.following.outcome), as shown."""
    def named(server_id):
        return names.get(server_id) or server_id
    shown = {
        'ended_at': outcome.get('ended_at') or '',
        'outcome': (f"{_servers(outcome.get('servers') or 0)}: "
                    f"{_counts(outcome.get('counts') or {}) or 'none ran'}"),
        'failed_servers': format_columns.ListDictColumn([
            {'server': named(each.get('server_id')), 'status': each.get('status'),
             'exit_code': each.get('exit_code'), 'reason': each.get('reason') or '',
             'tries': each.get('tries') or 1}
            for each in outcome.get('failed') or []]),
    }
    if outcome.get('refused'):
        shown['not_created'] = format_columns.ListColumn(
            [f'{named(server)}: {why}' for server, why in outcome['refused']])
    if outcome.get('not_started'):
        shown['not_started'] = format_columns.ListColumn(
            [named(each) for each in outcome['not_started']])
    if outcome.get('notice_failed'):
        shown['notices'] = f"not sent: {outcome['notice_failed']}"
    elif outcome.get('notified'):
        shown['notices'] = f"posted to {len(outcome['notified'])} subscribed queue(s)"
    return shown


def _servers(count):
    return f'{count} server' if count == 1 else f'{count} servers'


class ShowOperation(command.ShowOne):
    """Show an operation: what it ran, who started it and when, how it runs (now, or in
    batches on the workflow service, and how that stands), what follows it to its end, each
    server's run (and which try it is, for a server tried again), and the outcome recorded
    once every run ended."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        found, execution = find_operation(clients, parsed_args.operation)
        operation = found[0].operation if found else None
        rolling_run = execution is not None and execution.rolling
        names = clients.servers.names()
        shown = {
            'id': parsed_args.operation,
            'action': found[0].action if found else '',
            'started_by': operation.started_by if operation else '',
            'started_at': operation.started_at if operation else '',
            'source': operation.source if operation else '',
            'runs_in_batches': execution.state if rolling_run else 'no',
            'followed': _following(clients, parsed_args.operation, found, execution),
            'runs': format_columns.ListDictColumn([
                {'server': names.get(run.server_id) or run.server_id, 'try': _try(run),
                 'status': shown_status(run), 'exit_code': runs.exit_code(run),
                 'duration': runs.format_duration(runs.duration(run)), 'run': run.id}
                for run in found]),
            'counts': _counts(shown_status(run) for run in found),
        }
        if rolling_run:
            asked = execution.asked.request
            shown.update(batch_size=asked.batch_size, max_failures=asked.max_failures,
                         retries=asked.retries)
        if execution is not None and execution.outcome:
            shown.update(_recorded(execution.outcome, names))
        return tuple(shown), tuple(shown.values())


class CancelOperation(command.ShowOne):
    """Cancel every run of an operation still running, and for a run in batches every batch
    not started yet. A server that has already started may still finish; its result is then
    shown on its run's page as a late result."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        found, execution = find_operation(clients, parsed_args.operation)
        # A follower is left to run: it sees the runs cancelled, and records the outcome.
        stopped = execution is not None and execution.rolling and execution.running
        if stopped:
            # First: no further batch starts while the running runs are cancelled.
            with failures.calling(failures.MISTRAL, "stop the operation's further batches",
                                  'Nothing was cancelled.'):
                # Who cancelled it, and when, kept with it (the operation's page shows it).
                rolling.cancel(clients.mistral, execution.id, clients.username)
        cancelled = []
        with failures.calling(failures.HEAT, 'cancel the operation\'s runs'):
            if stopped:
                # Read again: a batch may have started while its execution was stopped.
                found = listing.operation_runs(clients.heat, clients.project_id,
                                               parsed_args.operation)
            for run in found:
                if run.status == IN_PROGRESS:
                    after = cancel(clients.heat, run.id, clients.username,
                                   clients.find_transport)
                    if shown_status(after) == CANCELLED:
                        cancelled.append(after.id)
        if not cancelled and not stopped:
            self.app.stderr.write('Nothing of this operation was running.\n')
        shown = {'id': parsed_args.operation, 'cancelled_runs': format_columns.ListColumn(
            cancelled), 'further_batches_stopped': stopped}
        return tuple(shown), tuple(shown.values())


class RerunFailedOperation(StartingCommand):
    """Run an operation's action again on the servers whose run failed or was cancelled,
    with the inputs those runs had (and live output where they had it), as the dashboard's
    "Run Again on Failed" does. Secret inputs are not taken from the runs: give them again
    with --input, or they keep their defaults (a secret's NAME alone asks for it on a
    terminal, and --input-file reads them from a file). Starts a new operation; with --wait,
    follows it as `component run` does."""

    def get_parser(self, prog_name):
        parser = _parser(super().get_parser(prog_name))
        parser.add_argument('--input', metavar='<name=value>', action='append', default=[],
                            dest='inputs',
                            help='A value instead of the one the failed runs had (repeat '
                                 'for more); a secret input\'s NAME alone is asked for on '
                                 'the terminal.')
        add_input_file(parser)
        parser.add_argument('--transport', metavar='<transport>', choices=TRANSPORT_NAMES,
                            help='How the servers send their results back (default: as the '
                                 'failed runs did).')
        parser.add_argument('--timeout', metavar='<minutes>',
                            type=whole_number(1, MAX_TIMEOUT_MINUTES),
                            default=DEFAULT_TIMEOUT_MINUTES,
                            help='How long each server may take to report its result '
                                 f'(default {DEFAULT_TIMEOUT_MINUTES}).')
        return self.add_wait(parser)

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        found, _execution = find_operation(clients, parsed_args.operation)
        # A server tried again failed only when its last try did.
        last = last_tries(found)
        failed = [run for run in found
                  if last[run.server_id] is run and run.status == FAILED]
        with failures.calling(failures.HEAT, 'run the failed servers again',
                              'Nothing was started.'):
            components = {each.id: each for each in listing.components(
                clients.heat, clients.project_id)}
        component = failed and components.get(failed[0].operation.source)
        if not component:
            raise osc_exc.CommandError(
                'No failed run of this operation can be run again: each succeeded, is still '
                'running, or did not come from a software component.')
        first = failed[0]
        texts = dict(runs.rerun_inputs(first.config),
                     **given_texts(component.inputs, parsed_args))
        with failures.calling(failures.HEAT, f'start {first.action}', 'Nothing was started.'):
            chosen_transport = transport(clients, parsed_args.transport or first.transport)
            request = RunRequest(
                config_id=component.id, action=first.action,
                server_ids=tuple(dict.fromkeys(run.server_id for run in failed)),
                input_values=inputs.from_texts(component.inputs, texts),
                transport=chosen_transport, timeout_minutes=parsed_args.timeout,
                name=component.run_name,
                # As the dashboard's Run Again asks it again; NO_SIGNAL sends nothing back.
                live=first.live and chosen_transport != NoSignal.name)
        return self.started(clients, request, {'component': component.short_name},
                            parsed_args.wait, parsed_args.follow)
