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

"""`openstack software component run COMPONENT ACTION --server ...`: the Run Action form, on
the command line. One RunRequest, checked as the form checks it; started now, then followed
by Mistral where it is in the catalog (followers.start_and_follow), or in batches on Mistral
(rolling.start); with --wait, followed to its end here as well."""

import dataclasses

from osc_lib.cli import format_columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.components import linking
from heat_deploy_runner.components import listing
from heat_deploy_runner.configs import definition
from heat_deploy_runner.following import followers
from heat_deploy_runner.osc import failures
from heat_deploy_runner.osc.output_follower import exit_status
from heat_deploy_runner.osc.output_follower import INTERRUPTED
from heat_deploy_runner.osc.output_follower import OutputFollower
from heat_deploy_runner.osc.output_follower import stopped
from heat_deploy_runner.osc.request_options import add_how_it_runs
from heat_deploy_runner.osc.request_options import add_request_arguments
from heat_deploy_runner.osc.request_options import live
from heat_deploy_runner.osc.request_options import run_request
from heat_deploy_runner.osc.request_options import server_names
from heat_deploy_runner.osc.request_options import transport
from heat_deploy_runner.osc.request_options import typed_inputs
from heat_deploy_runner.osc import waiting
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running.run_request import MAX_NAME
from heat_deploy_runner.running.run_request import RunRequest
from heat_deploy_runner.running import runs
from heat_deploy_runner.running.starting import derived_name
from heat_deploy_runner.signalling.signals import COMPLETE
from heat_deploy_runner.workflows import rolling
from heat_deploy_runner.workflows import secret_store
from heat_deploy_runner.workflows.workflow_clients import WorkflowClients


