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

"""`openstack software run show | output | cancel | delete | prune`: one run as its page on
the dashboard shows it (in Heat, or in the project's archive once retention pruned it), its
outputs (the end of each first, or followed as they come), its cancel, its delete, and
retention's pruning."""

from osc_lib.cli import format_columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.components import listing
from heat_deploy_runner.osc import failures
from heat_deploy_runner.osc.output_follower import exit_status
from heat_deploy_runner.osc.output_follower import INTERRUPTED
from heat_deploy_runner.osc.output_follower import OutputFollower
from heat_deploy_runner.osc.output_follower import stopped
from heat_deploy_runner.osc.request_options import whole_number
from heat_deploy_runner.osc import waiting
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.running.cancel import cancel
from heat_deploy_runner.running.cancel import is_cancelled
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running.delete import delete
from heat_deploy_runner.running import runs
from heat_deploy_runner.signalling.signals import IN_PROGRESS

RUN_HELP = 'The run: its ID (a software deployment\'s), as the dashboard and `list` show it.'
FOLLOW_HELP = ('While the run goes, print its stdout and stderr lines to the command\'s own as '
               'its server sends them (a run started with --live, on an image with '
               'heat-deploy-script-hook; others send them at the end), then what of its final '
               'output was not printed, secrets scrubbed; exit with the run\'s exit code (1 '
               'for a run that failed without one). Ctrl-C stops following; the run goes on.')


def find_run(app, run_id, archived=False):
    """The project's run of this id in Heat; with ``archived``, in the archive when Heat
    has none (the run was pruned)."""
    clients = app.client_manager.software_runs
    with failures.calling(failures.HEAT, f'retrieve the run {run_id}'):
        try:
            return listing.run(clients.heat, clients.project_id, run_id)
        except LookupError:
            if not archived:
                raise
    with failures.calling(failures.SWIFT, f'retrieve the archived run {run_id}'):
        return archive.get(clients.swift, run_id)


def follow_run(app, run_id):
    """Print the run's output as it comes (OutputFollower) until it has ended; its exit
    status (exit_status)."""
    clients = app.client_manager.software_runs
    run = find_run(app, run_id, archived=True)
    follower = OutputFollower(app.stdout, app.stderr, clients.find_transport)
    if run.status == IN_PROGRESS and not run.archived:
        try:
            with failures.calling(failures.HEAT, f'follow the run {run.id}',
                                  f'It goes on: `openstack software run show {run.id}` '
                                  'says how it stands.'):
                ended, _execution = waiting.follow(clients, None, [run.id], lambda line: None,
                                                   watch=follower.watch)
        except waiting.GaveUp:
            raise osc_exc.CommandError(
                f'The run {run.id} is still running {waiting.GIVE_UP_SECONDS // 60} minutes '
                'past its deadline: its timeout could not be recorded. `openstack software '
                f'run show {run.id}` says how it stands.') from None
        except KeyboardInterrupt:
            app.stderr.write(f'{stopped(run.id)}\n')
            return INTERRUPTED
        if not ended:
            raise osc_exc.CommandError(f'The run {run.id} was deleted while it was followed.')
        [run] = ended
    follower.finish(run)
    return exit_status(run)


def _parser(parser):
    parser.add_argument('run', metavar='<run>', help=RUN_HELP)
    return parser


