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

"""Signal transports by name, for forms (the choices) and for cleanup (the
name stored in a derived config's deploy_signal_transport input)."""

from collections.abc import Callable, Mapping

from heat_deploy_runner.configs.derived import SIGNAL_TRANSPORT
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message
from heat_deploy_runner.signalling.signals import NoSignal
from heat_deploy_runner.signalling.signals import SignalTransport
from heat_deploy_runner.signalling.tempurl import TempUrlSignal
from heat_deploy_runner.signalling.zaqar import ZaqarSignedUrlSignal

_CLASSES = {each.name: each for each in (TempUrlSignal, ZaqarSignedUrlSignal, NoSignal)}
TRANSPORT_NAMES = tuple(_CLASSES)

UNKNOWN_TRANSPORT = gettext_noop('Unknown signal transport %(name)s.')
NEEDS_OBJECT_STORAGE = gettext_noop(
    'The signal transport %(name)s needs Object Storage, which is not '
    'available.')
NEEDS_MESSAGING = gettext_noop(
    'The signal transport %(name)s needs the Messaging service, which is '
    'not available.')


def transport_for(name: str, *, swift=None, zaqar=None) -> SignalTransport:
    """The transport called ``name``, built on the user's clients.

    ``swift`` is a swiftclient Connection, needed by TEMP_URL_SIGNAL;
    ``zaqar`` a python-zaqarclient v2 Client, needed by
    ZAQAR_SIGNED_URL_SIGNAL. Callers pass ``functools.partial(transport_for,
    ...)`` wherever a name-to-transport lookup is wanted.
    """
    if name == TempUrlSignal.name:
        if swift is None:
            raise InputError(Message(NEEDS_OBJECT_STORAGE, {'name': name}))
        return TempUrlSignal(swift)
    if name == ZaqarSignedUrlSignal.name:
        if zaqar is None:
            raise InputError(Message(NEEDS_MESSAGING, {'name': name}))
        return ZaqarSignedUrlSignal(zaqar)
    if name == NoSignal.name:
        return NoSignal()
    raise InputError(Message(UNKNOWN_TRANSPORT, {'name': name}))


def transport_of(input_values: Mapping[str, object],
                 find_transport: Callable[[str], SignalTransport]
                 ) -> SignalTransport | None:
    """The transport a derived config's input values name.

    None when they name none, or one ``find_transport`` cannot provide
    (a stack's CFN_SIGNAL, or TEMP_URL_SIGNAL without Object Storage).
    """
    name = input_values.get(SIGNAL_TRANSPORT)
    if name is None:
        return None
    try:
        return find_transport(name)
    except InputError:
        return None


def look_place(input_values: Mapping[str, object]) -> str | None:
    """Where a run's result arrives, when one look there tells of several runs' results
    (SignalTransport.look_place, by the transport its derived config names); None where each
    run is looked at alone, or its transport is not one of these."""
    transport = _CLASSES.get(input_values.get(SIGNAL_TRANSPORT))
    return transport.look_place(input_values) if transport else None