class StartingCommand(command.ShowOne):
    """A command that starts an operation (one RunRequest) and, with --wait, follows it to
    its end; it then exits non-zero when a run failed, was cancelled or could not start."""

    failed = False
    # The servers left out as still running an earlier run (--leave-out-busy): asked for,
    # so no failure.
    busy = ()

    # With --follow: the exit status of the run followed (output_follower.exit_status).
    followed = None

    def add_wait(self, parser):
        parser.add_argument('--wait', action='store_true',
                            help='Follow the operation until every run has ended.')
        parser.add_argument('--follow', action='store_true',
                            help='With --wait, for one server: print the run\'s stdout and '
                                 'stderr lines to the command\'s own as the server sends '
                                 'them (with --live, on an image with '
                                 'heat-deploy-script-hook; others send them at the end), '
                                 'then the rest of its final output, instead of the '
                                 'operation\'s table; exit with the run\'s exit code. Ctrl-C '
                                 'stops following; the run goes on.')
        return parser

    def started(self, clients, request, shown, wait, follow=False):
        """(columns, values): ``shown`` and the operation; with ``wait``, its runs as they
        ended; with ``follow`` too, its one run's output printed as it came."""
        _check_follow(request, wait, follow)
        handed = rolling.hands_over(request, clients.mistral is not None,
                                    clients.swift is not None)
        if handed:
            made, execution = [], self._start_in_batches(clients, request)
            operation_id = execution.id
        else:
            made, execution = self._start_now(clients, request), None
            operation_id = made[0].operation.id
        shown = {'operation': operation_id, **shown, 'action': request.action,
                 'servers': format_columns.ListColumn(server_names(clients, request.server_ids))}
        if wait:
            ended = self._followed(clients, operation_id, made, execution, handed, follow)
            shown['runs'] = format_columns.ListDictColumn([
                {'server': server, 'status': shown_status(run),
                 'exit_code': runs.exit_code(run), 'run': run.id}
                for server, run in zip(
                    server_names(clients, [each.server_id for each in ended]), ended)])
            self.failed = (self.failed or any(run.status != COMPLETE for run in ended)
                           or len(ended) < len(request.server_ids) - len(self.busy))
        return tuple(shown), tuple(shown.values())

    def _followed(self, clients, operation_id, made, execution, handed, follow):
        """The operation's runs once ended (waiting.follow), each said on stderr; with
        ``follow``, its one run's output printed as it came, the run's end said after it."""
        # Said first: whatever happens while following, the runs go on.
        self.app.stderr.write(f'Following operation {operation_id}.\n')
        follower = OutputFollower(self.app.stdout, self.app.stderr,
                                  clients.find_transport) if follow else None
        ends = []
        with failures.calling(failures.MISTRAL if handed else failures.HEAT,
                              f'follow the operation {operation_id}',
                              'Its runs go on: `openstack software operation show '
                              f'{operation_id}` says how they stand.'):
            try:
                ended, _execution = waiting.follow(
                    clients, operation_id, [run.id for run in made],
                    ends.append if follower else self._say, execution,
                    watch=follower.watch if follower else None)
            except KeyboardInterrupt:
                if not follower:
                    raise
                self._say(stopped(follower.run_id, operation_id))
                self.followed = INTERRUPTED
                return []
            except waiting.GaveUp as late:
                raise osc_exc.CommandError(
                    f'Runs still running {waiting.GIVE_UP_SECONDS // 60} minutes past '
                    f'their deadline: {late}. Their timeout could not be recorded; '
                    f'`openstack software operation show {operation_id}` says how they '
                    'stand.') from None
        if follower and ended:
            follower.finish(ended[0])
            self.followed = exit_status(ended[0])
        for line in ends:
            self._say(line)
        return ended

    def _say(self, line):
        self.app.stderr.write(line + '\n')

    def produce_output(self, parsed_args, column_names, data):
        # Followed, stdout is the run's: the operation is said on stderr.
        if not getattr(parsed_args, 'follow', False):
            super().produce_output(parsed_args, column_names, data)

    def _start_now(self, clients, request):
        with failures.calling(failures.HEAT, f'start {request.action}', 'Nothing was started.'):
            names = clients.servers.names()
            started = followers.start_and_follow(
                clients.heat, clients.find_transport, clients.mistral, clients.project_id,
                request, clients.username, server_names=names)
        self.busy = started.busy
        if started.busy:
            self.app.stderr.write(f'{started.busy_left_out(names)}\n')
        for _server, message in started.failures:
            self.app.stderr.write(f'{message}\n')
        # A server left out is a failure a script must see, --wait or not.
        self.failed = bool(started.failures)
        if not started.created:
            raise osc_exc.CommandError(
                ' '.join(str(message) for _server, message in started.failures))
        if started.not_followed:
            self.app.stderr.write(
                f'Warning: the workflow service (Mistral) could not be asked to follow '
                f'operation {started.operation.id}. Its runs go on, but nothing records '
                'their time-outs or sends its notices unless --wait or a dashboard page '
                'watches it.\n')
        return started.created

    def _start_in_batches(self, clients, request):
        doing = (f'start {request.action} in batches' if request.batch_size
                 else f'start {request.action} with retries' if request.retries
                 else f'start {request.action} on the workflow service')
        if clients.mistral is None:
            raise osc_exc.CommandError(_needs_mistral(request))
        with failures.calling(failures.MISTRAL, doing, 'Nothing was started.'):
            try:
                return rolling.start(WorkflowClients(clients.mistral, clients.swift,
                                                     clients.project_id, clients.username),
                                     request, clients.servers.names())
            except secret_store.NotKept as error:
                raise osc_exc.CommandError(failures.sentence(
                    doing, failures.SWIFT, 'Nothing was started.')) from error

    def run(self, parsed_args):
        result = super().run(parsed_args)
        if self.followed is not None:
            return self.followed
        return result or (1 if self.failed else 0)


def _check_follow(request, wait, follow):
    if follow and not wait:
        raise osc_exc.CommandError(
            '--follow prints the run\'s output until it ends: give --wait too.')
    if follow and len(request.server_ids) != 1:
        raise osc_exc.CommandError(
            f'--follow prints one run\'s output, and {len(request.server_ids)} servers were '
            'chosen: choose one, or leave out --follow and follow each run with `openstack '
            'software run output RUN --follow`.')


