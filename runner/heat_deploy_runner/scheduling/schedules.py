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

"""Schedules: a component's action run on its servers at times a cron pattern gives (or once),
by Mistral, with nobody's browser open. The dashboard's Schedules panel and the command line
make, pause, resume, change and delete them here, on the clients each makes
(workflow_clients.WorkflowClients), and read them here too (records, triggers, record_get).

Each is an environment named ``hdd-<uuid>`` holding its record (what runs where, when,
whose: RunRequest.record() with component_name, pattern, once_at, owner, paused, trigger),
and the Mistral cron trigger of heat-deploy-runner's rolling workflow it fires through (the
record's ``trigger``: the schedule's own name at first, a new name each time it is made
again). The record stays while the schedule is paused: Mistral cannot pause a trigger, so
pausing deletes it and resuming makes another (with a new trust, from the user who resumes).
A firing leaves out servers still running an earlier run (skip_busy), so a schedule never
runs twice at once on a server. Patterns are UTC, as Mistral reads them. Secret inputs are
kept in the project's Object Storage (secret_store), only their names in the record.

A schedule paused, changed or deleted while it fires leaves the firing to finish: deleting
its trigger would delete the trust the firing acts through. The firing releases the trigger
(and the secret inputs the schedule no longer keeps) when it ends (the rolling workflow's
release), as Mistral keeps the trust of a trigger's last firing until its workflow completes.

A project's retention (retention.py) is a schedule too, of its own kind (schedule_kinds,
where all that sets it apart is kept), under one name (RETENTION). It is made when the
project makes its first schedule (what fills Heat's caps unattended), or when a user turns
it on; it is paused, resumed and deleted as any.

Who made, paused, resumed or changed a schedule, and when, is kept with it: its record's
``history``, the latest HISTORY_KEPT entries {what, by, at}, oldest first. Deleting one
leaves nothing to keep it with (the record goes too), so a delete is not recorded.
"""

import datetime
import json
import uuid

from heat_deploy_runner import masking
from heat_deploy_runner.pruning import retention
from heat_deploy_runner.running.run_request import Asked
from heat_deploy_runner.scheduling import schedule_kinds
from heat_deploy_runner.times import parse_time
from heat_deploy_runner.times import utc_text
from heat_deploy_runner import workflows
from heat_deploy_runner.workflows.executions import is_not_found
from heat_deploy_runner.workflows import secret_store
from heat_deploy_runner.workflows import trigger_of

# Tells the project's schedules from its other triggers and environments.
SCHEDULE_PREFIX = 'hdd-'
# Mistral's [api] max_limit by default: it answers a longer list page by page.
PAGE = 1000
MISTRAL_TIME = '%Y-%m-%d %H:%M:%S'
# Mistral's executions list's filters for the project's rolling executions that have not
# ended: where a firing of a trigger is looked for (firing).
RUNNING_OPERATIONS = {'workflow_name': 'in:' + ','.join(workflows.ROLLING_WORKFLOWS),
                      'state': 'in:' + ','.join(workflows.RUNNING_STATES), 'limit': PAGE}

ACTIVE, PAUSED, DONE, NO_TRIGGER = 'active', 'paused', 'done', 'no trigger'
# The project's retention schedule: one name in every project (Mistral's names are the
# project's own), so that it is made once.
RETENTION = SCHEDULE_PREFIX + str(uuid.uuid5(uuid.NAMESPACE_URL,
                                             'heat-deploy-dashboard/retention'))

# What a record's history says was done: CREATED, PAUSED (as the state is named), RESUMED or
# CHANGED. Not translated: a page translates what it shows.
CREATED, CHANGED, RESUMED = 'created', 'changed', 'resumed'
HISTORY_KEPT = 20


def own(rows, project_id):
    """The rows that are the project's schedules: Mistral lists an admin every project's."""
    return [row for row in rows if getattr(row, 'project_id', None) == project_id
            and row.name.startswith(SCHEDULE_PREFIX)]


def every_schedule(listing):
    """The rows of a Mistral list of named things (environments, cron triggers) whose names
    may be schedules', a page at a time, in name order, each page after the last name seen:
    Mistral 23 takes no marker for environments (it wants a UUID, then looks it up as a
    name)."""
    rows, after = [], SCHEDULE_PREFIX
    while True:
        page = listing(limit=PAGE, sort_keys='name', sort_dirs='asc', name='gt:' + after)
        rows += page
        if len(page) < PAGE or not page[-1].name.startswith(SCHEDULE_PREFIX):
            return rows
        after = page[-1].name


def mistral_time(text):
    """A time as Mistral writes it (naive UTC), aware; None for none."""
    if not text:
        return None
    return datetime.datetime.strptime(text, MISTRAL_TIME).replace(tzinfo=datetime.timezone.utc)


def state(record, trigger):
    """ACTIVE, PAUSED, DONE (a one-time schedule that has fired) or NO_TRIGGER. A paused
    schedule's trigger may stay while its last firing runs."""
    if record.get('paused'):
        return PAUSED
    if trigger is not None:
        return ACTIVE
    # Mistral deletes a one-time trigger once it has fired.
    return DONE if record.get('once_at') else NO_TRIGGER


