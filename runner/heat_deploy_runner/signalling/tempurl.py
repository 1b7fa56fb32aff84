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

"""TEMP_URL_SIGNAL: the server PUTs its outputs to a Swift TempURL.

Heat reads the object itself whenever an IN_PROGRESS deployment is shown
(service_software_config._refresh_swift_software_deployment), taking the container and
object from the last two path segments of deploy_signal_id. Names are therefore kept to
characters that need no URL quoting: Heat does not unquote them.

One container holds the signal objects of every run one transport prepares under one name (a
submit's runs, each server's object its own, each URL signed for its object alone), so that
one listing tells which of them have a result (may_have_results): at 200 running runs, a
HEAD each took Swift most of a second per look, every page poll and follower look.

A run removed while its server may still report leaves a mark (GONE) where its object was:
the server's late PUT makes the object again, and the mark tells the removal of the
container's last run that nothing else needs it. What a late result still leaves behind
after a few tries is noted (LEFT) and swept by the next prepare or removal of a running run.

Expiry: the URL lives for the run's timeout (60 minutes unless the caller says otherwise),
like the CLI's ``--timeout``, not until 2038 as Heat's stack resources do. It is a bearer
credential that sits in the server's metadata for anyone on the server to read, a trigger is
one run rather than a stack's lifetime, and a result arriving after the timeout is refused
by Swift, which is what a timeout means. The timeout must cover the whole run plus the
agent's polling delay.
"""

from collections.abc import Mapping
from collections.abc import Sequence
import datetime
import email.utils
import json
import logging
import re
import secrets
from urllib import parse
import uuid

import requests
from swiftclient import exceptions as swift_exc
import urllib3

from heat_deploy_runner.configs import derived
from heat_deploy_runner.signalling.live import line_of
from heat_deploy_runner.signalling.live import live_inputs
from heat_deploy_runner.signalling.live import LIVE_PREFIX
from heat_deploy_runner.signalling.live import LIVE_URL
from heat_deploy_runner.signalling.live import object_name as live_object
from heat_deploy_runner.signalling.live import signal_object_of
from heat_deploy_runner.signalling.live import Snapshot
from heat_deploy_runner.signalling.signals import NotAnswering
from heat_deploy_runner.signalling.signals import SignalTarget
from heat_deploy_runner.signalling.signals import SignalTransport
from heat_deploy_runner.signalling.signals import unique_name
from heat_deploy_runner.signalling.swift_urls import signed_put_url
from heat_deploy_runner.signalling.swift_urls import storage_url
from heat_deploy_runner import times

LOG = logging.getLogger(__name__)

SIGNAL_ID = 'deploy_signal_id'
SIGNAL_VERB = 'deploy_signal_verb'

KEY_HEADER = 'x-account-meta-temp-url-key'
# Swift accepts either account key; a second one is there for key rotation.
SECOND_KEY_HEADER = 'x-account-meta-temp-url-key-2'

_UNSAFE_NAME_CHARACTERS = re.compile(r'[^A-Za-z0-9_.-]+')
_NAME_PART_LENGTH = 64

# A run removed while its server may still report leaves "gone/<its object>" beside its
# signal object: a TempURL cannot be revoked, the server's late PUT makes the object again,
# and the mark tells whoever removes the container's last run that it belongs to no run.
GONE = 'gone/'
# Swift refused to delete a container emptied of its runs' objects (409): a late result
# landed in between. Each run sends one, so a few more tries take the container.
TAKE_TRIES = 5
# The account's notes of signal containers still left after those tries (one object each,
# named after the container; everything in such a container belongs to no run): removed by
# the sweep of the next prepare, or removal of a run that may still report.
LEFT = 'heat-deploy-signals-left'


def _is_not_found(error: Exception) -> bool:
    return (isinstance(error, swift_exc.ClientException)
            and error.http_status == 404)


def container_name(name: str) -> str:
    """"<name>-<uuid4>", with name made safe for a URL path segment."""
    return unique_name(name, _UNSAFE_NAME_CHARACTERS, _NAME_PART_LENGTH)


def signal_location(input_values: Mapping[str, object]) -> tuple[str, str]:
    """(container, object) of a signal URL, read the way Heat reads it."""
    path = parse.urlparse(input_values[SIGNAL_ID]).path
    container, object_name = path.split('/')[-2:]
    return container, object_name


def signal_inputs(url: str) -> tuple[dict, dict]:
    return (
        derived.string_input(SIGNAL_ID, url,
                             'ID of signal to use for signaling output '
                             'values'),
        derived.string_input(SIGNAL_VERB, 'PUT',
                             'HTTP verb to use for signaling output values'),
    )


def _signal_object_of(listed_name: str) -> str:
    """The signal object a listed name is, is an old version of, or is the live object of
    (live.py): Swift's object versioning keeps old copies as "<len:03x><name>/<ts>" (Heat
    turns it on for signals that may arrive more than once)."""
    live = signal_object_of(listed_name)
    if live:
        return live
    if re.match('[0-9a-f]{3}', listed_name):
        length = int(listed_name[:3], 16)
        if listed_name[3 + length:4 + length] == '/':
            return listed_name[3:3 + length]
    return listed_name