def _needs_mistral(request):
    options = [option for option, given in (('--batch-size', request.batch_size),
                                            ('--retries', request.retries)) if given]
    needs = ('Runs in batches need' if request.batch_size
             else 'Trying a failed server again needs')
    return (f'{needs} the workflow service (Mistral), which is not in your service catalog: '
            f'run it without {" and ".join(options)}.')


class RunComponent(StartingCommand):
    """Run an action of a software component on its servers, as the dashboard's Run Action
    form does: each server gets a run of the action, with the inputs given and the others at
    their defaults. Prints the operation. Where the workflow service (Mistral) is in the
    catalog, it follows the operation to its end, records its outcome and sends the notices
    subscribed to (`software notice create`). With --wait, follows it here too, says each
    server's status and exit code as it finishes, and exits non-zero when a run failed, was
    cancelled or could not start."""

    def get_parser(self, prog_name):
        parser = self.add_wait(add_request_arguments(super().get_parser(prog_name),
                                                     choosers=True))
        parser.add_argument('--leave-out-busy', action='store_true',
                            help='Leave out the servers still running an earlier run (as '
                                 'Heat shows them once a result waiting for them is '
                                 'applied), as a schedule\'s firings do, instead of running '
                                 'a second run beside it.')
        return parser

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        component, request = run_request(clients, parsed_args)
        request = dataclasses.replace(request, leave_out_busy=parsed_args.leave_out_busy)
        return self.started(clients, request, {'component': component.short_name},
                            parsed_args.wait, parsed_args.follow)


class CreateRun(StartingCommand):
    """Deploy a config to one server, as the Configs panel's Deploy form does: a run of the
    action with the inputs given and the others at their defaults, its result sent back as
    the transport says. Heat's own `software deployment create`, which does not work with
    TEMP_URL_SIGNAL in python-heatclient 5.3. Prints the operation; --wait as `component
    run`."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--config', metavar='<config>', required=True,
                            help='The ID of a software config of this project (not one '
                                 'derived for a single run).')
        parser.add_argument('--server', metavar='<server>', required=True,
                            help='A server of this project, by name or ID: of one of its '
                                 'stacks, or one of its Compute servers.')
        parser.add_argument('--action', metavar='<action>', default='CREATE',
                            help='The action: the server\'s hook gets it as deploy_action '
                                 '(default CREATE). A component runs the scripts listed for '
                                 'it.')
        parser.add_argument('--name', metavar='<name>',
                            help='What the run is named after: NAME-ACTION (default: the '
                                 'config\'s name).')
        return self.add_wait(add_how_it_runs(parser))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        action = parsed_args.action.strip()
        name = parsed_args.name
        for text in (action, name or ''):
            if definition.control_character(text):
                raise osc_exc.CommandError(
                    f'"{text}" holds a control character; write it without one.')
        with failures.calling(failures.HEAT, f'start {action}', 'Nothing was started.'):
            config = listing.config(clients.heat, clients.project_id, parsed_args.config)
            if linking.is_derived(config):
                raise osc_exc.CommandError(
                    'This config was derived from another one for a single run: deploy the '
                    'config it was derived from instead.')
            chosen_transport = transport(clients, parsed_args.transport)
            asks_live = live(parsed_args, chosen_transport)
            request = RunRequest(
                config_id=config['id'], action=action,
                server_ids=(clients.servers.find(parsed_args.server).id,),
                input_values=typed_inputs(config.get('inputs') or [], parsed_args),
                transport=chosen_transport, timeout_minutes=parsed_args.timeout,
                name=name or config.get('name') or config['id'], live=asks_live)
            if len(derived_name(request.name, action)) > MAX_NAME:
                raise osc_exc.CommandError(
                    f'The name and the action together are longer than the {MAX_NAME} '
                    'characters Heat keeps.')
        return self.started(clients, request, {'config': config['id']}, parsed_args.wait,
                            parsed_args.follow)
