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

"""The seam between a run and the way its server reports the result.

A signal transport makes a place the server can send its outputs to, tells
the server about it through inputs of the derived config, reads what was
sent, and removes the place again. The transport's ``name`` is the value of
the derived config's ``deploy_signal_transport`` input, so a deployment's
own config says which transport cleans up after it.

Built: TEMP_URL_SIGNAL (tempurl.TempUrlSignal), ZAQAR_SIGNED_URL_SIGNAL
(zaqar.ZaqarSignedUrlSignal) and NO_SIGNAL (NoSignal).

Heat reads a TempURL result itself whenever it shows a running deployment.
It reads no other transport's target, so such a transport also offers
``claim_result``: the result held so that no other poller sees it, for
results.collect to apply with Heat's rule and then consume.
"""

import abc
from datetime import datetime
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

IN_PROGRESS = 'IN_PROGRESS'
COMPLETE = 'COMPLETE'
FAILED = 'FAILED'

# Heat's own wording for a deployment that expects no signal
# (heat/engine/resources/openstack/heat/software_deployment.py).
NOT_WAITING_REASON = 'Not waiting for outputs signal'


def unique_name(name: str, unsafe: re.Pattern, prefix_length: int) -> str:
    """"<name>-<uuid4>" for a run's signal target: runs of ``unsafe``
    characters in ``name`` become "-", and it is cut to ``prefix_length``."""
    safe = unsafe.sub('-', name).strip('-')[:prefix_length].strip('-')
    return f'{safe or "signal"}-{uuid.uuid4()}'


class NotAnswering(Exception):
    """A transport's look found the service where results arrive not answering at all: a
    show in Heat, which reads the same service, would wait on it too."""


@dataclass(frozen=True)
class SignalTarget:
    """What ``prepare`` made: the inputs that point the server at it."""

    inputs: tuple[dict, ...] = ()

    @property
    def values(self) -> dict:
        return {each['name']: each['value'] for each in self.inputs}


@dataclass(frozen=True)
class ClaimedResult:
    """A result only this caller holds until it consumes or releases it."""

    result: dict
    # Removes the result for good: it has been applied.
    consume: Callable[[], object]
    # Lets everyone see it again: it was not applied (a late result).
    release: Callable[[], object]


class SignalTransport(abc.ABC):
    """How the server of one run sends its outputs back."""

    name: str

    @abc.abstractmethod
    def prepare(self, name: str, timeout_minutes: int, live: bool = False) -> SignalTarget:
        """Create the signal target for one run named ``name``, and its live target (live.py)
        when ``live``.

        On failure, whatever was made so far is removed before raising.
        """

    def initial_status(self) -> tuple[str, str]:
        """(status, status_reason) a new deployment starts with."""
        return IN_PROGRESS, ''

    @abc.abstractmethod
    def read_result(self, input_values: Mapping[str, object]) -> dict | None:
        """What the server sent, or None if it sent nothing yet.

        ``input_values`` are the derived config's input values.
        """

    def may_have_result(self, input_values: Mapping[str, object]) -> bool:
        """False only when a cheap look shows the server has sent nothing yet.

        Cheaper than showing the deployment in Heat, which reads the result itself; a
        transport that cannot tell cheaply says True. Raises NotAnswering where the service
        the result arrives in does not answer at all.
        """
        return True

    @staticmethod
    def look_place(input_values: Mapping[str, object]) -> str | None:
        """Where this run's result arrives, when one look there tells of several runs'
        results (may_have_results); None where each run is looked at alone."""
        return None

    def may_have_results(self, many: Sequence[Mapping[str, object]]) -> list[bool]:
        """may_have_result of each of ``many`` (input values), in order; a transport that
        can tell for several with one look, where their results arrive in one place
        (look_place), does."""
        return [self.may_have_result(each) for each in many]

    def live_output(self, input_values: Mapping[str, object]):
        """The run's latest live.Snapshot; None before the first, or without a live target."""
        return None

    def live_lines(self, many: Sequence[Mapping[str, object]]) -> list[str | None]:
        """The last line live output gave of each of ``many`` (input values), in order; one
        look per place where the transport can (look_place)."""
        return [getattr(self.live_output(each), 'last_line', None) for each in many]

    def claim_result(self, input_values: Mapping[str, object]
                     ) -> ClaimedResult | None:
        """The result for the dashboard to apply, or None.

        None also when Heat applies this transport's results itself.
        """
        return None

    def stranded_result(self, input_values: Mapping[str, object],
                        updated: datetime) -> dict | None:
        """What the server sent, where Heat reads this transport's results itself but will
        never apply this one: the deployment was last ``updated`` (still running) after the
        result arrived. None otherwise, and for a transport Heat does not read.
        """
        return None

    @abc.abstractmethod
    def cleanup(self, input_values: Mapping[str, object],
                may_still_report: bool = False) -> None:
        """Remove the signal target; one that is already gone is fine.

        ``may_still_report``: the run's server may send its result later (it was running,
        or cancelled while it ran).
        """


class NoSignal(SignalTransport):
    """Fire and forget: Heat marks the deployment done at once, as Heat's
    own resource does, instead of leaving it IN_PROGRESS for ever as the
    CLI does."""

    name = 'NO_SIGNAL'

    def prepare(self, name: str, timeout_minutes: int, live: bool = False) -> SignalTarget:
        return SignalTarget()

    def initial_status(self) -> tuple[str, str]:
        return COMPLETE, NOT_WAITING_REASON

    def read_result(self, input_values: Mapping[str, object]) -> None:
        return None

    def cleanup(self, input_values: Mapping[str, object],
                may_still_report: bool = False) -> None:
        """Nothing was made, so nothing is removed."""
