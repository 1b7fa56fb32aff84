"""`openstack software component run COMPONENT ACTION --server ...`: the Run Action form, on
the command line. One RunRequest, checked as the form checks it; started now (runner.start),
then followed by Mistral where it is in the catalog (following.follow), or in batches on
Mistral (rolling.start); with --wait, followed to its end here as well."""

import getpass
import logging
import sys

import yaml

from osc_lib.cli import format_columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exc

import heat_deploy_runner as runner
from heat_deploy_runner.cancel import shown_status
from heat_deploy_runner import definition
from heat_deploy_runner import following as mistral_following
from heat_deploy_runner import inputs
from heat_deploy_runner import linking
from heat_deploy_runner import listing
from heat_deploy_runner import masking
from heat_deploy_runner.osc.components import COMPONENT_HELP
from heat_deploy_runner.osc import failures
from heat_deploy_runner.osc import following
from heat_deploy_runner import rolling
from heat_deploy_runner.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.run_request import DEFAULT_TRANSPORT
from heat_deploy_runner.run_request import MAX_NAME
from heat_deploy_runner.run_request import MAX_RETRIES
from heat_deploy_runner.run_request import MAX_RETRY_DELAY
from heat_deploy_runner.run_request import MAX_SERVERS
from heat_deploy_runner.run_request import MAX_TIMEOUT_MINUTES
from heat_deploy_runner.run_request import RunRequest
from heat_deploy_runner import runs
from heat_deploy_runner import secret_store
from heat_deploy_runner.signals import COMPLETE
from heat_deploy_runner.starting import derived_name

LOG = logging.getLogger(__name__)


def input_texts(pairs, ask=None):
    """{name: text} of NAME=VALUE words; the value may hold '=' and be empty. A secret's
    NAME alone (masking.is_secret_name) is asked for with ``ask(name)``, on a terminal only:
    a value in the command line stays in the shell's history and shows in `ps`."""
    texts = {}
    for pair in pairs:
        name, equals, text = pair.partition('=')
        if not equals and masking.is_secret_name(name.strip()):
            if ask is None:
                raise osc_exc.CommandError(
                    f'Give {name.strip()} a value: it is asked for on a terminal only. '
                    'Without one, give it in a file with --input-file.')
            text = ask(name.strip())
        elif not equals:
            raise osc_exc.CommandError(f'Give each input as NAME=VALUE, not "{pair}".')
        if not name.strip():
            # Not the value: it may be a secret.
            raise osc_exc.CommandError('Give each input as NAME=VALUE: one has no name.')
        texts[name.strip()] = text
    return texts


def asking():
    """How a secret input's value is asked for: on the terminal, not echoed; None when
    the command's input is not a terminal (a script's, a pipe's)."""
    if not sys.stdin.isatty():
        return None
    return lambda name: getpass.getpass(f'Value of {name} (not shown): ')


def file_values(path):
    """{name: value} of an --input-file: a YAML (or JSON) mapping of input names to their
    values, each a value of its input's type or its text."""
    if not path:
        return {}
    try:
        with open(path, encoding='utf-8') as opened:
            loaded = yaml.safe_load(opened)
    except (OSError, UnicodeDecodeError) as error:
        raise osc_exc.CommandError(f'Could not read the input file {path}: '
                                   f'{getattr(error, "strerror", None) or error}.') from None
    except yaml.YAMLError:
        raise osc_exc.CommandError(
            f'The input file {path} is neither YAML nor JSON.') from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict) or not all(isinstance(key, str) for key in loaded):
        raise osc_exc.CommandError(
            f'The input file {path} must map input names to values, as "name: value".')
    return loaded


def server_ids(clients, component, texts):
    """The component's servers the texts name (an id, or a name as the project's servers
    have it), in the order given."""
    chosen = []
    for text in texts:
        if text in component.server_ids:
            server_id = text
        else:
            server_id = clients.servers.find(text).id
            if server_id not in component.server_ids:
                raise osc_exc.CommandError(
                    f'The component {component.short_name} is not deployed on server '
                    f'{text}: run it on one of its servers '
                    f'({", ".join(_named(clients, component.server_ids)) or "none"}).')
        if server_id not in chosen:
            chosen.append(server_id)
    return chosen


