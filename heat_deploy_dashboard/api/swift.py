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

"""Swift (object-store): the connection for the signal TempURLs of deployments, the secret
inputs of runs Mistral starts (kept through api.mistral's calls, read here), and the archive
of runs retention pruned."""

from urllib import parse

from django.conf import settings
from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler
from swiftclient import client as swift_client

from heat_deploy_dashboard.api import pool
from heat_deploy_dashboard import spare_cache
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.workflows import secret_store


class _PooledConnection(swift_client.Connection):
    """swiftclient's Connection over the worker's pooled connections (see pool)."""

    def http_connection(self, url=None):
        parsed, connection = super().http_connection(url)
        connection.request_session = pool.swift_session()
        return parsed, connection


SERVICE_TYPE = 'object-store'


def is_available(request):
    """Whether the user's catalog has Object Storage: secret inputs the workflow service
    would hold are kept there, and refused without it."""
    return base.is_service_enabled(request, SERVICE_TYPE)


@memoized
def swift_connection(request):
    return _PooledConnection(
        preauthurl=base.url_for(request, SERVICE_TYPE),
        preauthtoken=request.user.token.id,
        insecure=settings.OPENSTACK_SSL_NO_VERIFY,
        cacert=settings.OPENSTACK_SSL_CACERT,
        timeout=pool.timeout_seconds(),
        # swiftclient's default (5 retries, backoff doubling from 1 s) is made for batch
        # jobs; here a user is waiting on the page.
        retries=0,
    )


def answers(request):
    """Whether the Swift proxy answers at all (its /info, pool.answers): asked only while a
    call is failing, which Heat's shows of runs may do while Swift is down (they read each
    run's signal from it)."""
    endpoint = parse.urlsplit(base.url_for(request, SERVICE_TYPE))
    return pool.answers(f'{endpoint.scheme}://{endpoint.netloc}/info')


@profiler.trace
def secrets_get(request, ref):
    """The secret inputs of a schedule kept under ``ref`` (runner.workflows.secret_store)."""
    return secret_store.get(swift_connection(request), ref)


# The archive of pruned runs (heat_deploy_runner.pruning.archive).

# Archived records read for a page are kept this long, in the cache only (a record with
# its outputs may be 100 KB or more: not in each worker too), so that the next view of an
# operation's results reads its archived runs once, not once a view.
ARCHIVED_KEPT_SECONDS = 600
_ARCHIVED_KEY = 'heat_deploy_dashboard:archived:%s:%s'


@profiler.trace
def archive_page(request, prefix, size, marker=None, backwards=False):
    project = request.user.project_id

    def cached(run_ids):
        keys = {_ARCHIVED_KEY % (project, run_id): run_id for run_id in run_ids}
        return {keys[key]: record
                for key, record in spare_cache.get_many(list(keys)).items()}
    found = archive.page(swift_connection(request), prefix, size, marker, backwards, cached)
    if found.read:
        spare_cache.set_many({_ARCHIVED_KEY % (project, run_id): record
                              for run_id, record in found.read.items()},
                             ARCHIVED_KEPT_SECONDS)
    return found


@profiler.trace
def archived_run(request, run_id):
    return archive.get(swift_connection(request), run_id)


@profiler.trace
def archive_delete(request, run_id):
    return archive.delete(swift_connection(request), run_id)
