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

"""The fleets figure's rows in bench/RESULTS.md, against their goals (bench.fleet_scale
measures it)."""

from bench.fleet_scale import FEW
from bench.fleet_scale import POLL_SECONDS
from bench import measure

GOAL_SUBMIT_RATIO = 3
GOAL_POLL_SECONDS = 1.5
GOAL_OUTCOME_SECONDS = 10
GOAL_SIGNAL_TO_SCREEN_SECONDS = 2.5
# A burst Heat cannot keep up with queues in Heat: the page shows its last result no later
# than a poll interval after Heat alone would have applied it.
GOAL_BURST_EXTRA_SECONDS = POLL_SECONDS


def report_rows(results):
    """bench/RESULTS.md's rows of the figure (report.markdown)."""
    found = results.get('fleets')
    if not found:
        return []
    sizes = found['sizes']
    failures = len(found['failures']) + len(found.get('agent_failures', []))
    said = f'; {failures} failures' if failures else ''
    rows = []
    if '10' in sizes and '200' in sizes:
        ratio = sizes['200']['submit_seconds'] / sizes['10']['submit_seconds']
        rows.append((
            'Run Action submitted on 1, 10, 100 and 200 servers (PING; over 20, Mistral makes '
            f'the runs; medians of {found.get("rounds", 1)} rounds)', ', '.join(
                f'{size["servers"]}: {size["submit_seconds"]:.3f} s (all {size["made"]} runs '
                f'made in {size["all_made_seconds"]:.1f} s)' for size in sizes.values()) + said,
            f'10 servers: {sizes["10"]["submit_seconds"]:.3f} s', f'{ratio:.2f}',
            f'200 within {GOAL_SUBMIT_RATIO} x 10', 'yes' if ratio <= GOAL_SUBMIT_RATIO
            else '**no**'))
    top = sizes.get('200', {})
    if 'poll' in top:
        poll = top['poll']['median_seconds']
        rows.append((f'status poll of an operation\'s page, {top["poll"]["running"]} running '
                     'rows (20 drawn, the rest asked after)',
                     f'median {poll:.3f} s of {found["views"]} polls; the page itself '
                     f'{top["page"]["seconds"]:.3f} s, {top["page"]["rows"]} rows drawn',
                     '-', '-', f'under {GOAL_POLL_SECONDS} s',
                     'yes' if poll < GOAL_POLL_SECONDS else '**no**'))
    if 'signal_to_screen_few' in top:
        shown = top['signal_to_screen_few']
        rows.append((f'signal to screen on an operation\'s page of {top["servers"]} running '
                     f'runs, {FEW} of them answering first (the page polling every 1.5 s)',
                     _shown(shown), '-', '-', f'p95 within {GOAL_SIGNAL_TO_SCREEN_SECONDS} s',
                     'yes' if shown['p95_seconds'] <= GOAL_SIGNAL_TO_SCREEN_SECONDS
                     else '**no**'))
    alone = found.get('heat_alone')
    if 'burst_all_shown_seconds' in top and alone:
        drained = top['burst_all_shown_seconds']
        rows.append((f'the other {top["servers"] - FEW} answering at once, faster than Heat '
                     'applies results: from the first result PUT to the last run shown ended '
                     f'(median of rounds: {", ".join(map(str, top["burst_all_shown_samples"]))})',
                     f'{drained:.1f} s; signal to screen ' + _shown(top['signal_to_screen']),
                     _heat_alone(alone), f'{drained / alone["all_seconds"]:.2f}',
                     f'all shown within {GOAL_BURST_EXTRA_SECONDS} s of Heat alone\'s',
                     'yes' if drained <= alone['all_seconds'] + GOAL_BURST_EXTRA_SECONDS
                     else '**no**'))
    if 'page_requests' in top:
        made = top['page_requests']
        polls = made.get('status_seconds') or []
        rows.append((f'requests of an operation\'s page of {top["servers"]} running runs '
                     f'(headless Chromium, {made["seconds"]} s after it loaded, 20 rows a page)',
                     f'{made["requests"]} ({made["status_polls"]} status polls, HTTP '
                     f'{", ".join(map(str, made.get("status_codes", []))) or "-"}, median '
                     f'{measure.median(polls) if polls else 0:.2f} s'
                     + ''.join(f'; {path} once at load' for path in made.get('once_at_load', []))
                     + f'): {made["per_interval"]:.2f} per {POLL_SECONDS} s', '-', '-',
                     f'at most 1 per {POLL_SECONDS} s',
                     'yes' if made['per_interval'] <= 1 else '**no**'))
    if 'follower_alone' in top:
        calls = top['follower_alone']
        rows.append((f'Heat calls of Mistral\'s follower at {calls["running"]} running runs, '
                     f'no page open ({calls["seconds"]} s, one wait call)',
                     f'{calls["total"]}: {calls["per_run_hour"]:.0f} per run-hour ('
                     + ', '.join(f'{kind} {count}' for kind, count in sorted(
                         calls['by_kind'].items())) + ')', '-', '-', '- (reported)', '-'))
    if 'outcome_after_last_result_seconds' in top:
        lag = top['outcome_after_last_result_seconds']
        rows.append(('outcome recorded after the last of 200 results (Mistral; median)',
                     f'{lag:.1f} s (rounds: '
                     f'{", ".join(str(each) for each in top.get("outcome_samples", [lag]))}; '
                     f'1: {sizes["1"].get("outcome_after_last_result_seconds")} s, '
                     f'10: {sizes["10"].get("outcome_after_last_result_seconds")} s)',
                     '-', '-', f'within {GOAL_OUTCOME_SECONDS} s',
                     'yes' if lag <= GOAL_OUTCOME_SECONDS else '**no**'))
    return rows


def _shown(shown):
    return (f'p95 {shown["p95_seconds"]:.2f} s, median {shown["median_seconds"]:.2f} s, '
            f'slowest {shown["max_seconds"]:.2f} s of {shown["runs"]} runs')


def _heat_alone(alone):
    """The baseline of a burst's signal to screen: Heat applying it with nothing else asking
    (bench.heat_apply)."""
    return (f'Heat alone, the same {alone["runs"]} results PUT at the moments of the page\'s '
            f'median burst ({alone["puts_seconds"]:.1f} s) and each run shown from '
            f'{alone["threads"]} threads until applied, no page, no follower: p95 '
            f'{alone["p95_seconds"]:.2f} s, '
            f'median {alone["median_seconds"]:.2f} s, all applied {alone["all_seconds"]:.1f} s '
            'after the first PUT')