def _named(clients, ids):
    names = clients.servers.names()
    return [names.get(each) or each for each in ids]


def checked_action(component, action, confirmed):
    if action not in component.actions:
        raise osc_exc.CommandError(
            f'The component {component.short_name} has no action {action}; its actions: '
            f'{", ".join(component.actions) or "none"}.')
    if action in linking.LIFECYCLE_ACTIONS and not confirmed:
        raise osc_exc.CommandError(
            f'{action} is a lifecycle action: Heat itself runs it when the stack changes, '
            'and running it by hand may redo or undo that work on the servers. Give '
            '--confirm-lifecycle to run it.')
    return action


def positive(maximum):
    def parse(text):
        try:
            number = int(text)
        except ValueError:
            number = 0
        if not 1 <= number <= maximum:
            raise ValueError(text)
        return number
    parse.__name__ = f'a whole number from 1 to {maximum}'
    return parse


def from_zero(maximum):
    def parse(text):
        number = int(text)
        if not 0 <= number <= maximum:
            raise ValueError(text)
        return number
    parse.__name__ = f'a whole number from 0 to {maximum}'
    return parse


def add_how_it_runs(parser):
    """The inputs, the transport and the timeout: what every run request takes."""
    parser.add_argument('--input', metavar='<name=value>', action='append', default=[],
                        dest='inputs',
                        help='A value for one of the declared inputs, checked against '
                             'its type (repeat for more); the others keep their defaults. '
                             'A secret input (its name ends in password, secret, token, '
                             'private_key or signature) given as its NAME alone is asked '
                             'for on the terminal, unseen.')
    add_input_file(parser)
    parser.add_argument('--transport', metavar='<transport>', choices=runner.TRANSPORT_NAMES,
                        help='How the server sends its result back: '
                             f'{", ".join(runner.TRANSPORT_NAMES)} (default: the first '
                             'your service catalog allows, as on the form). A server whose '
                             'agent cannot send it over the way chosen runs the action, '
                             'and the run waits until its timeout.')
    parser.add_argument('--timeout', metavar='<minutes>', type=positive(
        MAX_TIMEOUT_MINUTES), default=DEFAULT_TIMEOUT_MINUTES,
        help='How long the server may take to report its result (default '
             f'{DEFAULT_TIMEOUT_MINUTES}).')
    return parser


def add_input_file(parser):
    parser.add_argument('--input-file', metavar='<file>',
                        help='A YAML or JSON file mapping input names to values (its '
                             'values first, then each --input\'s): secrets stay out of '
                             'the shell\'s history and `ps`.')
    return parser


def transport(clients, asked):
    """The transport asked for, checked against the catalog (a run in batches or a schedule
    would otherwise fail on Mistral); without one asked, the first the catalog allows, as the
    form chooses."""
    for name in [asked] if asked else runner.TRANSPORT_NAMES:
        try:
            clients.find_transport(name)
        except runner.InputError:
            if asked:
                raise
            continue
        return name
    return DEFAULT_TRANSPORT


def given_texts(declared_inputs, parsed_args):
    """{name: text} of the --input-file's values, then of the NAME=VALUE words (which win),
    a secret's asked for (input_texts)."""
    texts = {name: value if isinstance(value, str)
             else inputs.as_text(_type_of(declared_inputs, name), value)
             for name, value in file_values(parsed_args.input_file).items()}
    texts.update(input_texts(parsed_args.inputs, asking()))
    return texts


def typed_inputs(declared_inputs, parsed_args):
    """The values given_texts gives, typed as the form types them; an input the form
    requires (no default, not a boolean) must be given."""
    given = given_texts(declared_inputs, parsed_args)
    values = inputs.from_texts(declared_inputs, given)
    missing = [each['name'] for each in declared_inputs
               if each.get('name') and each.get('default') is None
               and each.get('type') != inputs.BOOLEAN and each['name'] not in given]
    if missing:
        raise osc_exc.CommandError(
            f'Give a value for {", ".join(missing)} with --input NAME=VALUE: '
            f'{"it has" if len(missing) == 1 else "they have"} no default.')
    return values


def _type_of(declared_inputs, name):
    return next((each.get('type') for each in declared_inputs if each.get('name') == name),
                None)


