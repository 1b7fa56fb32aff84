"""`openstack software run show | output | cancel | delete`: one run as its page on the
dashboard shows it, its outputs (the end of each first), its cancel and its delete."""

from osc_lib.cli import format_columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.cancel import cancel
from heat_deploy_runner.cancel import is_cancelled
from heat_deploy_runner.cancel import shown_status
from heat_deploy_runner.delete import delete
from heat_deploy_runner import listing
from heat_deploy_runner.osc import failures
from heat_deploy_runner import runs
from heat_deploy_runner.signals import IN_PROGRESS

RUN_HELP = 'The run: its ID (a software deployment\'s), as the dashboard and `list` show it.'


def _run(app, run_id):
    clients = app.client_manager.software_runs
    with failures.calling(failures.HEAT, f'retrieve the run {run_id}'):
        return listing.run(clients.heat, clients.project_id, run_id)


def _parser(parser):
    parser.add_argument('run', metavar='<run>', help=RUN_HELP)
    return parser


class ShowRun(command.ShowOne):
    """Show a run: its action on its server, its status and why, its exit code, the operation
    that started it, when, how long it took, and the inputs it used (secrets masked)."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        run = _run(self.app, parsed_args.run)
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
            'inputs': format_columns.DictColumn(
                {each['name']: each['value'] for each in runs.run_inputs(run.config)}
                if run.config else {}),
        }
        return tuple(shown), tuple(shown.values())


class ShowRunOutput(command.ShowOne):
    """Show a run's outputs: stdout, stderr, the outputs its config declares, then any other
    value its server sent; the last lines of each unless --all is given."""

    def get_parser(self, prog_name):
        parser = _parser(super().get_parser(prog_name))
        parser.add_argument('--all', action='store_true',
                            help='Each output whole, not only its last %d lines.'
                            % runs.TAIL_LINES)
        parser.add_argument('--output', metavar='<name>', action='append', default=[],
                            help='Only this output (repeat for more), e.g. deploy_stderr.')
        return parser

    def take_action(self, parsed_args):
        run = _run(self.app, parsed_args.run)
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
        found = _run(self.app, parsed_args.run)
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
    Heat stops waiting for it."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        found = _run(self.app, parsed_args.run)
        with failures.calling(failures.HEAT, f'delete the run {found.id}',
                              'The run was not deleted.'):
            leftovers = delete(clients.heat, found.id, clients.find_transport)
        for message in leftovers:
            self.app.stderr.write(f'{message}\n')
