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

"""Retention: a project keeps its runs within a bound, so Heat's caps are never met.

Every run holds one software config and one deployment of the project's in Heat, which caps
both (4,096 each by default). Runs past the bound are archived (archive.py), then deleted
with their derived config and signal target (delete.py). Only runs the dashboard, its
command line or its schedules started (those with an operation) are pruned: a stack's own
deployments are the stack's, and Heat would lose track of them.

The bound (Policy): every run younger than ``keep_days``, and the ``keep_latest`` latest of
each server, component and action; beyond those, no more than ``keep_at_most`` runs. A
running run, and the latest run of each server, component and action, are never pruned,
whatever the bound says.

Each time it runs, retention also sweeps the derived configs of the dashboard's that no run
uses (orphans.py): those Heat made after a start had given up waiting for it.
"""

import collections
import dataclasses
import datetime

from heat_deploy_runner.components import listing
from heat_deploy_runner.configs import derived
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.pruning import orphans
from heat_deploy_runner.running.delete import delete_read
from heat_deploy_runner.signalling.signals import IN_PROGRESS
from heat_deploy_runner import times


# When a project's retention schedule prunes by default: daily, at a quiet time (UTC).
PATTERN = '17 3 * * *'


@dataclasses.dataclass(frozen=True)
class Policy:
    keep_latest: int = 5
    keep_days: int = 7
    # Half of Heat's default cap: a project's stacks and other tools use it too.
    keep_at_most: int = 2000

    @classmethod
    def of(cls, settings: dict | None) -> 'Policy':
        """The policy of a settings mapping (HEAT_DEPLOY_RETENTION), defaults for what it
        leaves out."""
        known = {field.name for field in dataclasses.fields(cls)}
        return cls(**{key: int(value) for key, value in (settings or {}).items()
                      if key in known})


def _group(run):
    return run.server_id, run.operation.source, run.action


def past(found, policy: Policy, now: datetime.datetime) -> list:
    """The runs of ``found`` (Runs) past the bound, oldest first."""
    ours = sorted((run for run in found if run.operation),
                  key=lambda run: (run.creation_time or '', run.id), reverse=True)
    latest = collections.defaultdict(list)
    for run in ours:
        latest[_group(run)].append(run.id)
    never = {ids[0] for ids in latest.values()}
    never.update(run.id for run in ours if run.status == IN_PROGRESS)
    within = {run_id for ids in latest.values() for run_id in ids[:policy.keep_latest]}
    since = now - datetime.timedelta(days=policy.keep_days)
    within.update(run.id for run in ours
                  if (times.parse_time(run.creation_time) or now) >= since)
    kept = [run for run in ours if run.id in never or run.id in within]
    # Over the count, the oldest of those the bound kept go too, but never the protected.
    over = len(kept) - policy.keep_at_most
    for run in reversed(kept):
        if over <= 0:
            break
        if run.id not in never:
            within.discard(run.id)
            over -= 1
    return [run for run in reversed(ours) if run.id not in never and run.id not in within]


@dataclasses.dataclass
class Pruned:
    # The runs archived and deleted (Runs, with their configs), oldest first.
    runs: list
    # What was left behind (runner.Messages: a config or signal target that stayed).
    leftovers: list
    # The derived configs no run used, deleted (dicts, as Heat shows them), oldest first.
    swept: list = dataclasses.field(default_factory=list)


def prune(heat, swift, find_transport, project_id, policy: Policy,
          now: datetime.datetime | None = None, dry_run: bool = False) -> Pruned:
    """Archive, then delete, the project's runs past the bound, then sweep the derived
    configs no run uses (orphans.sweep); with ``dry_run``, only say which. A failure stops
    it where it is: each run pruned before is archived and gone, the one it failed on is
    kept in Heat (archived again next time)."""
    moment = now or datetime.datetime.now(datetime.timezone.utc)
    found = past(listing.runs(heat, project_id), policy, moment)
    if dry_run:
        return Pruned([_described(heat, run) for run in found], [],
                      orphans.unused(heat, project_id, moment))
    done = prune_runs(heat, swift, find_transport, found, moment)
    swept = orphans.sweep(heat, find_transport, project_id, moment)
    done.swept, done.leftovers = swept.configs, done.leftovers + swept.leftovers
    return done


def _described(heat, run):
    config = derived.config_or_none(heat, run.config_id)
    return run.described(config and derived.as_dict(config))


def prune_runs(heat, swift, find_transport, found, now) -> Pruned:
    """Archive, then delete, each of these runs (Runs, ended: past() leaves running ones),
    in order."""
    done = Pruned([], [])
    for run in found:
        described = _described(heat, run)
        archive.put(swift, described, now)
        done.leftovers += delete_read(heat, described, find_transport)
        done.runs.append(described)
    return done
