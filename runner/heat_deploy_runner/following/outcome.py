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

"""An operation's outcome: what its follower (a Mistral execution of the follow or rolling
workflow) records as the execution's output once every run of it has ended, and what a
notice tells.

Counted per server, by the run of its last try: a server tried again counts once, as its
last try ended. Each failed server is told with its exit code, why, and the last lines of
its stderr, with the run's secret values scrubbed from them (masking.scrubbed): a notice
leaves the project.
"""

import collections
from datetime import datetime
from datetime import timezone

from heat_deploy_runner import masking
from heat_deploy_runner.running.cancel import shown_status
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.running import runs
from heat_deploy_runner.signalling.signals import COMPLETE
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner import times

# The last lines of a failed server's stderr a notice carries, and at most this many of
# their last characters: one line may be megabytes (a progress bar, a JSON dump), and Mistral
# keeps a task's result only up to 1 MiB, Zaqar a message up to 256 KiB.
STDERR_LINES = 10
STDERR_CHARS = 2000


def last_tries(found: list[Run]) -> dict[str, Run]:
    """The run of each server's last try, by server id."""
    last = {}
    for run in sorted(found, key=lambda each: (_try_of(each), each.creation_time or '')):
        last[run.server_id] = run
    return last


def _try_of(run):
    return (run.operation and run.operation.try_number) or 1


def stderr_tail(run: Run, secrets=()) -> str:
    """The end of the run's stderr, ``secrets`` (masking.secret_values) scrubbed from the
    whole of it first: a tail cut into a secret would leave the rest of it unmatched."""
    text = masking.scrubbed(runs.output_text(run.output_values.get('deploy_stderr')), secrets)
    lines = text.rstrip('\n').split('\n')
    return '\n'.join(lines[-STDERR_LINES:])[-STDERR_CHARS:]


def outcome(found: list[Run], refused=(), not_started=(), gone=(),
            now: datetime | None = None) -> dict:
    """The outcome of an operation whose runs (each with its derived config) are ``found``:
    {ended_at, servers, counts (by shown status: COMPLETE, FAILED, CANCELLED, IN_PROGRESS),
    failed: [{server_id, exit_code, reason, stderr, tries}], refused: [[server id, why]] (no
    run could be made), not_started (server ids a stop left out), gone (run ids deleted while
    followed)}."""
    last = last_tries(found)
    # A server refused on a later try (every rolling workflow since rolling_v2 tries a failed
    # one again) is told once, by the run of its last try that started.
    refused = [pair for pair in refused if pair[0] not in last]
    tries = collections.Counter(run.server_id for run in found)
    failed = []
    for server_id, run in sorted(last.items()):
        if run.status in (COMPLETE, IN_PROGRESS):
            continue
        secrets = masking.secret_values(run.config)
        failed.append({
            'server_id': server_id,
            'status': shown_status(run),
            'exit_code': runs.exit_code(run),
            'reason': masking.scrubbed(run.reason, secrets),
            'stderr': stderr_tail(run, secrets),
            'tries': tries[server_id],
        })
    moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return {
        'ended_at': times.utc_text(moment),
        'servers': len(last) + len(refused) + len(not_started),
        'counts': dict(collections.Counter(shown_status(run) for run in last.values())),
        'failed': failed,
        'refused': [list(pair) for pair in refused],
        'not_started': list(not_started),
        'gone': list(gone),
    }


def failures(kept: dict) -> int:
    """How many servers an outcome tells did not end COMPLETE: failed, refused or not
    started."""
    return len(kept['failed']) + len(kept['refused']) + len(kept['not_started'])
