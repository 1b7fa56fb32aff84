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

"""Config cache hit ratio over repeated views of the components and deployments pages.

Counted by heat_deploy_dashboard.config_cache's own per-process counters, in one process
configured like the cloud's Horizon (bench.horizon_side): it shares the cloud's memcached with
the gunicorn workers, so what they cached is a hit here too, and what it caches is theirs. The
views start right after seeding, so the first view of the deployments page meets the new runs'
configs for the first time: the ratio is given with and without that first view.
"""

# The deployments page takes seconds at 1,000 rows: enough views for a ratio, no more.
VIEWS = 6
PAGES = ('/project/deployments/', '/project/components/')


def _ratio(views):
    hits = sum(v['cache']['hits'] for v in views)
    misses = sum(v['cache']['misses'] for v in views)
    return {'hits': hits, 'misses': misses,
            'ratio': hits / (hits + misses) if hits + misses else None}


def measure_cache(horizon):
    viewed = {path: [horizon.view(path) for _ in range(VIEWS)] for path in PAGES}
    every = [v for views in viewed.values() for v in views]
    repeated = [v for views in viewed.values() for v in views[1:]]
    return {
        'views_per_page': VIEWS,
        'repeated_views': _ratio(repeated),
        'all_views': _ratio(every),
        'per_view': {path: [v['cache'] for v in views] for path, views in viewed.items()},
    }
