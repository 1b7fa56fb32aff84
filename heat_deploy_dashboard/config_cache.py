"""Software configs by id, each fetched from Heat at most once.

Heat has no call to change a config, so one read is good for ever. They are
kept in Django's cache framework: with memcached, what one Horizon worker
read serves every other worker too.
"""

import logging

from django.core.cache import cache
from heatclient import exc as heat_exc

from heat_deploy_dashboard import api
from heat_deploy_dashboard.deploy.derived import as_dict

LOG = logging.getLogger(__name__)

# Per project: Heat shows a config to its own project only, and a cached
# copy must not reach anyone Heat would refuse it to.
_KEY = 'heat_deploy_dashboard:config:%(project)s:%(config)s'

# No expiry: a config never goes stale, and one deleted in Heat is simply
# never asked for again while the backend's LRU makes room.
_FOREVER = None

# Hits and misses of this process, for the benchmark's hit ratio.
_stats = {'hits': 0, 'misses': 0}


def stats():
    return dict(_stats)


def get_many(request, config_ids):
    """{config id: config as a dict} for each id; an id Heat no longer
    knows is left out. One cache round trip, then one Heat call per id the
    cache does not hold."""
    project = request.user.project_id
    keys = {_KEY % {'project': project, 'config': config_id}: config_id
            for config_id in config_ids}
    configs = {keys[key]: config
               for key, config in cache.get_many(list(keys)).items()}
    _stats['hits'] += len(configs)

    fetched = {}
    for key, config_id in keys.items():
        if config_id in configs:
            continue
        _stats['misses'] += 1
        try:
            config = as_dict(api.heat.config_get(request, config_id))
        except heat_exc.HTTPNotFound:
            continue
        configs[config_id] = fetched[key] = config
    _put(fetched)
    return configs


def put_many(request, configs):
    """Keep configs (dicts) just made, so that no page has to fetch them."""
    project = request.user.project_id
    _put({_KEY % {'project': project, 'config': config['id']}: config
          for config in configs})


def _put(by_key):
    if not by_key:
        return
    try:
        cache.set_many(by_key, _FOREVER)
    except Exception:
        # A config too big for memcached is only fetched again later;
        # that is no reason to fail the page.
        LOG.warning('Could not cache %d software configs', len(by_key),
                    exc_info=True)
