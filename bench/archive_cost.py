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

"""Archive cost (issue #29): a server's Archived tab and the project's Archived Runs list at
100, 10,000 and 100,000 archived runs, seeded directly in the demo project's Swift: the
backend calls of a view (goal: the same at every scale) and its time (goal: within 1.2 x the
time at 100 archived runs).

Every seeded run is on one server, so its tab lists them all, as the project's list does. A
run's index objects (heat_deploy_runner.pruning.archive.index_names: under server/ and project/;
the seeded runs have no operation) are what a listing reads, and Swift lists names from its
container database by prefix and marker, not the objects: so the index objects are added to the
archive container's database as its container server adds each object PUT to it (swift's
ContainerBroker.merge_items: a row each, counted in the container's object count), in CHUNK rows a
transaction. Their empty bodies are not written to the object server; no view reads them. 200,000
index objects PUT through the proxy took 23 minutes; rows, seconds. Its record is written through
the proxy (archive.put) for every run a measured view reads: the newest page, and the page after
the run in the middle of the archive, at each scale.

Each view is a page of Horizon's default 20 rows, rendered in the bench's Horizon process
(bench.horizon_side), which counts its requests by service; its time is the median of VIEWS
views after one, the four views taken in turn.
"""

import datetime
import time
import uuid

from swift.common import utils
from swift.container import backend

from heat_deploy_runner.pruning import archive
from heat_deploy_runner import Run

from bench import cloud as bench_cloud
from bench import measure

SCALES = (100, 10_000, 100_000)
PAGE_SIZE = 20
VIEWS = 5
# Rows merged into the container database a transaction.
CHUNK = 10_000
EMPTY_ETAG = 'd41d8cd98f00b204e9800998ecf8427e'
# The newest seeded run's start; each next one a second earlier.
NEWEST = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)


def _run(index, server_id):
    started = NEWEST - datetime.timedelta(seconds=index)
    return Run(id=str(uuid.UUID(int=index + 1)), server_id=server_id, config_id=str(
        uuid.uuid4()), action='BACKUP', status='COMPLETE', status_reason='Outputs received',
        creation_time=started.strftime('%Y-%m-%dT%H:%M:%SZ'),
        updated_time=(started + datetime.timedelta(seconds=30)).strftime(
            '%Y-%m-%dT%H:%M:%SZ'),
        output_values={'deploy_stdout': f'backed up, run {index}\n', 'deploy_stderr': '',
                       'deploy_status_code': 0},
        config={'name': 'mysql-BACKUP', 'group': 'component', 'outputs': [],
                'inputs': [{'name': 'backup_dir', 'type': 'String', 'value': 'nightly'}]})


class _Seeder:
    def __init__(self, new_swift, database, server_id):
        self._new_swift = new_swift
        self._database = database
        self.server_id = server_id
        self.count = 0
        self.seconds = 0.0

    def grow_to(self, scale):
        started, now = time.perf_counter(), time.time()
        broker = backend.ContainerBroker(str(self._database))
        for start in range(self.count, scale, CHUNK):
            broker.merge_items([_row(name, now) for index in range(
                start, min(start + CHUNK, scale)) for name in archive.index_names(
                    _run(index, self.server_id))])
        self.seconds += time.perf_counter() - started
        self.count = scale

    def records(self, indexes):
        swift = self._new_swift()
        for index in indexes:
            archive.put(swift, _run(index, self.server_id))


def _row(name, when):
    # As the container server records an empty object's PUT.
    return {'name': name, 'created_at': utils.Timestamp(when).internal, 'size': 0,
            'content_type': 'application/octet-stream', 'etag': EMPTY_ETAG, 'deleted': 0,
            'storage_policy_index': 0, 'ctype_timestamp': None, 'meta_timestamp': None}


def _container_database(layout, project_id):
    """The archive container's database file under the cloud's one Swift device."""
    account = f'AUTH_{project_id}'
    for found in layout.path('swift', 'devices').glob('*/containers/*/*/*/*.db'):
        info = backend.ContainerBroker(str(found)).get_info()
        if (info['account'], info['container']) == (account, archive.CONTAINER):
            return found
    raise LookupError(f'no database of {account}/{archive.CONTAINER}')


def measure_archive(horizon, new_swift, layout, project_id):
    server_id = str(uuid.uuid4())
    swift = new_swift()
    swift.put_container(archive.CONTAINER)
    seeder = _Seeder(new_swift, _container_database(layout, project_id), server_id)
    seeder.records(range(PAGE_SIZE))
    tab = f'/project/servers/{server_id}/?tab=server_details__archived'
    listed = '/project/deployments/archived/'
    found = {}
    for scale in SCALES:
        bench_cloud.progress(f'archive: seeding to {scale:,} archived runs')
        seeder.grow_to(scale)
        middle = scale // 2
        seeder.records(range(middle + 1, min(middle + 1 + PAGE_SIZE, scale)))
        marker = archive.listed_as(_run(middle, server_id))
        bench_cloud.progress(f'archive: views at {scale:,} archived runs')
        found[str(scale)] = measure.views_in_turn(horizon.view, VIEWS, {
            'server_tab': tab,
            'server_tab_middle': f'{tab}&archive_marker={marker}',
            'archived_list': listed,
            'archived_list_middle': f'{listed}?archive_marker={marker}',
        })
    base = found[str(SCALES[0])]
    largest = found[str(SCALES[-1])]
    return {
        'scales': found,
        'time_over_first_scale': {view: round(largest[view]['median_seconds']
                                              / base[view]['median_seconds'], 2)
                                  for view in base},
        'same_calls': all(found[str(scale)][view]['calls'] == base[view]['calls']
                          for scale in SCALES for view in base),
        'seeding': {'index_objects': seeder.count * 2, 'seconds': round(seeder.seconds, 1),
                    'how': 'rows added to the container database'},
    }