def add_request_arguments(parser):
    """The arguments of a run request, as the Run Action form has them."""
    parser.add_argument('component', metavar='<component>', help=COMPONENT_HELP)
    parser.add_argument('action', metavar='<action>',
                        help='The action to run: one of the component\'s custom actions '
                             '(e.g. BACKUP), or a lifecycle action with '
                             '--confirm-lifecycle.')
    parser.add_argument('--server', metavar='<server>', action='append', required=True,
                        dest='servers',
                        help='A server the component is deployed on, by name or ID '
                             '(repeat for more).')
    add_how_it_runs(parser)
    parser.add_argument('--batch-size', metavar='<servers>',
                        type=positive(MAX_SERVERS),
                        help='Run on this many servers at a time, the next ones once '
                             'each of them has finished. The workflow service (Mistral) '
                             'runs the batches: they go on after this command ends.')
    parser.add_argument('--max-failures', metavar='<servers>', type=from_zero(MAX_SERVERS),
                        default=0,
                        help='With --batch-size: once more servers than this have '
                             'failed, no further batch starts (default 0).')
    parser.add_argument('--retries', metavar='<tries>', type=from_zero(MAX_RETRIES),
                        default=0,
                        help='Run a server whose run failed again, up to this many times '
                             f'(0 to {MAX_RETRIES}, default 0); it counts as failed only '
                             'after its last try. The workflow service (Mistral) runs the '
                             'tries: without --batch-size, all the servers make one batch.')
    parser.add_argument('--retry-delay', metavar='<seconds>',
                        type=from_zero(MAX_RETRY_DELAY), default=0,
                        help='With --retries: how long to wait before a server\'s next try '
                             f'(0 to {MAX_RETRY_DELAY}, default 0).')
    parser.add_argument('--confirm-lifecycle', action='store_true',
                        help='Run a lifecycle action (CREATE, UPDATE, DELETE, SUSPEND, '
                             'RESUME) by hand.')
    return parser


def run_request(clients, parsed_args):
    """(the component, the RunRequest) the arguments of add_request_arguments ask for,
    checked as the form checks them; CommandError with the form's sentence when one is
    wrong, before anything is made."""
    action = parsed_args.action.strip()
    if parsed_args.retry_delay and not parsed_args.retries:
        raise osc_exc.CommandError(
            '--retry-delay is the wait between a server\'s tries: give --retries too.')
    with failures.calling(failures.HEAT, f'start {action}', 'Nothing was started.'):
        component = listing.find(listing.components(clients.heat, clients.project_id),
                                 parsed_args.component)
        checked_action(component, action, parsed_args.confirm_lifecycle)
        return component, RunRequest(
            config_id=component.id, action=action,
            server_ids=tuple(server_ids(clients, component, parsed_args.servers)),
            input_values=typed_inputs(component.inputs, parsed_args),
            transport=transport(clients, parsed_args.transport),
            timeout_minutes=parsed_args.timeout,
            name=component.run_name, batch_size=parsed_args.batch_size or 0,
            max_failures=parsed_args.max_failures, retries=parsed_args.retries,
            retry_delay=parsed_args.retry_delay)


def on_mistral(request):
    """Whether the workflow service runs the request: in batches, or trying failed servers
    again (one batch of all, as the form does)."""
    return bool(request.batch_size or request.retries)


