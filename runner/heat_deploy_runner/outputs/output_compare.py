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

"""Outputs compared: the servers of an operation grouped by what one output said (alike), and
two runs' output line by line (differences).

Grouping masks what differs on every server by nature before comparing, by one rule a
person can read (MASK_RULE): times and dates become <time>, UUIDs and hex ids of eight or more
characters become <id>. "38 servers printed the same; 2 differ" then means the same apart
from those.
"""

import dataclasses
import difflib
import itertools
import re

from heat_deploy_runner.outputs.output_search import output_texts
from heat_deploy_runner.times import parse_time

MASK_RULE = ('times and dates (2026-11-29T01:02:03Z, 2026-11-29, 01:02:03) read as <time>; '
             'UUIDs and hex ids of 8 or more characters as <id>')
_MASKS = (
    (re.compile(r'\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?'
                r'(?:Z|[+-]\d{2}:?\d{2})?)?\b'), '<time>'),
    (re.compile(r'\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b'), '<time>'),
    (re.compile(r'\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
                r'[0-9a-fA-F]{12}\b'), '<id>'),
    (re.compile(r'\b(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{8,}\b'), '<id>'),
)
# Lines of context around each change in a diff.
CONTEXT_LINES = 3


def masked(text: str) -> str:
    """The text with times and ids masked (MASK_RULE)."""
    for pattern, mask in _MASKS:
        text = pattern.sub(mask, text)
    return text


@dataclasses.dataclass(frozen=True)
class Group:
    # What every run of the group said, masked (its first run's text when unmasked).
    text: str
    runs: list


def alike(runs, output: str, mask: bool = True) -> list:
    """The runs grouped by the text of one output (masked unless ``mask`` is False), the
    largest group first, then by the order the runs were given in. A run without that
    output counts as having said nothing."""
    groups = {}
    for run in runs:
        said = dict(output_texts(run)).get(output, '')
        key = masked(said) if mask else said
        groups.setdefault(key, []).append(run)
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    return [Group(text, found) for text, found in ordered]


@dataclasses.dataclass(frozen=True)
class Line:
    # ' ' the same in both, '-' only in the first, '+' only in the second.
    kind: str
    # 1-based line numbers in the first and in the second text; None where the line is not
    # in that text.
    left: int | None
    right: int | None
    text: str


def differences(first: str, second: str, context: int = CONTEXT_LINES) -> list:
    """The lines that differ between two texts, with ``context`` lines the same around each
    change; a list of Lines and None (lines the same left out between two changes).
    Empty when the texts are the same."""
    left, right = first.split('\n'), second.split('\n')
    found = []
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    for number, hunk in enumerate(matcher.get_grouped_opcodes(context)):
        if number:
            found.append(None)
        for tag, i1, i2, j1, j2 in hunk:
            if tag == 'equal':
                found += [Line(' ', i + 1, j1 + i - i1 + 1, left[i]) for i in range(i1, i2)]
                continue
            found += [Line('-', i + 1, None, left[i]) for i in range(i1, i2)]
            found += [Line('+', None, j + 1, right[j]) for j in range(j1, j2)]
    return found


@dataclasses.dataclass(frozen=True)
class Row:
    """One row of two texts side by side: a line of the first, of the second, or both (the
    same line, or a changed one against what replaced it); None on a side that has none."""
    left: Line | None
    right: Line | None

    @property
    def kind(self) -> str:
        if self.left and self.right:
            return ' ' if self.left.kind == ' ' else '~'
        return '-' if self.left else '+'


def side_by_side(lines: list) -> list:
    """differences()'s lines as Rows, each run of removed lines beside the added lines that
    follow it, line for line; None stays where lines the same were left out."""
    rows, removed, added = [], [], []

    def flush():
        rows.extend(Row(*pair) for pair in itertools.zip_longest(removed, added))
        removed.clear()
        added.clear()
    for line in lines:
        if line is not None and line.kind == '-' and not added:
            removed.append(line)
        elif line is not None and line.kind == '+':
            added.append(line)
        else:
            flush()
            if line is not None and line.kind == '-':
                removed.append(line)
            else:
                rows.append(line and Row(line, line))
    flush()
    return rows


def previous_run(run, others):
    """The run of ``others`` made last before ``run`` on the same server, for the same
    action of the same source (the component or config it was started from); None."""
    started = parse_time(run.creation_time)
    source = run.operation.source if run.operation else None
    earlier = [other for other in others
               if other.id != run.id and other.server_id == run.server_id
               and other.action == run.action
               and (other.operation.source if other.operation else None) == source
               and started and parse_time(other.creation_time)
               and parse_time(other.creation_time) < started]
    return max(earlier, key=lambda other: parse_time(other.creation_time), default=None)
