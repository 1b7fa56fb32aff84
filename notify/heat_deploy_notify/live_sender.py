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

"""Sends a running script's output to its live target, on a thread of its own.

The reader of the script's pipes only hands output over (``add``, which masks it into each
stream's tail): a target that is slow, unreachable or refusing never holds the script nor its
result. Each send is a snapshot of both streams (live_output). At most one send a second
while the script runs, and only when a stream has grown since the last send that landed; the
final one as soon as it has exited. A send waits at most SEND_TIMEOUT to connect and as long
for an answer. A send that fails pauses sending (FIRST_PAUSE, doubling up to LAST_PAUSE); the
next snapshot holds all its text. A refusal (a 4xx: a URL expired or not this run's) stops
sending. Once the script has exited, ``finish`` waits at most FINAL_BOUND for the final send,
and logs what went wrong once (the thread itself never writes: it may still be on its way
when the hook exits).
"""

import logging
import threading
import time

import requests

from heat_deploy_notify import live_output
from heat_deploy_notify import live_target

LOG = logging.getLogger('heat-config.live')

STREAMS = ('stdout', 'stderr')
INTERVAL = 1.0
SEND_TIMEOUT = 3.0
FINAL_BOUND = 2.0
FIRST_PAUSE = 5.0
LAST_PAUSE = 60.0


def _why(error):
    """What went wrong, without the URL (it holds the signature)."""
    response = getattr(error, 'response', None)
    if response is not None:
        return f'HTTP {response.status_code}'
    return str(error) if isinstance(error, live_target.Refused) else type(error).__name__


class LiveSender:

    def __init__(self, target, secrets, interval=INTERVAL):
        self._target = target
        self._interval = interval
        scrubber = live_output.Scrubber(secrets)
        self._changed = threading.Condition()
        # Guarded by _changed: what the reader and finish hand over.
        self._streams = {name: live_output.StreamTail(scrubber) for name in STREAMS}
        # The stream written to last first: the last line is its.
        self._latest = list(STREAMS)
        self._fresh = False
        self._closing = False
        self._status_code = None
        self._deadline = None
        self._notes = []
        # The thread's own.
        self._seq = 0
        self._last = None
        self._resume_at = 0.0
        self._pause = FIRST_PAUSE
        self._stopped = False
        self._failed = False
        self._thread = threading.Thread(target=self._run, name='live-output', daemon=True)

    def start(self):
        self._thread.start()
        return self

    def add(self, name, data):
        with self._changed:
            if self._streams[name].add(data):
                self._wrote(name)

    def _wrote(self, name):
        self._latest.sort(key=lambda each: each != name)
        self._fresh = True
        self._changed.notify()

    def finish(self, status_code):
        """The script has exited with status_code: the final send, waited for
        FINAL_BOUND at most."""
        with self._changed:
            for name, stream in self._streams.items():
                if stream.close():
                    self._wrote(name)
            self._closing = True
            self._status_code = status_code
            self._deadline = time.monotonic() + FINAL_BOUND
            self._changed.notify()
        self._thread.join(FINAL_BOUND)
        with self._changed:
            notes = list(self._notes)
        for note in notes:
            LOG.warning(note)

    def _note(self, note):
        with self._changed:
            self._notes.append(note)

    def _run(self):
        try:
            while self._due():
                self._send(final=False, timeout=SEND_TIMEOUT)
            self._send_final()
        except Exception as error:
            # Never a traceback on the hook's stderr from here.
            self._note(f'Live output stopped: {error!r}')

    def _due(self):
        """Wait until a send is due (True) or the script has exited (False)."""
        with self._changed:
            while not self._closing:
                now = time.monotonic()
                due = max(now if self._last is None else self._last + self._interval,
                          self._resume_at)
                if self._fresh and not self._stopped and now >= due:
                    return True
                self._changed.wait(due - now if self._fresh and not self._stopped else None)
            return False

    def _send_final(self):
        if self._stopped:
            return
        remaining = self._deadline - time.monotonic()
        if remaining > 0:
            self._send(final=True, timeout=min(remaining, SEND_TIMEOUT))

    def _send(self, final, timeout):
        with self._changed:
            snapshots = {name: stream.snapshot() for name, stream in self._streams.items()}
            latest = [snapshots[name][0] for name in self._latest]
            self._fresh = False
            status_code = self._status_code if final else None
        self._seq += 1
        data = live_output.body(self._seq, final, status_code, snapshots)
        self._last = time.monotonic()
        try:
            self._target.send(data, live_output.last_line(latest), timeout=(timeout, timeout))
        except live_target.Refused as error:
            self._stopped = True
            self._note(f'Live output stopped: send {self._seq} refused ({_why(error)})')
        except (requests.RequestException, OSError) as error:
            with self._changed:
                # Not landed: the next snapshot is due even if nothing more is written.
                self._fresh = True
            if not self._failed:
                self._failed = True
                self._note(f'Live output: send {self._seq} failed ({_why(error)}); sending '
                           f'again after pauses of {FIRST_PAUSE:.0f} to {LAST_PAUSE:.0f} s')
            self._resume_at = self._last + self._pause
            self._pause = min(self._pause * 2, LAST_PAUSE)
        else:
            self._pause = FIRST_PAUSE
