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

"""User-facing sentences of the runner, translatable without Django.

This package must not import Django (the benchmark and the integration tests
use it bare), yet its sentences end up in the dashboard and must be
translatable. So every sentence is a module-level ``%(name)s`` template
wrapped in :func:`gettext_noop`, a keyword Django's ``makemessages`` already
extracts, and is carried around as a :class:`Message` (template + values).
The dashboard translates at display time with ``message.render(gettext)``;
``str(message)`` gives the English sentence. Translating the template before
filling it in is what lets a translator reorder the values.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field


def gettext_noop(template: str) -> str:
    """Mark a template for extraction; translation happens in render()."""
    return template


@dataclass(frozen=True)
class Message:
    """A sentence for a person: a translatable template and its values."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        return gettext(self.template) % self.params

    def __str__(self) -> str:
        return self.render()


class InputError(ValueError):
    """A value the user gave cannot be used; nothing was created."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message