class ShowRun(command.ShowOne):
    """Show a run: its action on its server, its status and why, its exit code, the operation
    that started it, when, how long it took, and the inputs it used (secrets masked)."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        run = find_run(self.app, parsed_args.run, archived=True)
        operation = run.operation
        shown = {
            'id': run.id, 'name': run.name or '', 'server': run.server_id,
            'action': run.action,
            'status': shown_status(run),
            'status_reason': run.reason, 'exit_code': runs.exit_code(run),
            'operation': operation.id if operation else '',
            'started_by': operation.started_by if operation else '',
            'created': run.creation_time, 'updated': run.updated_time or '',
            'duration': runs.format_duration(runs.duration(run)),
            'transport': run.transport or '',
            'archived': run.archived,
            'inputs': format_columns.DictColumn(
                {each['name']: each['value'] for each in runs.run_inputs(run.config)}
                if run.config else {}),
        }
        return tuple(shown), tuple(shown.values())


class ShowRunOutput(command.ShowOne):
    """Show a run's outputs: stdout, stderr, the outputs its config declares, then any other
    value its server sent; the last lines of each unless --all is given. With --follow,
    print its stdout and stderr as they come instead, and exit with its exit code."""

    def get_parser(self, prog_name):
        parser = _parser(super().get_parser(prog_name))
        parser.add_argument('--all', action='store_true',
                            help='Each output whole, not only its last %d lines.'
                            % runs.TAIL_LINES)
        parser.add_argument('--output', metavar='<name>', action='append', default=[],
                            help='Only this output (repeat for more), e.g. deploy_stderr.')
        parser.add_argument('--follow', action='store_true', help=FOLLOW_HELP)
        return parser

    def run(self, parsed_args):
        if not parsed_args.follow:
            return super().run(parsed_args)
        if parsed_args.all or parsed_args.output:
            raise osc_exc.CommandError('--follow prints stdout and stderr whole, as they '
                                       'come: leave out --all and --output.')
        return follow_run(self.app, parsed_args.run)

    def take_action(self, parsed_args):
        run = find_run(self.app, parsed_args.run, archived=True)
        found = runs.outputs(run)
        unknown = set(parsed_args.output) - {each['name'] for each in found}
        if unknown:
            raise osc_exc.CommandError(
                f'The run has no output {", ".join(sorted(unknown))}.')
        shown = {each['name']: (runs.output_text(run.output_values.get(each['name']))
                                if parsed_args.all else each['tail'])
                 for each in found
                 if not parsed_args.output or each['name'] in parsed_args.output}
        return tuple(shown), tuple(shown.values())


class CancelRun(command.ShowOne):
    """Cancel a run in progress: Heat stops waiting for it and marks it failed, cancelled by
    you. A server that has already started may still finish; its result is then shown on
    the run's page as a late result. A run that has already ended is left as it is."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        found = find_run(self.app, parsed_args.run)
        with failures.calling(failures.HEAT, f'cancel the run {found.id}',
                              'The run was not cancelled.'):
            after = cancel(clients.heat, found.id, clients.username, clients.find_transport)
        if found.status != IN_PROGRESS or not is_cancelled(after):
            self.app.stderr.write(f'The run {found.id} had already finished; it was left as '
                                  'it is.\n')
        shown = {'id': after.id, 'status': shown_status(after),
                 'status_reason': after.status_reason or ''}
        return tuple(shown), tuple(shown.values())


class DeleteRun(command.Command):
    """Delete a run, with what it made: its derived config and the place its result was to
    be sent (a Swift container, a Zaqar queue), as the dashboard's Delete Run does (Heat's
    `software deployment delete` leaves the container). A running run is cancelled by it:
    Heat stops waiting for it. An archived run's record is removed from the archive."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        found = find_run(self.app, parsed_args.run, archived=True)
        if found.archived:
            with failures.calling(failures.SWIFT, f'delete the archived run {found.id}',
                                  'The run was not deleted.'):
                archive.delete(clients.swift, found.id)
            return
        with failures.calling(failures.HEAT, f'delete the run {found.id}',
                              'The run was not deleted.'):
            leftovers = delete(clients.heat, found.id, clients.find_transport)
        for message in leftovers:
            self.app.stderr.write(f'{message}\n')


# Pruning reads and deletes in Heat and writes the archive in Swift.
_HEAT_AND_SWIFT = ('the orchestration service or Object Storage', 'Heat and Swift')


class PruneRuns(command.Lister):
    """Archive, then delete, the project's runs past the retention bound: kept are every run
    younger than --keep-days and the --keep-latest latest of each server, component and
    action, no more than --keep-at-most in all; a running run and the latest of each server,
    component and action are always kept, and a stack's own deployments are never touched.
    Each pruned run's record (inputs with secrets masked, status, outputs, times) stays in
    the project's Object Storage (container heat-deploy-archive), where `run show`,
    `run output` and the dashboard read it. The derived configs no run uses, that Heat made
    after a start had stopped waiting for it, are deleted too. Without the workflow service,
    run it from cron, e.g. daily."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        default = retention.Policy()
        for option, value, meaning in (
                ('--keep-latest', default.keep_latest,
                 'Keep this many latest runs of each server, component and action'),
                ('--keep-days', default.keep_days, 'Keep every run younger than this'),
                ('--keep-at-most', default.keep_at_most,
                 'Beyond those, keep no more runs than this in all')):
            parser.add_argument(option, metavar='<count>', type=whole_number(1, 10 ** 6),
                                default=value, help=f'{meaning} (default {value}).')
        parser.add_argument('--dry-run', action='store_true',
                            help='Only list the runs that would be pruned.')
        return parser

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        policy = retention.Policy(parsed_args.keep_latest, parsed_args.keep_days,
                                  parsed_args.keep_at_most)
        with failures.calling(_HEAT_AND_SWIFT, 'prune the runs',
                              'The runs pruned before the failure are archived; the '
                              'others are kept as they were.'):
            done = retention.prune(clients.heat, clients.swift, clients.find_transport,
                                   clients.project_id, policy, dry_run=parsed_args.dry_run)
        for message in done.leftovers:
            self.app.stderr.write(f'{message}\n')
        if done.swept:
            self.app.stderr.write(
                f'{"Would delete" if parsed_args.dry_run else "Deleted"} the derived '
                'configs no run uses (Heat made them after their start had stopped '
                f'waiting): {", ".join(config["id"] for config in done.swept)}\n')
        columns = ('ID', 'Name', 'Server', 'Action', 'Status', 'Created')
        return columns, [(run.id, run.name or '', run.server_id, run.action,
                          shown_status(run), run.creation_time) for run in done.runs]
