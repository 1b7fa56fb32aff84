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

"""`openstack software schedule list | show | create | pause | resume | delete`: the Schedules
panel's schedules (runner.scheduling.schedules), made and changed by the same code, with the same
fields; secret inputs kept in Object Storage and shown masked, as the panel keeps them."""

import logging

from osc_lib.cli import format_columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.osc import failures
from heat_deploy_runner.osc.request_options import add_request_arguments
from heat_deploy_runner.osc.request_options import run_request
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.scheduling import cron
from heat_deploy_runner.scheduling import schedule_kinds
from heat_deploy_runner.scheduling import schedules
from heat_deploy_runner.workflows import secret_store
from heat_deploy_runner.workflows.workflow_clients import WorkflowClients

LOG = logging.getLogger(__name__)
SCHEDULE_HELP = 'The schedule: its name (hdd-...), as `schedule list` shows it.'
NO_MISTRAL = ('Schedules are kept and run by the workflow service (Mistral), which is not in '
              'your service catalog.')


def _printable(text):
    """The text with its control characters escaped (\\x1b): a username may hold any, and a
    terminal would act on them."""
    return ''.join(each if each.isprintable() else repr(each)[1:-1] for each in str(text))


class HistoryColumn(format_columns.ListDictColumn):
    """A schedule's history (schedules.history), a line each, the latest last: "<UTC time>
    <what> by <user>"."""

    def human_readable(self):
        return '\n'.join(
            _printable(f"{each.get('at')} {each.get('what')} by {each.get('by')}")
            for each in self._value or [])


def _workflow_clients(clients):
    if clients.mistral is None:
        raise osc_exc.CommandError(NO_MISTRAL)
    return WorkflowClients(clients.mistral, clients.swift, clients.project_id,
                           clients.username)


def _when(record):
    if record.get('pattern'):
        return f"{record['pattern']} (UTC)"
    return f"once at {record.get('once_at')} UTC" if record.get('once_at') else ''


def _shown(clients, name, record, trigger):
    names = clients.servers.names()
    next_run = trigger.next_execution_time if trigger is not None else None
    kind = schedule_kinds.kind_of(record)
    return {
        'name': name, 'component': kind.component(record), 'action': kind.action(record),
        'servers': format_columns.ListColumn(
            [names.get(each) or each for each in record.get('server_ids') or []]),
        'when': _when(record), 'state': schedules.state(record, trigger),
        'next_run': f'{next_run} UTC' if next_run else '', 'owner': record.get('owner') or '',
        'inputs': format_columns.DictColumn(schedules.shown_inputs(record)),
        'transport': record.get('transport'), 'live': bool(record.get('live')),
        'timeout': record.get('timeout_minutes'),
        'batch_size': record.get('batch_size') or 0,
        'max_failures': record.get('max_failures') or 0,
        # Who made, paused, resumed or changed it, and when (the latest entries).
        'history': HistoryColumn(schedules.history(record)),
    }


def _parser(parser):
    parser.add_argument('schedule', metavar='<schedule>', help=SCHEDULE_HELP)
    return parser


class ListSchedule(command.Lister):
    """List the project's schedules: what runs where, when, whose, and whether it is active,
    paused or done."""

    COLUMNS = ('name', 'component', 'action', 'servers', 'when', 'state', 'next_run', 'owner')

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        made = _workflow_clients(clients)
        with failures.calling(failures.MISTRAL, 'retrieve the schedules'):
            triggers = {each.name: each
                        for each in schedules.triggers(made.mistral, made.project_id)}
            found = [_shown(clients, each.name, each.variables, triggers.get(
                schedules.trigger_of(each.name, each.variables)))
                for each in schedules.records(made.mistral, made.project_id)]
        return ([column.replace('_', ' ').title() for column in self.COLUMNS],
                [[each[column] for column in self.COLUMNS] for each in found])


class ShowSchedule(command.ShowOne):
    """Show a schedule: what it runs where, with which inputs (secrets masked), when, whose,
    whether it is active, paused or done, and who made, paused, resumed or changed it, when
    (its latest changes, in UTC)."""

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        return _shown_schedule(clients, _workflow_clients(clients), parsed_args.schedule)


def _add_when(parser):
    when = parser.add_mutually_exclusive_group(required=True)
    when.add_argument('--repeat', metavar='<cron pattern>',
                      help='Run at each time this cron pattern gives: minute, hour, day of '
                           'the month, month, day of the week, in UTC (e.g. "0 2 * * *" for '
                           'every day at 02:00 UTC).')
    when.add_argument('--once-at', metavar='<YYYY-MM-DD HH:MM>',
                      help='Run once at this time (UTC), at least two minutes from now.')
    return parser


