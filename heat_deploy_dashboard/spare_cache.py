"""Django's cache as the plugin uses it: a help, never a need.

Everything the plugin keeps there (configs, whose project a config is, the component a form
showed, which running rows were just shown) it can read again from Heat. So a cache that
fails, as memcached does when it is down and the backend is left to raise (pymemcache's
default in Horizon), reads as empty and keeps nothing, and the page takes the slower path
instead of failing.
"""

import logging

from django.core.cache import cache

LOG = logging.getLogger(__name__)


def get_many(keys):
    try:
        return cache.get_many(keys)
    except Exception:
        LOG.warning('The cache could not be read; reading from the services instead',
                    exc_info=True)
        return {}


def get(key):
    return get_many([key]).get(key)


def set_many(values, timeout):
    """Keep the values for ``timeout`` seconds (None: for as long as the cache will)."""
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