def shown_inputs(record):
    """{name: value} of the record's inputs as a page shows them: secrets masked, and those
    kept in Object Storage by name only."""
    shown = {name: masking.mask_value(name, value)
             for name, value in (record.get('input_values') or {}).items()}
    return dict(shown, **{name: masking.MASK for name in record.get('secret_names', [])})


def _now():
    return datetime.datetime.now(datetime.timezone.utc)


def with_history(record, what, by, now=None):
    """The record with "``what`` (CREATED, PAUSED, RESUMED or CHANGED), by the user ``by``,
    now" last in its history, which keeps the latest HISTORY_KEPT entries."""
    entry = {'what': what, 'by': by, 'at': utc_text(now or _now())}
    return dict(record, history=(history(record) + [entry])[-HISTORY_KEPT:])


def history(record):
    """The record's history entries ({what, by, at}), oldest first: none in a record made
    before schedules kept one, nor anything else Mistral's environment was given."""
    kept = record.get('history')
    return [each for each in kept if isinstance(each, dict)] if isinstance(kept, list) else []


def last_change(record):
    """The record's latest history entry ({what, by, at}), or None."""
    return (history(record) or [None])[-1]


def paused_at(record):
    """When the schedule was paused (aware UTC), while it is; else None."""
    change = last_change(record)
    if not record.get('paused') or not change or change.get('what') != PAUSED:
        return None
    return parse_time(change.get('at'))


def fires_through(record, name, trigger):
    """Whether the schedule ``name`` (its record None: deleted) still fires through the
    cron trigger ``trigger``."""
    return (record is not None and not record.get('paused')
            and trigger_of(name, record) == trigger)


def is_firing_of(trigger, workflow_input):
    """Whether a rolling execution of this input is a firing of the cron trigger
    ``trigger`` (one made before firings carried their trigger is none's)."""
    return bool(trigger) and Asked.of(workflow_input).trigger == trigger


def _new_trigger_name(name):
    # Another than the one a firing may still hold (names are unique in a project).
    return f'{name}.{uuid.uuid4().hex[:8]}'


def records(mistral, project_id):
    """The project's schedules' records: Mistral environments, ``variables`` a dict."""
    return own(every_schedule(mistral.environments.list), project_id)


def triggers(mistral, project_id):
    """The cron triggers of the project's schedules."""
    return own(every_schedule(mistral.cron_triggers.list), project_id)


def record_get(mistral, project_id, name):
    """The record (a dict) of the project's schedule of this name; LookupError for none, and
    for a Mistral environment of the project that is no schedule (not named SCHEDULE_PREFIX
    ...)."""
    try:
        found = mistral.environments.get(name)
    except Exception as error:
        if not is_not_found(error):
            raise
        found = None
    if found is None or found.project_id != project_id or not name.startswith(
            SCHEDULE_PREFIX):
        raise LookupError(f'No schedule {name} in this project.')
    return found.variables


def _record_save(mistral, name, variables, create=False):
    if create:
        return mistral.environments.create(name=name, variables=variables, scope='private',
                                           description='heat-deploy-dashboard schedule')
    return mistral.environments.update(name=name, variables=variables)


def _record_delete(mistral, name):
    mistral.environments.delete(name)


def _trigger_create(clients, name, workflow_input, pattern=None, first_time=None,
                    workflow=workflows.ROLLING_WORKFLOW):
    """A trigger of the project's copy of the workflow: Mistral makes a Keystone trust from
    the user to itself, and each firing runs through it."""
    workflow_id = workflows.ensure(clients.mistral, clients.project_id, workflow)
    return clients.mistral.cron_triggers.create(
        name, workflow_id, workflow_input=workflow_input, pattern=pattern,
        first_time=first_time)


def _trigger_delete(mistral, name):
    """Delete the trigger (and Mistral its trust); one already gone is fine."""
    try:
        mistral.cron_triggers.delete(name)
    except Exception as error:
        if not is_not_found(error):
            raise


def _firing_now(clients, trigger):
    """Whether a firing of the project's cron trigger runs now."""
    return firing([(each.id, each.project_id, each.input)
                   for each in clients.mistral.executions.list(**RUNNING_OPERATIONS)],
                  clients.project_id, trigger)


def firing(executions, project_id, trigger, but=None):
    """Whether a firing of the project's cron trigger ``trigger`` runs now, other than the
    execution ``but``: ``executions`` are (id, project id, input as JSON) of Mistral's
    executions listed with RUNNING_OPERATIONS (Mistral lists an admin every project's)."""
    return any(execution_id != but and owner == project_id
               and is_firing_of(trigger, json.loads(workflow_input or '{}'))
               for execution_id, owner, workflow_input in executions)


def _keeping_secrets(clients, name, record):
    """The record as Mistral may hold it: its secret inputs kept in Object Storage, their
    names and reference in their place."""
    plain, ref = secret_store.keep(clients.swift, name, record.get('input_values'))
    secret_names = sorted(set(record.get('input_values') or {}) - set(plain))
    return dict(record, input_values=plain, secret_ref=ref, secret_names=secret_names)