class StartingCommand(command.ShowOne):
    """A command that starts an operation (one RunRequest) and, with --wait, follows it to
    its end; it then exits non-zero when a run failed, was cancelled or could not start."""

    failed = False

    def add_wait(self, parser):
        parser.add_argument('--wait', action='store_true',
                            help='Follow the operation until every run has ended.')
        return parser

    def started(self, clients, request, shown, wait):
        """(columns, values): ``shown`` and the operation; with ``wait``, its runs as they
        ended."""
        if on_mistral(request):
            made, execution = [], self._start_in_batches(clients, request)
            operation_id = execution.id
        else:
            made, execution = self._start_now(clients, request), None
            operation_id = made[0].operation.id
        shown = {'operation': operation_id, **shown, 'action': request.action,
                 'servers': format_columns.ListColumn(_named(clients, request.server_ids))}
        if wait:
            # Said first: whatever happens while following, the runs go on.
            self.app.stderr.write(f'Following operation {operation_id}.\n')
            with failures.calling(failures.MISTRAL if on_mistral(request) else failures.HEAT,
                                  f'follow the operation {operation_id}',
                                  'Its runs go on: `openstack software operation show '
                                  f'{operation_id}` says how they stand.'):
                try:
                    ended, execution = following.follow(
                        clients, operation_id, [run.id for run in made],
                        lambda line: self.app.stderr.write(line + '\n'), execution)
                except following.GaveUp as late:
                    raise osc_exc.CommandError(
                        f'Runs still running {following.GIVE_UP_SECONDS // 60} minutes past '
                        f'their deadline: {late}. Their timeout could not be recorded; '
                        f'`openstack software operation show {operation_id}` says how they '
                        'stand.') from None
            shown['runs'] = format_columns.ListDictColumn([
                {'server': server, 'status': shown_status(run),
                 'exit_code': runs.exit_code(run), 'run': run.id}
                for server, run in zip(_named(clients, [r.server_id for r in ended]), ended)])
            self.failed = (self.failed or any(run.status != COMPLETE for run in ended)
                           or len(ended) < len(request.server_ids))
        return tuple(shown), tuple(shown.values())

    def _start_now(self, clients, request):
        with failures.calling(failures.HEAT, f'start {request.action}', 'Nothing was started.'):
            # Where Mistral is, it follows the operation to its end: its runs say so, and
            # pages only read them.
            followed = clients.mistral is not None
            started = runner.start(
                clients.heat, clients.find_transport, request,
                runner.Operation.new(clients.username, request.config_id,
                                     runner=runner.FOLLOWED if followed else None),
                server_names=clients.servers.names())
        for _server, message in started.failures:
            self.app.stderr.write(f'{message}\n')
        # A server left out is a failure a script must see, --wait or not.
        self.failed = bool(started.failures)
        if not started.created:
            raise osc_exc.CommandError(
                ' '.join(str(message) for _server, message in started.failures))
        if followed:
            self._follow(clients, started)
        return started.created

    def _follow(self, clients, started):
        """Have Mistral follow the runs just started; when it refuses, the runs stand and
        the user is told what nobody does for them."""
        try:
            mistral_following.follow(clients.mistral, clients.project_id, started,
                                     clients.servers.names(), link=None)
        except Exception:
            LOG.debug('Mistral did not take operation %s to follow', started.operation.id,
                      exc_info=True)
            self.app.stderr.write(
                f'Warning: the workflow service (Mistral) could not be asked to follow '
                f'operation {started.operation.id}. Its runs go on, but nothing records '
                'their time-outs or sends its notices unless --wait or a dashboard page '
                'watches it.\n')

    def _start_in_batches(self, clients, request):
        doing = (f'start {request.action} in batches' if request.batch_size
                 else f'start {request.action} with retries')
        if clients.mistral is None:
            raise osc_exc.CommandError(_needs_mistral(request))
        with failures.calling(failures.MISTRAL, doing, 'Nothing was started.'):
            try:
                return rolling.start(
                    rolling.MistralCalls(clients.mistral, clients.swift, clients.project_id),
                    request, clients.username, clients.servers.names())
            except secret_store.NotKept as error:
                raise osc_exc.CommandError(failures.sentence(
                    doing, failures.SWIFT, 'Nothing was started.')) from error

    def run(self, parsed_args):
        result = super().run(parsed_args)
        return result or (1 if self.failed else 0)


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
        return self.add_wait(add_request_arguments(super().get_parser(prog_name)))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        component, request = run_request(clients, parsed_args)
        return self.started(clients, request, {'component': component.short_name},
                            parsed_args.wait)


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
            request = RunRequest(
                config_id=config['id'], action=action,
                server_ids=(clients.servers.find(parsed_args.server).id,),
                input_values=typed_inputs(config.get('inputs') or [], parsed_args),
                transport=transport(clients, parsed_args.transport),
                timeout_minutes=parsed_args.timeout,
                name=name or config.get('name') or config['id'])
            if len(derived_name(request.name, action)) > MAX_NAME:
                raise osc_exc.CommandError(
                    f'The name and the action together are longer than the {MAX_NAME} '
                    'characters Heat keeps.')
        return self.started(clients, request, {'config': config['id']}, parsed_args.wait)
