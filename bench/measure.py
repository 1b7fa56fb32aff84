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

"""Timing helpers: interleaved runs (A B A B ...), medians, percentiles, ratios.

The machine is shared and noisy, so a figure is never one run: ours and the baseline's take
turns, round after round, and the ratio of their medians is what is reported.
"""

import math
import statistics
import time


def timed(work):
    return timed_answer(work)[0]


def timed_answer(work):
    """(seconds, what ``work`` answered)."""
    started = time.perf_counter()
    answer = work()
    return time.perf_counter() - started, answer


def interleaved(contenders, rounds, warmup=1):
    """{name: [seconds, ...]} for each of the named callables, run in turn every round.

    Warm-up rounds (caches, connections, imports) are run but not recorded.
    """
    for _ in range(warmup):
        for work in contenders.values():
            work()
    samples = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, work in contenders.items():
            samples[name].append(timed(work))
    return samples


def views_in_turn(view, rounds, paths):
    """{name: its path's views} for ``paths`` ({name: path}) through ``view`` (a path to
    {"status", "seconds", "calls"}): one view of each, then ``rounds`` rounds of each in
    turn, so that a passing load slows them all alike, not whichever came first."""
    first = {name: view(path) for name, path in paths.items()}
    views = {name: [] for name in paths}
    for _round in range(rounds):
        for name, path in paths.items():
            views[name].append(view(path))
    return {name: {'status': sorted({each['status'] for each in [first[name]] + seen}),
                   'calls': seen[-1]['calls'], 'first_calls': first[name]['calls'],
                   'median_seconds': median([each['seconds'] for each in seen]),
                   'samples': rounded([each['seconds'] for each in seen])}
            for name, seen in views.items()}


def median(values):
    return statistics.median(values)


def percentile(values, fraction):
    """Nearest-rank percentile: with few samples, a value that was really seen."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def ratio(ours, baseline):
    return median(ours) / median(baseline)


def rounded(values, digits=4):
    return [round(v, digits) for v in values]
