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

"""Live output: what a run's script has written so far, sent by the streaming hook
(heat-deploy-notify's heat-deploy-script-hook) while it runs, to a live target of the run's own.

The live target is never the signal target: Heat takes the signal object (or the first
message of the signal queue) as the result. Each send is a snapshot, not a piece: the end
of each stream so far (at most TAIL_BYTES of it) and how many bytes the stream holds in all,
so that a reader who missed sends loses nothing but what scrolled past the tail, and the
target holds one thing per run however chatty the script (a script printing 10 MB makes at
most a send a second, each replacing the last).

- TEMP_URL_SIGNAL: LIVE_URL, a PUT TempURL of the object LIVE_PREFIX<signal object> in the
  run's signal container, which expires with the signal URL and goes with the run. Its
  Content-Type carries the snapshot's last line (line_of), so one listing of the container
  tells every running run's last line.
- ZAQAR_SIGNED_URL_SIGNAL: a queue of its own (LIVE_QUEUE), signed for POST and DELETE of
  messages: the hook posts each snapshot, then deletes the one before.

LIVE_SECRETS names the inputs whose values the hook scrubs from everything it sends live,
as the pages scrub the final result (masking.scrubbed); the rule of what is a secret stays
here (masking.is_secret_name).
"""

import dataclasses
import json
from urllib import parse

from heat_deploy_runner.configs import derived
from heat_deploy_runner import masking

LIVE_URL = 'deploy_live_url'
LIVE_QUEUE = 'deploy_live_zaqar_queue'
LIVE_PATHS = 'deploy_live_zaqar_paths'
LIVE_METHODS = 'deploy_live_zaqar_methods'
LIVE_EXPIRES = 'deploy_live_zaqar_expires'
LIVE_SIGNATURE = 'deploy_live_zaqar_signature'
LIVE_SECRETS = 'deploy_live_secrets'
# The live object of a TempURL run: beside its signal object, in the same container.
LIVE_PREFIX = 'live/'
# Each stream's end a snapshot holds: a screen's worth many times over.
TAIL_BYTES = 64 * 1024
# The Content-Type parameter that carries the last line, percent-encoded (a token).
LINE_PARAMETER = 'line'


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """One send of the hook: the end of each stream so far, and each stream's whole size."""

    seq: int = 0
    stdout: str = ''
    stderr: str = ''
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    # The script has ended: its result follows through the signal target.
    final: bool = False

    @classmethod
    def of(cls, body) -> 'Snapshot | None':
        """The snapshot a live object or message holds; None for anything else."""
        if isinstance(body, (bytes, str)):
            try:
                body = json.loads(body or b'null')
            except ValueError:
                return None
        if not isinstance(body, dict) or not isinstance(body.get('seq'), int):
            return None
        text = {name: body.get(name) if isinstance(body.get(name), str) else ''
                for name in ('stdout', 'stderr')}
        sizes = {name: body.get(name) if isinstance(body.get(name), int) else 0
                 for name in ('stdout_bytes', 'stderr_bytes')}
        return cls(seq=body['seq'], final=body.get('final') is True, **text, **sizes)

    @property
    def last_line(self) -> str:
        """The last line written to stdout, else to stderr."""
        return last_line(self.stdout) or last_line(self.stderr)

    def unseen(self, stream: str, had: int) -> tuple[str, int]:
        """What of ``stream`` ('stdout' or 'stderr') a reader who has its first ``had`` bytes
        has not seen: (the text the tail holds of it, how many bytes before that text the
        tail no longer holds)."""
        tail = getattr(self, stream).encode()
        new = max(0, getattr(self, stream + '_bytes') - max(0, had))
        start = len(tail) - min(new, len(tail))
        # A cut inside a character: the character's first bytes are not shown either.
        while start < len(tail) and tail[start] & 0xC0 == 0x80:
            start += 1
        return tail[start:].decode(errors='replace'), new - (len(tail) - start)


def last_line(text: str) -> str:
    lines = [line for line in (text or '').splitlines() if line.strip()]
    return lines[-1] if lines else ''


def line_of(content_type: str | None) -> str:
    """The last line a live object's Content-Type carries (LINE_PARAMETER); '' for none."""
    for parameter in (content_type or '').split(';')[1:]:
        name, _, value = parameter.strip().partition('=')
        if name == LINE_PARAMETER:
            return parse.unquote(value.strip('"'), errors='replace')
    return ''


def object_name(signal_object: str) -> str:
    """The live object of the run whose signal object is ``signal_object``."""
    return LIVE_PREFIX + signal_object


def signal_object_of(listed_name: str) -> str | None:
    """The signal object a live object belongs to; None for a name that is no live object."""
    return listed_name[len(LIVE_PREFIX):] if listed_name.startswith(LIVE_PREFIX) else None


def is_live(input_values) -> bool:
    """Whether a run's derived config gives its server a live target."""
    return bool(input_values.get(LIVE_URL) or input_values.get(LIVE_QUEUE))


def live_inputs(values: dict, live: bool) -> tuple:
    """The live target's inputs ({name: value}) where the run has live output, else none."""
    return tuple(derived.string_input(name, value, 'Where live output goes')
                 for name, value in values.items()) if live else ()


def secrets_input(inputs) -> dict:
    """The input naming the run's secret inputs (LIVE_SECRETS), of a derived config's
    ``inputs`` ({'name', 'value'} each)."""
    # A script that prints its environment would show its signed URLs too.
    names = [each['name'] for each in inputs if each.get('value') and (
        masking.is_secret_name(each['name'])
        or masking.mask_value(each['name'], each['value']) != each['value'])]
    return derived.string_input(LIVE_SECRETS, json.dumps(names),
                                'Inputs whose values live output leaves out')
