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
"""A script's output on its way to a live target: secrets masked, whole characters, a
snapshot at a time.

Each stream is masked as it is read: each secret value (of SCRUBBED_LENGTH characters or
more) replaced by MASK, as the runner masks a result (heat_deploy_runner.masking), also where
a secret is split across two reads; bytes that may begin a secret, or begin a character not
ended yet, wait for what follows (until the script has exited). Text is UTF-8 decoded with
replacement. Of the masked stream, a StreamTail keeps its end (at most TAIL bytes, cut before
a whole character) and how many bytes it holds in all.

The body of a send, JSON (UTF-8), is a snapshot of both streams, not a piece of them::

    {"seq": n, "final": false, "status_code": null,
     "stdout": "<text>", "stderr": "<text>", "stdout_bytes": 0, "stderr_bytes": 0}

- ``seq``: 1, 2, ... one per send tried; a gap is a send that failed or landed late.
- ``stdout``/``stderr``: the end of everything the stream wrote so far, masked: at most TAIL
  bytes of UTF-8 (less where JSON's escapes would take the body past MAX_BODY).
- ``stdout_bytes``/``stderr_bytes``: how many bytes (UTF-8) the masked stream holds in all,
  what the text no longer holds included: a reader who saw an earlier snapshot takes the
  last ``new - old`` bytes of the text as what is new, and missed only what scrolled past.
- ``final``: true on the last send, made once the script has exited; ``status_code`` is then
  its exit status (deploy_status_code of the result), null before.
"""

import json

MASK = b'********'
SCRUBBED_LENGTH = 4
# Per stream: the runner's heat_deploy_runner.signalling.live.TAIL_BYTES.
TAIL = 64 * 1024
# Zaqar's default max_messages_post_size (256 KiB) less room for the message's envelope.
MAX_BODY = 256 * 1024 - 1024
# The last line a Swift listing carries (live_target): a screen's line, in a header.
LINE_BYTES = 200


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


def _character_start(data, start):
    """``start`` moved past the (at most three) bytes that continue a character begun before
    it."""
    end = min(len(data), start + 3)
    while start < end and _is_continuation(data[start]):
        start += 1
    return start


def _character_end(data, end):
    """``end`` moved back before a character it would split."""
    while end > 0 and end < len(data) and _is_continuation(data[end]):
        end -= 1
    return end


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
        """(masked bytes, bytes to scrub again with what comes next)."""
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


class StreamTail:
    """One stream's masked output: its end and its size. Its owner serialises ``add``,
    ``close`` and ``snapshot`` (the reader adds, the sender takes snapshots)."""

    def __init__(self, scrubber, tail=TAIL):
        self._scrubber = scrubber
        self._limit = tail
        # Read but not masked yet: the start of a secret or of a character not ended yet.
        self._held = b''
        self._tail = bytearray()
        self.size = 0

    def add(self, data, final=False):
        """Mask what was read; whether the masked stream grew."""
        out, self._held = self._scrubber.scrub(self._held + data, final)
        incomplete = 0 if final else _incomplete_tail(out)
        if incomplete:
            out, self._held = out[:-incomplete], out[-incomplete:] + self._held
        # Bytes that are no UTF-8 count as the replacement character a reader sees.
        out = out.decode('utf-8', 'replace').encode('utf-8')
        self._tail += out
        self.size += len(out)
        excess = len(self._tail) - self._limit
        if excess > 0:
            del self._tail[:_character_start(self._tail, excess)]
        return bool(out)

    def close(self):
        """The script has exited: what was held back is no secret's start after all."""
        return self.add(b'', final=True)

    def snapshot(self):
        """(the end of the masked stream, its whole size)."""
        return bytes(self._tail), self.size


def _end(tail, limit):
    """The last ``limit`` bytes of tail at most, from a whole character, as text."""
    return tail[_character_start(tail, max(0, len(tail) - limit)):].decode('utf-8')


def body(seq, final, status_code, streams, limit=TAIL):
    """The send's JSON body; ``streams`` maps "stdout" and "stderr" to StreamTail.snapshot()
    of each."""
    while True:
        fields = {'seq': seq, 'final': final, 'status_code': status_code}
        for name, (tail, size) in streams.items():
            fields[name], fields[f'{name}_bytes'] = _end(tail, limit), size
        data = json.dumps(fields, ensure_ascii=False).encode('utf-8')
        # Text that JSON escapes (control characters) may take up to six times its size.
        if len(data) <= MAX_BODY or limit < 1024:
            return data
        limit //= 2


def last_line(tails):
    """The last line that is not blank of the first of ``tails`` (bytes) that has one, at
    most LINE_BYTES of it, cut before a whole character."""
    for tail in tails:
        lines = [line for line in tail.decode('utf-8').splitlines() if line.strip()]
        if lines:
            line = lines[-1].encode('utf-8')
            return line[:_character_end(line, LINE_BYTES)].decode('utf-8')
    return ''
