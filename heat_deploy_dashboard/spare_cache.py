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

"""Django's cache as the plugin uses it: a help, never a need.

Everything the plugin keeps there (configs, whose project a config is, the component a form
showed, which running rows were just shown) it can read again from Heat. So a cache that
fails, as memcached does when it is down and the backend is left to raise (pymemcache's
default in Horizon), reads as empty and keeps nothing, and the page takes the slower path
instead of failing.

What is kept for good (configs, and whose project a config is: they never change) each
worker also keeps itself, the latest LOCAL_ENTRIES of them, and serves where the cache fails or
misses (memcached down, with pymemcache's ignore_exc, reads as misses). Without that, a
soak's 20 polling pages had every page read every run's config from Heat again while
memcached was down, outran two Horizon workers, and their queue took five minutes to drain
after it came back. What is kept for a while is not served that way: another worker may have
forgotten it (a cancel's recheck) since.
"""

import collections
import logging
import threading

from django.core.cache import cache

LOG = logging.getLogger(__name__)

# A config is a few KB: a few MB per worker at most.
LOCAL_ENTRIES = 1000
_local = collections.OrderedDict()
_local_lock = threading.Lock()


def _keep_locally(values):
    with _local_lock:
        for key, value in values.items():
            _local[key] = value
            _local.move_to_end(key)
        while len(_local) > LOCAL_ENTRIES:
            _local.popitem(last=False)


def _kept_locally(keys):
    with _local_lock:
        return {key: _local[key] for key in keys if key in _local}


def get_many(keys):
    try:
        found = cache.get_many(keys)
        answered = True
    except Exception:
        LOG.warning('The cache could not be read; reading from the services instead',
                    exc_info=True)
        found, answered = {}, False
    missed = [key for key in keys if key not in found]
    if not missed:
        return found
    spare = _kept_locally(missed)
    if spare and answered:
        # The cache lost them (memcached restarted empty): put back, for the other workers
        # and for the ones started since, which keep nothing yet. Not while it fails: every
        # poll would try, and log, a write that fails too.
        _put(spare, None)
    return dict(found, **spare)


def get(key):
    return get_many([key]).get(key)


def set_many(values, timeout):
    """Keep the values for ``timeout`` seconds (None: for good, and in this worker too)."""
    if timeout is None:
        _keep_locally(values)
    _put(values, timeout)


def _put(values, timeout):
    try:
        cache.set_many(values, timeout)
    except Exception:
        # Too big for an item, or the cache is down: it is only read again later.
        LOG.warning('Could not keep %d entries in the cache', len(values), exc_info=True)


def delete_many(keys):
    try:
        cache.delete_many(keys)
    except Exception:
        LOG.warning('Could not forget %d entries in the cache', len(keys), exc_info=True)


def clear():
    """Forget everything kept, the cache's and this worker's own."""
    with _local_lock:
        _local.clear()
    cache.clear()
