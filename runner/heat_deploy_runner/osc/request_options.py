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

"""The options of the commands that start runs (component run, run create, schedule create and
change, operation retry) and the RunRequest they give: servers by name or id, inputs typed
as the component declares them, from options, a YAML or JSON file, or a terminal's prompt
for a secret; how it runs (transport, live output, timeout, batches, tries); checked as the
Run Action form checks them."""

import getpass
import sys

import yaml

from osc_lib import exceptions as osc_exc

import heat_deploy_runner as runner
from heat_deploy_runner.components import choosing
from heat_deploy_runner.components import linking
from heat_deploy_runner.components import listing
from heat_deploy_runner.configs import inputs
from heat_deploy_runner import masking
from heat_deploy_runner.osc.components import COMPONENT_HELP
from heat_deploy_runner.osc import failures
from heat_deploy_runner.running.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.running.run_request import DEFAULT_TRANSPORT
from heat_deploy_runner.running.run_request import MAX_RETRIES
from heat_deploy_runner.running.run_request import MAX_RETRY_DELAY
from heat_deploy_runner.running.run_request import MAX_SERVERS
from heat_deploy_runner.running.run_request import MAX_TIMEOUT_MINUTES
from heat_deploy_runner.running.run_request import RunRequest
from heat_deploy_runner.signalling.signals import NoSignal


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
                    f'({", ".join(server_names(clients, component.server_ids)) or "none"}).')
        if server_id not in chosen:
            chosen.append(server_id)
    return chosen


def _chosen(clients, component, action, parsed_args):
    """The server ids the arguments choose, in the component's order for --all-servers and
    the choosers alone (batches take the servers in order)."""
    stack, last_status = parsed_args.stack, parsed_args.last_status
    if not (parsed_args.servers or parsed_args.all_servers or stack or last_status):
        raise osc_exc.CommandError(
            'Choose the servers: --server (repeat for more), --all-servers, --stack or '
            '--last-status.')
    among = (server_ids(clients, component, parsed_args.servers) if parsed_args.servers
             else component.server_ids)
    chosen = choosing.chosen(component, among, action=action, stacks=clients.servers.stacks(),
                             stack=stack, last_status=last_status)
    if not chosen:
        asked = ' '.join(filter(None, [
            stack and f'in the stack {stack}',
            last_status and (f'with no {action} run yet' if last_status == choosing.NEVER
                             else f'with its last {action} run {last_status}')]))
        raise osc_exc.CommandError(
            f'Found no server of {component.short_name} {asked}: nothing was started. Its '
            f'servers: {", ".join(server_names(clients, component.server_ids)) or "none"}.')
    return tuple(chosen)


def server_names(clients, ids):
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


def whole_number(lowest, highest):
    """An argparse type: a whole number from ``lowest`` to ``highest``; argparse names it
    in its refusal."""
    def parse(text):
        number = int(text)
        if not lowest <= number <= highest:
            raise ValueError(text)
        return number
    parse.__name__ = f'a whole number from {lowest} to {highest}'
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
    parser.add_argument('--live', action='store_true',
                        help='Send the output while the script runs, which `software run '
                             'output RUN --follow` and the run\'s page show as it comes: '
                             'the server\'s image needs heat-deploy-script-hook (one '
                             'without it runs the action as ever, its output coming at the '
                             'end). Not with NO_SIGNAL, which sends nothing back.')
    parser.add_argument('--timeout', metavar='<minutes>',
                        type=whole_number(1, MAX_TIMEOUT_MINUTES),
                        default=DEFAULT_TIMEOUT_MINUTES,
                        help='How long the server may take to report its result (default '
                             f'{DEFAULT_TIMEOUT_MINUTES}).')
    return parser


def live(parsed_args, transport_name):
    """Whether the request asks for live output (--live); refused with NO_SIGNAL, whose server
    is given nowhere to send anything."""
    if parsed_args.live and transport_name == NoSignal.name:
        raise osc_exc.CommandError(
            f'Live output comes back the way the result does, and {NoSignal.name} sends '
            'nothing back: give another --transport, or leave out --live.')
    return parsed_args.live


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


def add_request_arguments(parser, choosers=False):
    """The arguments of a run request, as the Run Action form has them; with ``choosers``,
    its filters of the servers too (--stack, --last-status: servers chosen as the command
    runs, which a schedule's later firings would not be)."""
    parser.add_argument('component', metavar='<component>', help=COMPONENT_HELP)
    parser.add_argument('action', metavar='<action>',
                        help='The action to run: one of the component\'s custom actions '
                             '(e.g. BACKUP), or a lifecycle action with '
                             '--confirm-lifecycle.')
    which = parser.add_mutually_exclusive_group(required=not choosers)
    which.add_argument('--server', metavar='<server>', action='append', dest='servers',
                       help='A server the component is deployed on, by name or ID '
                            '(repeat for more).')
    which.add_argument('--all-servers', action='store_true',
                       help='Every server the component is deployed on, as the Run Action '
                            'form ticks them.')
    if choosers:
        parser.add_argument('--stack', metavar='<stack>',
                            help='Only the servers of this stack, by name (a nested '
                                 'stack\'s servers are its top-level stack\'s too): of '
                                 'those given with --server, or of all the component\'s.')
        parser.add_argument('--last-status', metavar='<status>', type=str.upper,
                            choices=choosing.LAST_STATUSES,
                            help='Only the servers whose last run of the action ended so: '
                                 f'{", ".join(choosing.LAST_STATUSES)} (never ran it); of '
                                 'those given with --server, or of all the component\'s.')
    else:
        parser.set_defaults(stack=None, last_status=None)
    add_how_it_runs(parser)
    parser.add_argument('--batch-size', metavar='<servers>',
                        type=whole_number(1, MAX_SERVERS),
                        help='Run on this many servers at a time, the next ones once '
                             'each of them has finished. The workflow service (Mistral) '
                             'runs the batches: they go on after this command ends.')
    parser.add_argument('--max-failures', metavar='<servers>', type=whole_number(0, MAX_SERVERS),
                        default=0,
                        help='With --batch-size: once more servers than this have '
                             'failed, no further batch starts (default 0).')
    parser.add_argument('--retries', metavar='<tries>', type=whole_number(0, MAX_RETRIES),
                        default=0,
                        help='Run a server whose run failed again, up to this many times '
                             f'(0 to {MAX_RETRIES}, default 0); it counts as failed only '
                             'after its last try. The workflow service (Mistral) runs the '
                             'tries: without --batch-size, all the servers make one batch.')
    parser.add_argument('--retry-delay', metavar='<seconds>',
                        type=whole_number(0, MAX_RETRY_DELAY), default=0,
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
        chosen_transport = transport(clients, parsed_args.transport)
        asks_live = live(parsed_args, chosen_transport)
        return component, RunRequest(
            config_id=component.id, action=action,
            server_ids=_chosen(clients, component, action, parsed_args),
            input_values=typed_inputs(component.inputs, parsed_args),
            transport=chosen_transport, timeout_minutes=parsed_args.timeout,
            name=component.run_name, batch_size=parsed_args.batch_size or 0,
            max_failures=parsed_args.max_failures, retries=parsed_args.retries,
            retry_delay=parsed_args.retry_delay, live=asks_live)
