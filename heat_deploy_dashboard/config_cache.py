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

"""Software configs by id, each fetched from Heat at most once.

Heat has no call to change a config, so one read is good for ever. They are
kept in Django's cache framework: with memcached, what one Horizon worker
read serves every other worker too.
"""

from concurrent import futures
import logging
import time

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
import requests

from heat_deploy_dashboard import api
from heat_deploy_dashboard import spare_cache
from heat_deploy_runner.configs.derived import as_dict

# Per project: Heat shows a config to its own project only, and a cached
# copy must not reach anyone Heat would refuse it to.
_KEY = 'heat_deploy_dashboard:config:%(project)s:%(config)s'

# No expiry: a config never goes stale, and one deleted in Heat is simply
# never asked for again while the backend's LRU makes room.
_FOREVER = None

# Heat's API answers a few requests at a time; more in parallel only queue there.
PARALLEL_READS = 4
_UNREAD = object()

LOG = logging.getLogger(__name__)

# Hits and misses of this process, for the benchmark's hit ratio.
_stats = {'hits': 0, 'misses': 0}


def stats():
    return dict(_stats)


class Configs(dict):
    """{config id: config as a dict}, and ``unread``: the ids left for a later page."""

    unread = frozenset()


def get_many(request, config_ids, seconds=None):
    """{config id: config as a dict} for each id; an id Heat no longer
    knows is left out. One cache round trip, then one Heat call per id the
    cache does not hold, PARALLEL_READS at a time.

    With ``seconds``, no read starts after that long, so that a page over
    thousands of runs nobody has looked at yet answers before the web
    server gives up on it; what it read is kept, so each view reads on
    where the one before stopped. The ids left out that way are in the
    result's ``unread``, and so are those Heat did not answer for: its API
    may stop between a page's listing and these reads, and the page shows
    what it listed rather than an error (the next view reads them).
    """
    project = request.user.project_id
    keys = {_KEY % {'project': project, 'config': config_id}: config_id
            for config_id in config_ids}
    configs = Configs((keys[key], config)
                      for key, config in spare_cache.get_many(list(keys)).items())
    _stats['hits'] += len(configs)
    missing = [key for key, config_id in keys.items() if config_id not in configs]
    if not missing:
        return configs

    deadline = None if seconds is None else time.monotonic() + seconds

    def read(key):
        if deadline is not None and time.monotonic() > deadline:
            return key, _UNREAD
        try:
            return key, as_dict(api.heat.config_get(request, keys[key]))
        except heat_exc.HTTPNotFound:
            return key, None
        except (ks_exc.ConnectionError, requests.exceptions.ConnectionError,
                heat_exc.HTTPServiceUnavailable, heat_exc.HTTPInternalServerError):
            LOG.warning('Could not read software config %s', keys[key], exc_info=True)
            return key, _UNREAD

    fetched, unread = {}, set()
    with futures.ThreadPoolExecutor(PARALLEL_READS) as pool:
        for key, config in pool.map(read, missing):
            if config is _UNREAD:
                unread.add(keys[key])
                continue
            _stats['misses'] += 1
            if config is not None:
                configs[keys[key]] = fetched[key] = config
    _put(fetched)
    configs.unread = frozenset(unread)
    return configs


def put_many(request, configs):
    """Keep configs (dicts) just made, so that no page has to fetch them."""
    project = request.user.project_id
    _put({_KEY % {'project': project, 'config': config['id']}: config
          for config in configs})


def _put(by_key):
    if by_key:
        spare_cache.set_many(by_key, _FOREVER)
