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

"""What to run where, with what: one submit of Run Action or Deploy, a run in batches, a
schedule's firing, under one set of names from the form to the server.

Two shapes of it are kept outside this package, released and stored in Mistral, so their
names stay as they were: the rolling workflows' input (the same from rolling_v2 to
workflows.ROLLING_WORKFLOW; a schedule's cron trigger names the one it was made for) and a
schedule's record (a Mistral environment). Both are
read and written here only.
"""

import dataclasses

DEFAULT_TIMEOUT_MINUTES = 60
DEFAULT_TRANSPORT = 'TEMP_URL_SIGNAL'
# Long enough for any real run plus the agent's polling; a TempURL is a credential the
# server holds, so not for ever.
MAX_TIMEOUT_MINUTES = 7 * 24 * 60
# What Heat keeps of a config's name (its column): a run's derived config is NAME-ACTION.
MAX_NAME = 255
# Above any component's server count; a bound keeps a typo from reaching the workflow.
MAX_SERVERS = 10000
# A failed server tried again at most this often, waiting at most this long between tries:
# tries are for a flaky network or a lock, not for waiting out an outage.
MAX_RETRIES = 10
MAX_RETRY_DELAY = 3600


@dataclasses.dataclass(frozen=True)
class RunRequest:
    # The config the runs derive from: a component's, or a config deployed as it is.
    config_id: str
    action: str
    server_ids: tuple[str, ...] = ()
    # As the inputs' types take them (inputs.coerce_input_values); secrets included, until a
    # run in batches or a schedule keeps them in Object Storage (secret_store).
    input_values: dict = dataclasses.field(default_factory=dict)
    transport: str = DEFAULT_TRANSPORT
    timeout_minutes: int = DEFAULT_TIMEOUT_MINUTES
    # What the runs are named after ("<name>-<action>"); the config's own name when None.
    name: str | None = None
    # In batches of this many servers, on Mistral (0: all at once, here).
    batch_size: int = 0
    max_failures: int = 0
    # A server whose run failed is tried again this many times (runs in batches, schedules),
    # retry_delay seconds apart; it counts as failed only after its last try.
    retries: int = 0
    retry_delay: int = 0
    # Servers still running an earlier run are left out, as a schedule's firings leave them
    # (settling.busy_servers), instead of running a second run beside it.
    leave_out_busy: bool = False
    # Each server is given a live target its streaming hook sends the output to as the script
    # writes it (signalling/live.py).
    live: bool = False

    def workflow_input(self, started_by: str, secret_ref: str | None = None) -> dict:
        """The rolling workflow's input for this request, started for ``started_by``, with
        the secret inputs kept at ``secret_ref`` (secret_store) left out of the values."""
        return {'config_id': self.config_id, 'name': self.name, 'action_name': self.action,
                'server_ids': list(self.server_ids), 'started_by': started_by,
                'input_values': dict(self.input_values), 'transport': self.transport,
                'timeout_minutes': self.timeout_minutes, 'batch_size': self.batch_size,
                'max_failures': self.max_failures, 'secret_ref': secret_ref,
                'retries': self.retries, 'retry_delay': self.retry_delay,
                'skip_busy': self.leave_out_busy, 'live': self.live}

    @classmethod
    def from_workflow_input(cls, workflow_input: dict) -> 'RunRequest':
        """The request a rolling workflow's input holds (workflow_input), its secret inputs
        left out (kept in Object Storage, secret_store)."""
        given = workflow_input
        return cls(config_id=given.get('config_id') or '', action=given.get('action_name') or '',
                   server_ids=tuple(given.get('server_ids') or ()),
                   input_values=dict(given.get('input_values') or {}),
                   transport=given.get('transport') or DEFAULT_TRANSPORT,
                   timeout_minutes=given.get('timeout_minutes') or DEFAULT_TIMEOUT_MINUTES,
                   name=given.get('name'), batch_size=given.get('batch_size') or 0,
                   max_failures=given.get('max_failures') or 0,
                   retries=given.get('retries') or 0, retry_delay=given.get('retry_delay') or 0,
                   leave_out_busy=bool(given.get('skip_busy')), live=bool(given.get('live')))

    def record(self) -> dict:
        """The request as a schedule's record keeps it (see from_record)."""
        return {'component_id': self.config_id, 'run_name': self.name, 'action': self.action,
                'server_ids': list(self.server_ids), 'input_values': dict(self.input_values),
                'transport': self.transport, 'timeout_minutes': self.timeout_minutes,
                'batch_size': self.batch_size, 'max_failures': self.max_failures,
                'retries': self.retries, 'retry_delay': self.retry_delay, 'live': self.live}

    @classmethod
    def from_record(cls, record: dict) -> 'RunRequest':
        """The request a schedule's record keeps (record)."""
        return cls(config_id=record['component_id'], action=record['action'],
                   server_ids=tuple(record['server_ids']),
                   input_values=dict(record.get('input_values') or {}),
                   transport=record['transport'], timeout_minutes=record['timeout_minutes'],
                   name=record.get('run_name'), batch_size=record.get('batch_size') or 0,
                   max_failures=record.get('max_failures') or 0,
                   retries=record.get('retries') or 0,
                   retry_delay=record.get('retry_delay') or 0, live=bool(record.get('live')))


@dataclasses.dataclass(frozen=True)
class Asked:
    """What an operation's rolling execution was asked, read from its workflow input (as
    RunRequest.workflow_input and workflows.schedule_input write it): the request, for whom,
    and, for a schedule's firing, the schedule and the
    trigger it fired through."""

    request: RunRequest
    started_by: str = ''
    schedule: str | None = None
    trigger: str | None = None

    @classmethod
    def of(cls, workflow_input: dict) -> 'Asked':
        return cls(RunRequest.from_workflow_input(workflow_input),
                   started_by=workflow_input.get('started_by') or '',
                   schedule=workflow_input.get('schedule'),
                   trigger=workflow_input.get('trigger'))
