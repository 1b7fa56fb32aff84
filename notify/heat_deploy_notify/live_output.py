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

"""A script's output on its way to a live target: bounded, secrets masked, whole characters.

Each stream keeps at most LIMIT bytes of output not sent yet, the newest: a script that
writes faster than sends go has the beginning of what it wrote since the last send left out,
and counted. What is sent has each secret value (of SCRUBBED_LENGTH characters or more)
replaced by MASK, as the runner masks a result (heat_deploy_runner.masking), also where a
secret is split across two reads or two sends; text is UTF-8 decoded with replacement, and no
character is split between two sends.

The body of a send, JSON (UTF-8)::

    {"seq": n, "final": false, "status_code": null,
     "stdout": "<text>", "stderr": "<text>", "skipped_stdout": 0, "skipped_stderr": 0}

- ``seq``: 1, 2, ... one per send tried; a gap is a send that failed (its text is counted in
  the next send's skipped_*) or that may have landed late.
- ``stdout``/``stderr``: what the stream wrote after the previous send's text, masked.
- ``skipped_stdout``/``skipped_stderr``: bytes of the stream (counted after masking) written
  between the previous send's text and this one's that no send carries.
- ``final``: true on the last send, made once the script has exited; ``status_code`` is then
  its exit status (deploy_status_code of the result), null before.
"""

import json

MASK = b'********'
SCRUBBED_LENGTH = 4
# Per stream and send.
LIMIT = 64 * 1024
# Zaqar's default max_messages_post_size (256 KiB) less room for the message's envelope.
MAX_BODY = 256 * 1024 - 1024


def _is_continuation(byte):
    return 0x80 <= byte < 0xC0


def _incomplete_tail(data):
    """How many bytes at the end of ``data`` begin a UTF-8 character not ended yet."""
    for back in range(1, min(3, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return 0
        if byte >= 0xC0:
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return back if needed > back else 0
    return 0


def _whole_characters_from(data, start):
    """``start`` moved past the (at most three) bytes that continue a character begun before
    it."""
    end = min(len(data), start + 3)
    while start < end and _is_continuation(data[start]):
        start += 1
    return start


class Scrubber:
    """Masks secret values in bytes that come in pieces."""

    def __init__(self, secrets):
        self.secrets = sorted({secret.encode('utf-8') for secret in secrets
                               if len(secret) >= SCRUBBED_LENGTH}, key=len, reverse=True)
        self.longest = len(self.secrets[0]) if self.secrets else 0

    def _spans(self, data):
        """Where secrets are in data, overlapping ones merged."""
        found = []
        for secret in self.secrets:
            at = data.find(secret)
            while at >= 0:
                found.append((at, at + len(secret)))
                at = data.find(secret, at + 1)
        merged = []
        for start, end in sorted(found):
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return merged

    def _held_from(self, data, spans):
        """Where the bytes begin that may be the start of a secret still being written."""
        held = len(data)
        for at in range(max(0, len(data) - self.longest + 1), len(data)):
            rest = data[at:]
            if any(len(secret) > len(rest) and secret.startswith(rest)
                   for secret in self.secrets):
                held = at
                break
        for start, end in spans:
            if start < held < end:
                held = start
        return held

    def scrub(self, data, final):
        """(masked bytes to send, bytes to scrub again with what comes next)."""
        spans = self._spans(data)
        held = len(data) if final else self._held_from(data, spans)
        out, at = [], 0
        for start, end in spans:
            if end > held:
                break
            out += [data[at:start], MASK]
            at = end
        out.append(data[at:held])
        return b''.join(out), data[held:]

    def partial_head(self, data):
        """How many bytes at the start of data may end a secret whose start was left out."""
        longest = 0
        for secret in self.secrets:
            for size in range(min(len(secret) - 1, len(data)), longest, -1):
                if secret.endswith(data[:size]):
                    longest = size
                    break
        return longest


class StreamOutput:
    """One stream's output not sent yet. ``add`` and ``drain`` are for the caller to
    serialise (the reader adds, the sender drains); ``text`` is the sender's alone."""

    def __init__(self, scrubber, limit=LIMIT):
        self._scrubber = scrubber
        self._limit = limit
        self._raw = bytearray()
        self._dropped = 0
        # Read but not sent: the start of a secret or of a character not ended yet.
        self._carried = b''
        self._skipped = 0

    def add(self, data):
        self._raw += data
        excess = len(self._raw) - self._limit
        if excess > 0:
            del self._raw[:excess]
            self._dropped += excess

    def drain(self):
        raw, dropped = bytes(self._raw), self._dropped
        self._raw.clear()
        self._dropped = 0
        return raw, dropped

    def text(self, raw, dropped, final):
        """(masked bytes of whole characters, bytes left out before them)."""
        if dropped:
            # What was carried and what the cut may have split ends before the cut.
            cut = self._scrubber.partial_head(raw)
            cut = _whole_characters_from(raw, cut)
            self._skipped += len(self._carried) + dropped + cut
            self._carried, raw = b'', raw[cut:]
        out, carried = self._scrubber.scrub(self._carried + raw, final)
        incomplete = 0 if final else _incomplete_tail(out)
        if incomplete:
            out, carried = out[:-incomplete], out[-incomplete:] + carried
        self._carried = carried
        skipped, self._skipped = self._skipped, 0
        return out, skipped

    def lost(self, size):
        """A send that failed carried this many bytes: left out, then."""
        self._skipped += size


def _fitted(out, skipped, limit):
    """The newest ``limit`` bytes of out, from a whole character, as text."""
    if len(out) > limit:
        cut = _whole_characters_from(out, len(out) - limit)
        skipped, out = skipped + cut, out[cut:]
    return out.decode('utf-8', 'replace'), skipped, len(out)


def body(seq, final, status_code, streams, limit=LIMIT):
    """(the send's JSON body, {stream: bytes left out if the send fails}); ``streams`` maps
    "stdout" and "stderr" to (masked bytes, skipped) from StreamOutput.text."""
    while True:
        fields = {'seq': seq, 'final': final, 'status_code': status_code}
        lost = {}
        for name, (out, skipped) in streams.items():
            text, skipped, size = _fitted(out, skipped, limit)
            fields[name], fields[f'skipped_{name}'], lost[name] = text, skipped, skipped + size
        data = json.dumps(fields, ensure_ascii=False).encode('utf-8')
        # Text that JSON escapes (control characters) may take up to six times its size.
        if len(data) <= MAX_BODY or limit < 1024:
            return data, lost
        limit //= 2