def _record(clients, parsed_args):
    """The schedule's record the arguments ask for (RunRequest.record() and when), checked
    as the form checks them."""
    pattern = ' '.join((parsed_args.repeat or '').split())
    once_at = (parsed_args.once_at or '').strip()
    if parsed_args.repeat is not None and not cron.valid_pattern(pattern):
        raise osc_exc.CommandError(
            'Give a cron pattern of five fields: minute, hour, day of the month, month and '
            'day of the week, e.g. "0 2 * * *" for every day at 02:00 UTC.')
    if parsed_args.once_at is not None:
        try:
            moment = cron.once_at(once_at)
        except ValueError:
            raise osc_exc.CommandError('Write the time as YYYY-MM-DD HH:MM, in UTC.') from None
        if not cron.soon_enough(moment):
            raise osc_exc.CommandError('The time must be at least two minutes from now.')
    component, request = run_request(clients, parsed_args)
    # What the firings' notices name the servers by (the form keeps the same).
    names = clients.servers.names()
    return dict(request.record(), component_name=component.name, pattern=pattern or None,
                once_at=once_at or None,
                server_names={each: names[each] for each in request.server_ids
                              if names.get(each)})


def _changing(doing, outcome, change):
    """``change()``'s answer, with the sentences of a failure."""
    with failures.calling(failures.MISTRAL, doing, outcome):
        try:
            return change()
        except secret_store.NotKept as error:
            raise osc_exc.CommandError(failures.sentence(
                doing, failures.SWIFT, outcome)) from error


def _shown_schedule(clients, made, name):
    with failures.calling(failures.MISTRAL, f'retrieve the schedule {name}'):
        record = schedules.record_get(made.mistral, made.project_id, name)
        trigger = {each.name: each
                   for each in schedules.triggers(made.mistral, made.project_id)}.get(
            schedules.trigger_of(name, record))
    shown = _shown(clients, name, record, trigger)
    return tuple(shown), tuple(shown.values())


class CreateSchedule(command.ShowOne):
    """Schedule a component's action on its servers, as the Run Action form's "Repeat" or
    "Or once at" does: the workflow service (Mistral) runs it at each time a cron pattern
    gives (UTC), or once, acting for you; a firing leaves out a server still running an
    earlier run."""

    def get_parser(self, prog_name):
        return _add_when(add_request_arguments(super().get_parser(prog_name)))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        made = _workflow_clients(clients)
        record = _record(clients, parsed_args)
        name = _changing(f'schedule {record["action"]}', 'Nothing was scheduled.',
                         lambda: schedules.create(made, record))
        # Schedules are what fill Heat's caps with nobody watching: the project's first
        # makes its retention schedule, as the panel's does.
        try:
            if schedules.keep_retention(made, retention.Policy()):
                self.app.stderr.write(f'Retention is on for the project: schedule '
                                      f'{schedules.RETENTION} ({retention.PATTERN} UTC).\n')
        except Exception:
            LOG.debug('Could not make the retention schedule', exc_info=True)
            self.app.stderr.write('Retention could not be turned on: the runs of this '
                                  'schedule are kept until deleted. See `software run '
                                  'prune`.\n')
        return _shown_schedule(clients, made, name)


class ChangeSchedule(command.ShowOne):
    """Give a schedule what to run and when anew, as its Change form does: a paused one stays
    paused; an active one's trigger is made again, acting for you. On a failure it keeps what
    it ran and when."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('schedule', metavar='<schedule>', help=SCHEDULE_HELP)
        return _add_when(add_request_arguments(parser))

    def take_action(self, parsed_args):
        clients = self.app.client_manager.software_runs
        made = _workflow_clients(clients)
        name = parsed_args.schedule
        with failures.calling(failures.MISTRAL, f'retrieve the schedule {name}'):
            schedules.record_get(made.mistral, made.project_id, name)
        record = _record(clients, parsed_args)
        if _changing('change the schedule', 'It keeps what it ran and when.',
                     lambda: schedules.change(made, name, record)):
            self.app.stderr.write('The firing now running goes on as it was; the next firing '
                                  'runs the change.\n')
        return _shown_schedule(clients, made, name)


class _Change(command.Command):
    doing = ''
    change = None
    # When the schedule is paused (True) or not (False), this command has nothing to do.
    refused_when_paused = None

    def get_parser(self, prog_name):
        return _parser(super().get_parser(prog_name))

    def take_action(self, parsed_args):
        made = _workflow_clients(self.app.client_manager.software_runs)
        name = parsed_args.schedule
        with failures.calling(failures.MISTRAL, f'{self.doing} the schedule {name}',
                              'The schedule was left as it was.'):
            paused = bool(schedules.record_get(made.mistral, made.project_id, name).get(
                'paused'))
            if paused is self.refused_when_paused:
                raise osc_exc.CommandError(
                    f'The schedule {name} is {"already" if paused else "not"} paused.')
            if type(self).change(made, name):
                self.app.stdout.write(GOES_ON + '\n')


# What pause and delete say when the schedule is firing (its trigger goes when that ends).
GOES_ON = 'The firing now running goes on; no more firings.'


class PauseSchedule(_Change):
    """Pause a schedule: it does not run until resumed (its Mistral trigger is deleted, its
    record kept). A firing running now goes on to its end."""

    doing = 'pause'
    change = schedules.pause
    refused_when_paused = True


class ResumeSchedule(_Change):
    """Resume a paused schedule: its trigger is made again, acting for you."""

    doing = 'resume'
    change = schedules.resume
    refused_when_paused = False


class DeleteSchedule(_Change):
    """Delete a schedule: its trigger, its record and its secret inputs kept in Object
    Storage (once a firing running now has ended). Operations it started are kept."""

    doing = 'delete'
    change = schedules.delete
