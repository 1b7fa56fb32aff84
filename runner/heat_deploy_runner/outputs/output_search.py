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

"""Search across runs' outputs: every line of a run's stdout, stderr and other outputs that
holds a text, with where it is (the run, the output, the line number) and where in the line.

The text is plain, not a pattern: an operator who searches ``[error]`` or ``a.b*`` means those
characters. Case is ignored, as a browser's find ignores it. Each output is read as the run
holds it (runs.outputs' order and names), with the secrets its derived config knows scrubbed
as the archive scrubs them; an archived run's outputs were scrubbed when it was archived.
"""

import dataclasses
import re
import threading
import weakref

from heat_deploy_runner import masking
from heat_deploy_runner.running.run import Run
from heat_deploy_runner.running import runs as runs_mod

# At most this many matching lines are returned, in run then output then line order; the
# search says how many more there were.
MAX_MATCHES = 500
# A long line is shown as this many characters around its first match: a minified file or
# a base64 blob printed on one line must not fill the page.
LINE_WINDOW = 240
# Shorter texts would match most lines of every output.
MIN_TEXT = 2


@dataclasses.dataclass(frozen=True)
class Match:
    run: Run
    output: str
    # 1-based, as an editor numbers lines.
    line_number: int
    # The line, or the part of it around its first match, as (text, is_match) pieces.
    pieces: tuple
    # Whether characters before or after the pieces were left out.
    cut_before: bool
    cut_after: bool


@dataclasses.dataclass(frozen=True)
class Found:
    matches: list
    # Every matching line, the ones past MAX_MATCHES included.
    total: int
    # The runs with at least one matching line, in the order they were given.
    run_ids: list


# Each run's texts, for as long as the run itself is held: a results page searches, groups
# and tabulates the same runs, and scrubbing 200 outputs of 100 KB once is enough.
_texts = weakref.WeakKeyDictionary()
_texts_lock = threading.Lock()


def output_texts(run) -> list[tuple[str, str]]:
    """[(output name, its whole text)] of the run, in runs.outputs' order, secrets scrubbed;
    the status code is not an output to search."""
    with _texts_lock:
        found = _texts.get(run)
    if found is None:
        secrets = masking.secret_values(run.config)
        found = [(name, masking.scrubbed(runs_mod.output_text(run.output_values.get(name)),
                                         secrets))
                 for name in (output['name'] for output in runs_mod.outputs(run))]
        with _texts_lock:
            _texts[run] = found
    return list(found)


def search(runs, text: str, limit: int = MAX_MATCHES) -> Found:
    """The lines of the runs' outputs that hold ``text`` (ignoring case)."""
    if len(text.strip()) < MIN_TEXT:
        raise ValueError(text)
    pattern = re.compile(re.escape(text), re.IGNORECASE)
    matches, total, run_ids = [], 0, []
    for run in runs:
        hit = False
        for name, whole in output_texts(run):
            if not pattern.search(whole):
                continue
            for number, line in enumerate(whole.split('\n'), 1):
                first = pattern.search(line)
                if first is None:
                    continue
                hit = True
                total += 1
                if len(matches) < limit:
                    matches.append(_match(run, name, number, line, pattern, first.start()))
        if hit:
            run_ids.append(run.id)
    return Found(matches, total, run_ids)


def _match(run, name, number, line, pattern, first):
    """The line's window around its first match, in pieces."""
    start = max(0, min(first - LINE_WINDOW // 3, len(line) - LINE_WINDOW))
    end = min(len(line), start + LINE_WINDOW)
    pieces, at = [], start
    for found in pattern.finditer(line, start, end):
        if found.start() > at:
            pieces.append((line[at:found.start()], False))
        pieces.append((found.group(), True))
        at = found.end()
    if at < end:
        pieces.append((line[at:end], False))
    return Match(run, name, number, tuple(pieces), start > 0, end < len(line))