def _broken_on_the_way(error: requests.exceptions.ConnectionError) -> bool:
    """Whether a connection was made and broke (a kept connection the proxy closed), rather
    than none could be made (refused, not in time, or held back by the caller's pool)."""
    cause = error.args[0] if error.args else None
    return isinstance(getattr(cause, 'reason', cause), urllib3.exceptions.ProtocolError)


def _result(container: str, object_name: str, body: bytes) -> dict | None:
    """The result a signal object's body holds; None while empty (nothing sent yet)."""
    if not body or not body.strip():
        return None
    try:
        result = json.loads(body)
    except ValueError:
        LOG.warning('Signal object %s/%s does not hold JSON', container, object_name)
        return None
    if not isinstance(result, dict):
        LOG.warning('Signal object %s/%s does not hold a JSON object', container, object_name)
        return None
    return result


class TempUrlSignal(SignalTransport):
    """Signal through a PUT TempURL of an object of its own, in a Swift container the
    trigger's runs share.

    Works with the user's own ``swiftclient.client.Connection``. One
    instance serves one trigger: the account key is looked up once and
    reused for every server of that trigger, and so is the container.
    """

    name = 'TEMP_URL_SIGNAL'

    def __init__(self, swift):
        self._swift = swift
        self._key: str | None = None
        self._containers: dict[str, str] = {}
        self._swept = False

    def prepare(self, name: str, timeout_minutes: int, live: bool = False) -> SignalTarget:
        self._sweep()
        container = self._containers.setdefault(name, container_name(name))
        object_name = str(uuid.uuid4())
        # Put every time: a failed prepare before this one may have removed it, empty.
        self._swift.put_container(container)
        try:
            # An empty object makes "nothing sent yet" a 200 with no body,
            # which both Heat and read_result take as no signal.
            self._swift.put_object(container, object_name, b'')
            url, live_url = (signed_put_url(storage_url(self._swift), container, each,
                                            timeout_minutes * 60, self._account_key())
                             for each in (object_name, live_object(object_name)))
        except Exception:
            try:
                self._remove(container, object_name)
            except Exception:
                LOG.warning('Could not remove signal container %s after a '
                            'failed prepare', container, exc_info=True)
            raise
        return SignalTarget(signal_inputs(url) + live_inputs({LIVE_URL: live_url}, live))

    def read_result(self, input_values: Mapping[str, object]) -> dict | None:
        container, object_name = signal_location(input_values)
        found = self._got(container, object_name)
        return None if found is None else _result(container, object_name, found[1])

    def stranded_result(self, input_values: Mapping[str, object],
                        updated: datetime.datetime) -> dict | None:
        # Heat's own test (_refresh_swift_software_deployment): the object's Last-Modified,
        # whole seconds, against updated_at; an aware ``updated`` is compared in UTC.
        container, object_name = signal_location(input_values)
        found = self._got(container, object_name)
        if found is None:
            return None
        headers, body = found
        try:
            modified = email.utils.parsedate_to_datetime(headers.get('last-modified'))
        except (TypeError, ValueError):
            return None
        if modified > times.utc(updated):
            return None
        return _result(container, object_name, body)

    def _got(self, container: str, object_name: str) -> tuple[dict, bytes] | None:
        try:
            return self._swift.get_object(container, object_name)
        except swift_exc.ClientException as error:
            if _is_not_found(error):
                return None
            raise

    def may_have_result(self, input_values: Mapping[str, object]) -> bool:
        # One HEAD.
        headers = self._looked(lambda: self._swift.head_object(
            *signal_location(input_values)))
        return headers is None or headers.get('content-length') != '0'

    @staticmethod
    def look_place(input_values: Mapping[str, object]) -> str | None:
        return signal_location(input_values)[0]

    def may_have_results(self, many: Sequence[Mapping[str, object]]) -> list[bool]:
        # One listing for the runs whose objects share a container; a HEAD for one alone.
        locations = [signal_location(each) for each in many]
        containers = {container for container, _object_name in locations}
        if len(many) < 2 or len(containers) > 1:
            return super().may_have_results(many)
        found = self._looked(lambda: self._swift.get_container(
            containers.pop(), full_listing=True))
        if found is None:
            return [True] * len(many)
        sizes = {listed['name']: listed['bytes'] for listed in found[1]}
        return [sizes.get(object_name) != 0 for _container, object_name in locations]

    def live_output(self, input_values: Mapping[str, object]) -> Snapshot | None:
        container, object_name = signal_location(input_values)
        found = self._got(container, live_object(object_name))
        return None if found is None else Snapshot.of(found[1])

    def live_lines(self, many: Sequence[Mapping[str, object]]) -> list[str | None]:
        # One listing per container: each live object's Content-Type carries its last line.
        lines = {}
        for container in {signal_location(each)[0] for each in many}:
            found = self._looked(lambda: self._swift.get_container(
                container, prefix=LIVE_PREFIX, full_listing=True)) or ({}, [])
            lines.update({(container, listed['name']): line_of(listed.get('content_type'))
                          for listed in found[1]})
        return [lines.get((container, live_object(object_name)))
                for container, object_name in map(signal_location, many)]

    @staticmethod
    def _looked(look):
        """What the look answered; None where it could not tell. A missing object or
        container, or any other failure to look, is for Heat to explain: the poll then shows
        the run in Heat as it would without this look. But where Object Storage does not
        answer at all, Heat's show would wait on the same Object Storage (its swiftclient
        tries again for about half a minute), holding the page that asked: a soak's pages
        went without a reply for 20 s after the Swift proxy was killed."""
        try:
            return look()
        except requests.exceptions.ConnectionError as error:
            if _broken_on_the_way(error):
                return None
            raise NotAnswering('Object Storage did not answer') from error
        except Exception:
            return None

    def cleanup(self, input_values: Mapping[str, object],
                may_still_report: bool = False) -> None:
        container, object_name = signal_location(input_values)
        if may_still_report:
            self._sweep()
            try:
                self._swift.put_object(container, GONE + object_name, b'')
            except swift_exc.ClientException as error:
                # No container: a later PUT finds none either (404), nothing is made again.
                if _is_not_found(error):
                    return
                raise
        self._remove(container, object_name)

    def _account_key(self) -> str:
        if self._key is None:
            headers = self._swift.head_account()
            key = headers.get(KEY_HEADER) or headers.get(SECOND_KEY_HEADER)
            if not key:
                # Only set when absent: other URLs may be signed with the existing key.
                self._swift.post_account(
                    {KEY_HEADER: secrets.token_hex(16)})
                # Read back, in case a concurrent trigger set its key just before ours.
                key = self._swift.head_account()[KEY_HEADER]
            self._key = key
        return self._key

    def _remove(self, container: str, object_name: str) -> None:
        """Delete the signal object, its versions, then the container if that left in it
        only what belongs to no run.

        The container holds the other runs' objects of its trigger (and a deployment made
        by a stack signals into the stack's shared container, which holds other resources'
        signals too): those stay. Swift refuses to delete a container that is not empty, so
        the last of its runs removed takes it, even when several are removed at once, or a
        removed run's result arrives meanwhile (GONE).
        """
        # The object goes (and its mark is there) before the look: of several runs removed
        # at once, the one that looks last finds every other's object gone or marked.
        try:
            self._delete(container, [object_name])
        except swift_exc.ClientException:
            # The look tells: listed, it is deleted again below (or that failure raised);
            # not listed (a prepare that failed to make it), nothing is in the way.
            pass
        gone = {object_name}
        for _try in range(TAKE_TRIES):
            names = self._names(container)
            if names is None:
                return
            gone.update(name[len(GONE):] for name in names if name.startswith(GONE))
            signals = [name for name in names if not name.startswith(GONE)]
            # Versions first: deleting the live object of a versioned container
            # would otherwise restore the newest version in its place.
            self._delete(container, sorted(
                (name for name in signals if _signal_object_of(name) in gone),
                key=lambda listed: listed == _signal_object_of(listed)))
            if any(_signal_object_of(name) not in gone for name in signals):
                LOG.info('Signal container %s keeps other signals; left in place', container)
                return
            self._delete(container, [name for name in names if name.startswith(GONE)])
            if self._delete_container(container):
                return
        LOG.warning('Signal container %s still holds late results of removed runs after %s '
                    'tries; noted in %s for a later sweep', container, TAKE_TRIES, LEFT)
        self._swift.put_container(LEFT)
        self._swift.put_object(LEFT, container, b'')

    def _sweep(self) -> None:
        """Remove the containers LEFT notes, whatever arrived in them since, and each note
        once its container is gone. Once per transport (a listing: Object Storage's 404
        while there are none), and never in the way of the run it is called for."""
        if self._swept:
            return
        self._swept = True
        try:
            notes = self._names(LEFT)
            if notes is None:
                return
            for left in notes:
                self._delete(left, self._names(left) or ())
                if self._delete_container(left):
                    self._delete(LEFT, [left])
            self._delete_container(LEFT)
        except Exception:
            LOG.warning('Could not sweep the signal containers noted in %s', LEFT,
                        exc_info=True)

    def _names(self, container: str) -> list[str] | None:
        """The names of the container's objects; None when there is no such container."""
        try:
            _headers, listing = self._swift.get_container(container, full_listing=True)
        except swift_exc.ClientException as error:
            if _is_not_found(error):
                return None
            raise
        return [each['name'] for each in listing]

    def _delete(self, container: str, names) -> None:
        for name in names:
            try:
                self._swift.delete_object(container, name)
            except swift_exc.ClientException as error:
                if not _is_not_found(error):
                    raise

    def _delete_container(self, container: str) -> bool:
        """Whether the container is gone now; False where it still holds objects."""
        try:
            self._swift.delete_container(container)
        except swift_exc.ClientException as error:
            if error.http_status == 409:
                return False
            if not _is_not_found(error):
                raise
        return True
