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

"""`openstack software notice create | list | delete`: who is told of an operation's outcome
(runner.following.notices), by a web address posted to or an email, on failure or always. Its
subject is one of the project's components (every operation of its actions), schedules (every
firing) or operations.

The project's messaging service (Zaqar) keeps the subscriptions and delivers the notices;
the workflow service (Mistral), which follows an operation to its end, sends them.
"""

import dataclasses

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.components import listing
from heat_deploy_runner.following import notices
from heat_deploy_runner.osc.components import COMPONENT_HELP
from heat_deploy_runner.osc import failures
from heat_deploy_runner.osc.operations import find_operation
from heat_deploy_runner.osc.operations import OPERATION_HELP
from heat_deploy_runner.osc.schedules import NO_MISTRAL
from heat_deploy_runner.osc.schedules import SCHEDULE_HELP
from heat_deploy_runner.scheduling import schedule_kinds
from heat_deploy_runner.scheduling import schedules
from heat_deploy_runner import workflows

ZAQAR = ('the messaging service (Zaqar)', 'Zaqar')
NO_ZAQAR = ('Notices need the messaging service (Zaqar), which is not in your service '
            'catalog: it keeps the subscriptions and delivers the notices.')
SUBSCRIBER_HELP = ('Who is told: a web address (http:// or https://) each notice is posted '
                   'to as JSON, or mailto: and an email address (where the cloud\'s Zaqar '
                   'sends mail).')
WHEN_HELP = ('When to be told: "failure" (the default), when a server failed, was cancelled '
             'or could not start; "always", when the operation ends.')


@dataclasses.dataclass(frozen=True)
class Subject:
    """What notices are subscribed to: ``id`` keeps its subscriptions (notices.queue_name),
    ``name`` is what the user gave. ``note``: why no notice of it may come, if so."""
    kind: str
    id: str
    name: str
    note: str | None = None

    def __str__(self):
        return f'{self.kind} {self.name}'


def _component(clients, text):
    with failures.calling(failures.HEAT, 'retrieve the software components'):
        found = listing.find(listing.components(clients.heat, clients.project_id), text)
    return Subject('component', found.id, found.short_name)


def _schedule(clients, name):
    if clients.mistral is None:
        raise osc_exc.CommandError(NO_MISTRAL)
    with failures.calling(failures.MISTRAL, f'retrieve the schedule {name}'):
        # LookupError's sentence: "No schedule X in this project."
        record = schedules.record_get(clients.mistral, clients.project_id, name)
    if not schedule_kinds.kind_of(record).runs_on_servers:
        raise osc_exc.CommandError(
            f'The schedule {name} runs on no server: it starts no operation to be told of.')
    return Subject('schedule', name, name)


def _operation(clients, operation_id):
    found, execution = find_operation(clients, operation_id)
    return Subject('operation', operation_id, operation_id,
                   note=_unfollowed(clients, found, execution))


def _unfollowed(clients, found, execution):
    """Why no notice of the operation will come, when that can be told: notices are sent by
    the Mistral execution that follows it, when it ends."""
    if execution is not None:
        if execution.state in workflows.RUNNING_STATES:
            return None
        return 'No notice of this operation will be sent: it has ended.'
    if clients.mistral is None and any(run.operation.followed for run in found):
        # Its runs say Mistral follows it, and this command cannot see Mistral to check.
        return None
    return ('No notice of this operation will be sent: nothing follows it to its end (the '
            'workflow service, Mistral, follows operations started where it is in the '
            'catalog).')


_LOOKUPS = {'component': _component, 'schedule': _schedule, 'operation': _operation}


def _add_subject(parser):
    subject = parser.add_mutually_exclusive_group(required=True)
    subject.add_argument('--component', metavar='<component>',
                         help='Notices of every operation of this component\'s actions. '
                              + COMPONENT_HELP)
    subject.add_argument('--schedule', metavar='<schedule>',
                         help='Notices of every firing of this schedule. ' + SCHEDULE_HELP)
    subject.add_argument('--operation', metavar='<operation>',
                         help='Notices of this operation only. ' + OPERATION_HELP)
    return parser


def _zaqar(clients):
    if clients.zaqar is None:
        raise osc_exc.CommandError(NO_ZAQAR)
    return clients.zaqar


def _subject(clients, parsed_args):
    """The project's subject the arguments name (_add_subject); CommandError when it has
    none such."""
    # The parser takes exactly one of them.
    kind = next(each for each in _LOOKUPS if getattr(parsed_args, each) is not None)
    return _LOOKUPS[kind](clients, getattr(parsed_args, kind).strip())


class CreateNotice(command.ShowOne):
    """Be told of the outcome of a component's operations, a schedule's firings or one
    operation: when it ends (the workflow service, Mistral, follows it to its end), a notice
    naming the failed servers, their exit codes and why is posted to a web address or sent
    to an email address, on failure or always."""

    def get_parser(self, prog_name):
        parser = _add_subject(super().get_parser(prog_name))
        parser.add_argument('--on', metavar='<when>', choices=notices.WHEN,
                            default=notices.ON_FAILURE, help=WHEN_HELP)
        parser.add_argument('subscriber', metavar='<subscriber>', help=SUBSCRIBER_HELP)
        return parser

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        zaqar = _zaqar(clients)
        subject = _subject(clients, parsed_args)
        with failures.calling(ZAQAR, f'subscribe to the notices of the {subject}',
                              'Nothing was subscribed.'):
            made = notices.subscribe(zaqar, subject.id, parsed_args.on,
                                     parsed_args.subscriber)
        if subject.note:
            self.app.stderr.write(subject.note + '\n')
        shown = {'id': made.id, subject.kind: subject.name, 'on': made.when,
                 'subscriber': made.subscriber}
        return tuple(shown), tuple(shown.values())


class ListNotice(command.Lister):
    """List who is told of the outcome of a component's operations, a schedule's firings or
    one operation, and when: on failure or always."""

    def get_parser(self, prog_name):
        return _add_subject(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        zaqar = _zaqar(clients)
        subject = _subject(clients, parsed_args)
        with failures.calling(ZAQAR, f'retrieve the notices of the {subject}'):
            found = notices.subscriptions(zaqar, subject.id)
        return ('ID', 'On', 'Subscriber'), [
            (each.id, each.when, each.subscriber) for each in found]


class DeleteNotice(command.Command):
    """Stop telling a subscriber of a component's operations, a schedule's firings or one
    operation: remove the subscription of this ID (as `notice list` shows it)."""

    def get_parser(self, prog_name):
        parser = _add_subject(super().get_parser(prog_name))
        parser.add_argument('subscription', metavar='<subscription>',
                            help='The subscription\'s ID, as `notice list` shows it.')
        return parser

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        zaqar = _zaqar(clients)
        subject = _subject(clients, parsed_args)
        wanted = parsed_args.subscription.strip()
        with failures.calling(ZAQAR, f'remove a notice of the {subject}',
                              'Nothing was removed.'):
            removed = notices.unsubscribe(zaqar, subject.id, wanted)
        if not removed:
            raise osc_exc.CommandError(
                f'The {subject} has no notice {wanted}: `openstack software notice list '
                f'--{subject.kind} {subject.name}` lists its notices.')
