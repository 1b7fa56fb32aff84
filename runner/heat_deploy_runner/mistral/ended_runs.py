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

"""The runs Mistral's wait last saw ended, kept for the conclusion that follows it in the same
executor process: the outcome of an operation of 200 runs read all 200 from Heat again, 2 s
of its lag after the last result (bench fleets), seconds after the wait had read them ended.

An ended run no longer changes in Heat; it can only be deleted. So a run is kept for
SECONDS: a run deleted since is then counted found, not gone, where it was deleted within
that time. Kept per project (a run read through one project's trust serves no other). A
conclusion in another executor process, or after a restart, reads every run as before.
"""

import threading
import time

# Longer than Mistral takes from a wait's end to the conclusion (about a second here), far
# shorter than a run's life.
SECONDS = 60


class EndedRuns:
    def __init__(self, seconds=SECONDS, clock=time.monotonic):
        self._seconds = seconds
        self._clock = clock
        self._kept = {}
        self._lock = threading.Lock()

    def keep(self, project_id, runs):
        """Keep these ended runs (Runs) of the project; forget those kept too long."""
        now = self._clock()
        with self._lock:
            self._kept = {key: (run, at) for key, (run, at) in self._kept.items()
                          if now - at < self._seconds}
            self._kept.update(((project_id, run.id), (run, now)) for run in runs)

    def get(self, project_id, run_id):
        """The run as the project's wait last saw it ended, or None."""
        with self._lock:
            run, at = self._kept.get((project_id, run_id), (None, None))
        return run if run is not None and self._clock() - at < self._seconds else None
