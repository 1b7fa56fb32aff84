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

"""`openstack software operation results | server results | run diff`: what an operation's
servers, or one server over its history, said as data, a row a run (results_export; the
results pages' CSV and JSON are the same rows), searched and filtered; and a run's output
against another run's (output_compare)."""

import uuid

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.components import listing
from heat_deploy_runner.osc import failures
from heat_deploy_runner.osc.operations import OPERATION_HELP
from heat_deploy_runner.osc.runs import find_run
from heat_deploy_runner.osc.runs import RUN_HELP
from heat_deploy_runner.outputs import output_compare
from heat_deploy_runner.outputs import output_search
from heat_deploy_runner.outputs import results_export
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running import servers

# A server's archived runs read at most, to find its previous run.
SERVER_ARCHIVED_READ = 100


def _archived(clients, prefix, size):
    with failures.calling(failures.SWIFT, 'retrieve the archived runs'):
        return archive.page(clients.swift, prefix, size).runs


def operation_results_runs(clients, operation_id):
    """The operation's runs in Heat, then those retention archived."""
    with failures.calling(failures.HEAT, f'retrieve the operation {operation_id}'):
        found = listing.operation_runs(clients.heat, clients.project_id, operation_id)
    found += _archived(clients, archive.operation_prefix(operation_id),
                       archive.RESULTS_READ)
    if not found:
        raise osc_exc.CommandError(f'No operation {operation_id} in this project.')
    return found


def _results_parser(parser):
    parser.add_argument('--grep', metavar='<text>',
                        help='Only the runs with a line of output holding this text '
                             '(plain text, any case).')
    parser.add_argument('--status', metavar='<status>', type=str.upper,
                        help='Only the runs in this status (COMPLETE, FAILED, CANCELLED, '
                             'IN_PROGRESS).')
    return parser


def _results(clients, found, parsed_args):
    """(columns, values) of the runs the options keep, as the results pages' downloads."""
    if parsed_args.status:
        found = [run for run in found if shown_status(run) == parsed_args.status]
    if parsed_args.grep is not None:
        try:
            matched = set(output_search.search(found, parsed_args.grep, limit=0).run_ids)
        except ValueError:
            raise osc_exc.CommandError(
                f'Search for at least {output_search.MIN_TEXT} characters.') from None
        found = [run for run in found if run.id in matched]
    columns, values = results_export.flat(results_export.rows(found, clients.servers.names()))
    if parsed_args.formatter == 'csv':
        values = [[results_export.safe_cell(value) for value in each] for each in values]
    return columns, values


class OperationResults(command.Lister):
    """List what an operation's servers said, a row a run: server, status, exit code,
    duration, try, each declared output and the last lines of stdout and stderr (secrets
    masked), its archived runs too. With -f csv or -f json, the same file as the operation
    page's download."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('operation', metavar='<operation>', help=OPERATION_HELP)
        return _results_parser(parser)

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        return _results(clients, operation_results_runs(clients, parsed_args.operation),
                        parsed_args)


def _server_id(clients, text):
    """The id of the server text names; an id of no server the project has now is taken as
    it is: a deleted server's history is still in Heat and the archive."""
    with failures.calling(failures.HEAT, 'find the server'):
        try:
            return clients.servers.find(text).id
        except servers.ServerNotFound:
            if not _is_uuid(text):
                raise
            # As Heat and the archive keep it: Nova writes ids in lower case.
            return text.strip().lower()


def _is_uuid(text):
    try:
        uuid.UUID(text.strip())
    except ValueError:
        return False
    return True


def server_results_runs(clients, server_id):
    """The server's runs in Heat, then those retention archived (its results page's)."""
    with failures.calling(failures.HEAT, f'retrieve the runs of server {server_id}'):
        found = listing.described(
            clients.heat, listing.server_runs(clients.heat, clients.project_id, server_id))
    found += _archived(clients, archive.server_prefix(server_id), archive.RESULTS_READ)
    if not found:
        raise osc_exc.CommandError(f'No run of server {server_id} in this project.')
    return found


class ServerResults(command.Lister):
    """List what a server said over its history, a row a run (its archived runs too), as
    `software operation results` does for an operation. With -f csv or -f json, the same
    file as the server's results page's download."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('server', metavar='<server>',
                            help='The server (name or ID; the ID of a deleted one).')
        return _results_parser(parser)

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        return _results(clients, server_results_runs(
            clients, _server_id(clients, parsed_args.server)), parsed_args)


def _previous(clients, run):
    """The same server's run before this one, of the same action and source, in Heat or
    archived; CommandError when there is none."""
    with failures.calling(failures.HEAT, f'retrieve the runs of server {run.server_id}'):
        others = listing.server_runs(clients.heat, clients.project_id, run.server_id)
    others += _archived(clients, archive.server_prefix(run.server_id), SERVER_ARCHIVED_READ)
    previous = output_compare.previous_run(run, others)
    if previous is None:
        raise osc_exc.CommandError(
            f'Run {run.id} has no earlier run of {run.action} on its server to compare with.')
    # Only the one compared needs its config (its declared outputs), not every run listed.
    return previous if previous.config else listing.described(clients.heat, [previous])[0]


class DiffRun(command.Command):
    """Show the lines of a run's output that differ from another run's: by default from the
    same server's previous run of the same action, from the same component."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('run', metavar='<run>', help=RUN_HELP)
        parser.add_argument('other', metavar='<other run>', nargs='?',
                            help='The run to compare with (default: the previous one).')
        parser.add_argument('--output', metavar='<name>', default='deploy_stdout',
                            help='The output to compare (default deploy_stdout).')
        parser.add_argument('--context', metavar='<lines>', type=int, default=0,
                            help='Lines the same to show around each change (default 0).')
        return parser

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        run = find_run(self.app, parsed_args.run, archived=True)
        other = (find_run(self.app, parsed_args.other, archived=True) if parsed_args.other
                 else _previous(clients, run))
        texts = [dict(output_search.output_texts(each)) for each in (other, run)]
        if not any(parsed_args.output in each for each in texts):
            raise osc_exc.CommandError(f'Neither run has an output {parsed_args.output}.')
        lines = output_compare.differences(
            *(each.get(parsed_args.output, '') for each in texts),
            context=max(0, parsed_args.context))
        out = self.app.stdout
        out.write(f'--- {other.id} ({other.creation_time})\n'
                  f'+++ {run.id} ({run.creation_time})\n')
        for line in lines:
            if line is None:
                out.write('...\n')
            else:
                number = line.right if line.kind == '+' else line.left
                out.write(f'{line.kind}{number}: {line.text}\n')
        if not lines:
            self.app.stderr.write(f'{parsed_args.output} is the same in both runs.\n')