def _start_trigger(clients, name, record):
    """Make the cron trigger the record names (``trigger_of``)."""
    kind = schedule_kinds.kind_of(record)
    _trigger_create(clients, trigger_of(name, record),
                    kind.trigger_input(record, name, clients.username),
                    pattern=record.get('pattern'), first_time=record.get('once_at'),
                    workflow=kind.workflow)


def _retire_trigger(clients, name, before):
    """Stop the trigger the schedule fired through before (``before``, its record then):
    now, or when the firing that runs now ends (it releases the trigger). Whether a firing
    goes on."""
    trigger = trigger_of(name, before)
    if _firing_now(clients, trigger):
        return True
    _trigger_delete(clients.mistral, trigger)
    return False


def create(clients, record, name=None):
    """Save the record and start its trigger, on ``clients`` (a WorkflowClients), for their
    user; on a failure, nothing is left behind. The schedule's name."""
    name = name or SCHEDULE_PREFIX + str(uuid.uuid4())
    record = _keeping_secrets(clients, name, with_history(
        dict(record, owner=clients.username, paused=False, history=[]), CREATED,
        clients.username))
    try:
        _record_save(clients.mistral, name, record, create=True)
    except Exception:
        secret_store.forget_kept(clients.swift, record['secret_ref'])
        raise
    try:
        _start_trigger(clients, name, record)
    except Exception:
        _record_delete(clients.mistral, name)
        secret_store.forget_kept(clients.swift, record['secret_ref'])
        raise
    return name


def _record_of(clients, name):
    return record_get(clients.mistral, clients.project_id, name)


def pause(clients, name):
    """Pause the schedule: no more firings. Whether its firing that runs now goes on."""
    record = _record_of(clients, name)
    _record_save(clients.mistral, name, with_history(dict(record, paused=True), PAUSED,
                                                     clients.username))
    # Saved first: a firing that ends meanwhile reads it and releases its trigger itself.
    return _retire_trigger(clients, name, record)


def resume(clients, name, retention_settings=None):
    """Fire the schedule again, acting for the user who resumes it; a retention schedule
    with the bound and pattern of ``retention_settings`` (the dashboard's, where given)."""
    record = _record_of(clients, name)
    record = schedule_kinds.kind_of(record).resumed(record, retention_settings)
    record = with_history(dict(record, owner=clients.username, paused=False,
                               trigger=_new_trigger_name(name)), RESUMED, clients.username)
    _start_trigger(clients, name, record)
    _record_save(clients.mistral, name, record)


def change(clients, name, record):
    """Give the schedule what to run and when anew, under its name. A paused one stays
    paused; otherwise it gets a new trigger (Mistral cannot change one), acting for the
    user who changes it. On a failure the schedule is left as it was. Whether a firing of
    its old trigger goes on."""
    # The record first: it answers only the working project's.
    before = _record_of(clients, name)
    unchangeable = schedule_kinds.kind_of(before).unchangeable
    if unchangeable:
        raise LookupError(unchangeable)
    paused = bool(before.get('paused'))
    # New secrets get an object of their own, and an active schedule a new trigger, made
    # before the old one goes: a firing of the old one may still need both. Its history
    # goes on: the new record is the form's, which has none.
    after = _keeping_secrets(clients, name, with_history(dict(
        record, owner=before.get('owner') if paused else clients.username, paused=paused,
        trigger=trigger_of(name, before) if paused else _new_trigger_name(name),
        history=history(before)), CHANGED, clients.username))
    made = False
    try:
        if not paused:
            _start_trigger(clients, name, after)
            made = True
        _record_save(clients.mistral, name, after)
    except Exception:
        if made:
            _trigger_delete(clients.mistral, trigger_of(name, after))
        secret_store.forget_kept(clients.swift, after['secret_ref'])
        raise
    # A paused schedule's trigger went with the pause, or goes with its last firing.
    goes_on = (_firing_now(clients, trigger_of(name, before)) if paused
               else _retire_trigger(clients, name, before))
    if not goes_on:
        secret_store.forget_kept(clients.swift, before.get('secret_ref'))
    return goes_on


def delete(clients, name):
    """Delete the schedule. Whether its firing that runs now goes on (it then releases the
    trigger and the secret inputs when it ends)."""
    # Not in the history: it goes with the record (nor is the delete kept anywhere else).
    # The record first: it answers only the working project's (Mistral would let an admin
    # delete any project's trigger by name).
    record = _record_of(clients, name)
    _record_delete(clients.mistral, name)
    if _retire_trigger(clients, name, record):
        return True
    secret_store.forget_kept(clients.swift, record.get('secret_ref'))
    return False


def keep_retention(clients, policy: retention.Policy, pattern=retention.PATTERN):
    """Make the project's retention schedule unless it has one (a paused one too: someone
    paused it). Whether it was made."""
    try:
        _record_of(clients, RETENTION)
        return False
    except LookupError:
        pass
    create(clients, schedule_kinds.RETENTION.record(policy, pattern), name=RETENTION)
    return True
