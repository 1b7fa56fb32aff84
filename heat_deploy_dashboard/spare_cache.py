"""Django's cache as the plugin uses it: a help, never a need.

Everything the plugin keeps there (configs, whose project a config is, the component a form
showed, which running rows were just shown) it can read again from Heat. So a cache that
fails, as memcached does when it is down and the backend is left to raise (pymemcache's
default in Horizon), reads as empty and keeps nothing, and the page takes the slower path
instead of failing.

While the cache fails, each worker serves what it kept itself lately (LOCAL_ENTRIES, each
for the time it was kept for): a page then costs what it costs on a worker that has read it
before, not a cold start every time. Without that, a soak's 20 polling pages outran two
Horizon workers while memcached was down, and their queue took five minutes to drain after
it came back.
"""

import collections
import logging
import threading
import time

from django.core.cache import cache

LOG = logging.getLogger(__name__)

# Configs and names are a few KB each: a few MB per worker at most.
LOCAL_ENTRIES = 1000
_local = collections.OrderedDict()  # key: (monotonic expiry or None, value)
_local_lock = threading.Lock()


def _keep_locally(values, timeout):
    expires = None if timeout is None else time.monotonic() + timeout
    with _local_lock:
        for key, value in values.items():
            _local[key] = (expires, value)
            _local.move_to_end(key)
        while len(_local) > LOCAL_ENTRIES:
            _local.popitem(last=False)


def _kept_locally(keys):
    now = time.monotonic()
    found = {}
    with _local_lock:
        for key in keys:
            expires, value = _local.get(key, (0, None))
            if expires is None or expires > now:
                found[key] = value
    return found


def _forget_locally(keys):
    with _local_lock:
        for key in keys:
            _local.pop(key, None)


def get_many(keys):
    try:
        return cache.get_many(keys)
    except Exception:
        LOG.warning('The cache could not be read; reading what this worker kept, and the '
                    'services for the rest', exc_info=True)
        return _kept_locally(keys)


def get(key):
    return get_many([key]).get(key)


def set_many(values, timeout):
    """Keep the values for ``timeout`` seconds (None: for as long as the cache will)."""
    _keep_locally(values, timeout)
    try:
        cache.set_many(values, timeout)
    except Exception:
        # Too big for an item, or the cache is down: it is only read again later.
        LOG.warning('Could not keep %d entries in the cache', len(values), exc_info=True)


def delete_many(keys):
    _forget_locally(keys)
    try:
        cache.delete_many(keys)
    except Exception:
        LOG.warning('Could not forget %d entries in the cache', len(keys), exc_info=True)


def clear():
    """Forget everything kept, the cache's and this worker's own."""
    with _local_lock:
        _local.clear()
    cache.clear()
