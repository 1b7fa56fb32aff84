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

"""The archive: runs that retention took out of Heat, kept in the project's own Swift.

Heat caps a project's software configs and deployments (every run has one of each), so runs
past the retention bound (retention.py) leave Heat; before they go, each becomes one JSON
object here, readable by the project's credentials only (container CONTAINER, no ACL).

A record holds the run as Heat showed it, its derived config, and when it was archived, with
every secret masked (masking.mask_tree) and any secret input's value scrubbed from the
outputs too (a script may echo it): read back, it is a Run (``archived`` set) that every page
and command shows as it shows Heat's.

Swift lists names in order, a page at a time (prefix, marker, limit), so every run also has
an empty index object per way it is looked for, named to list newest first: by server, by
operation, and of the whole project. A page of the archive costs one listing and one read
per row, however many runs the archive holds.
"""

import dataclasses
import datetime
import json

from swiftclient import exceptions as swift_exc

from heat_deploy_runner import masking
from heat_deploy_runner.running.run import HEAT_KEYS
from heat_deploy_runner.running.run import Run
from heat_deploy_runner import times

CONTAINER = 'heat-deploy-archive'
FORMAT = 1
_RECORDS = 'run/'
# The indexes, by what a page looks for.
PROJECT = 'project/'
# Ten digits count down from the largest ten-digit second, so later runs sort first.
_LAST_SECOND = 10 ** 10 - 1

# An operation's or a server's archived runs read at most for their results (search,
# export, groups).
RESULTS_READ = 1000


def server_prefix(server_id: str) -> str:
    return f'server/{server_id}/'


def operation_prefix(operation_id: str) -> str:
    return f'operation/{operation_id}/'


def listed_as(run) -> str:
    """What a run's index objects end in: it sorts later runs first, and pages take it as
    their marker."""
    started = times.parse_time(run.creation_time)
    seconds = int(started.timestamp()) if started else 0
    return f'{_LAST_SECOND - seconds:010d}-{run.id}'


def index_names(run) -> list[str]:
    """The index objects of a run (a Run), one per prefix it is listed under."""
    key = listed_as(run)
    names = [PROJECT + key, server_prefix(run.server_id) + key]
    if run.operation:
        names.append(operation_prefix(run.operation.id) + key)
    return names


def run_id_of(index_name: str) -> str:
    return index_name.rsplit('/', 1)[1].split('-', 1)[1]


def record(run, now: datetime.datetime | None = None) -> dict:
    """The archive's record of a run (a Run with its config), secrets masked and scrubbed."""
    secrets = masking.secret_values(run.config)
    heat = {key: getattr(run, key) for key in HEAT_KEYS}
    moment = (now or datetime.datetime.now(datetime.timezone.utc)).astimezone(
        datetime.timezone.utc)
    return masking.scrubbed({
        'format': FORMAT,
        'run': masking.mask_tree(heat),
        'config': masking.mask_tree(run.config) if run.config else None,
        'archived_at': times.utc_text(moment),
    }, secrets)


def run_of(kept: dict) -> Run:
    """The Run a record keeps, marked archived."""
    heat = kept['run']
    return Run(**{key: heat.get(key) for key in HEAT_KEYS[:8]},
               input_values=heat.get('input_values') or {},
               output_values=heat.get('output_values') or {},
               config=kept.get('config'), archived=True)


def put(swift, run, now=None):
    """Archive the run: its record first, then its index objects, so an index never names a
    record that is not there. Archiving a run again replaces what was kept."""
    swift.put_container(CONTAINER)
    swift.put_object(CONTAINER, _RECORDS + run.id, json.dumps(record(run, now)),
                     content_type='application/json')
    for name in index_names(run):
        swift.put_object(CONTAINER, name, b'', content_type='application/octet-stream')


def _record(swift, run_id: str) -> dict:
    try:
        _headers, body = swift.get_object(CONTAINER, _RECORDS + run_id)
    except swift_exc.ClientException as error:
        if error.http_status == 404:
            raise LookupError(f'No run {run_id} in this project.') from None
        raise
    return json.loads(body)


def get(swift, run_id: str) -> Run:
    """The archived run of this id; LookupError when the archive has none."""
    return run_of(_record(swift, run_id))


@dataclasses.dataclass
class Page:
    runs: list
    has_prev: bool
    has_more: bool
    # {run id: record} of the records this page read from the archive.
    read: dict = dataclasses.field(default_factory=dict)


def page(swift, prefix: str, size: int, marker: str | None = None,
         backwards: bool = False, cached=None) -> Page:
    """A page of the archived runs listed under ``prefix``, newest first: the one after the
    run whose key is ``marker``, or before it when ``backwards`` (Horizon's markers). One
    listing, and one read per run but those ``cached`` ({run ids} -> {run id: record}, a
    cache's: a record never changes once written) gives."""
    # Swift lists in reverse from the marker on: the runs newer than it, nearest first.
    backwards = bool(marker and backwards)
    query = {'prefix': prefix, 'limit': size + 1, 'reverse': backwards}
    if marker:
        query['marker'] = prefix + marker
    names = [row['name'] for row in _listing(swift, **query)]
    more = len(names) > size
    names = names[:size]
    if backwards:
        names.reverse()
    run_ids = [run_id_of(name) for name in names]
    kept = cached(run_ids) if cached and run_ids else {}
    found, read = [], {}
    for run_id in run_ids:
        if run_id not in kept:
            try:
                read[run_id] = _record(swift, run_id)
            except LookupError:
                continue  # deleted since the listing
        found.append(run_of(kept.get(run_id) or read[run_id]))
    if backwards:
        return Page(found, has_prev=more, has_more=True, read=read)
    return Page(found, has_prev=bool(marker), has_more=more, read=read)


def _listing(swift, prefix, limit, reverse, marker=None):
    try:
        _headers, rows = swift.get_container(
            CONTAINER, prefix=prefix, limit=limit, marker=marker,
            query_string='reverse=on' if reverse else None)
    except swift_exc.ClientException as error:
        if error.http_status == 404:
            return []  # nothing archived yet
        raise
    return rows


def delete(swift, run_id: str) -> bool:
    """Remove the archived run: its index objects first, so no listing names a record that
    is gone. False when the archive had no such run."""
    try:
        kept = get(swift, run_id)
    except LookupError:
        return False
    for name in index_names(kept) + [_RECORDS + run_id]:
        try:
            swift.delete_object(CONTAINER, name)
        except swift_exc.ClientException as error:
            if error.http_status != 404:
                raise
    return True
