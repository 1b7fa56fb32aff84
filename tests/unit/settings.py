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

"""Django settings for the unit tests: Horizon's test settings plus ours."""

import os
import tempfile

_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_BUILD_DIR = os.path.join(_REPO_ROOT, 'build', 'unit-tests')
os.makedirs(_BUILD_DIR, exist_ok=True)

# Horizon's test settings create their secret key file in the system temp
# directory while they are imported; keep it in build/ instead.
_system_tempdir = tempfile.tempdir
tempfile.tempdir = _BUILD_DIR
try:
    from openstack_dashboard.test.settings import *  # noqa: F401,F403,H303
finally:
    tempfile.tempdir = _system_tempdir

import openstack_dashboard.enabled  # noqa: E402
from openstack_dashboard.utils import settings as settings_utils  # noqa: E402

import heat_deploy_dashboard  # noqa: E402
import heat_deploy_dashboard.enabled  # noqa: E402

COMPRESS_ROOT = os.path.join(_BUILD_DIR, 'compress')

# update_dashboards() rebuilds these two from the enabled files.
HORIZON_CONFIG.pop('dashboards', None)  # noqa: F405
HORIZON_CONFIG.pop('default_dashboard', None)  # noqa: F405
settings_utils.update_dashboards(
    [
        openstack_dashboard.enabled,
        heat_deploy_dashboard.enabled,
    ],
    HORIZON_CONFIG,  # noqa: F405
    INSTALLED_APPS,  # noqa: F405
)
# Horizon's test settings already added openstack_dashboard's apps once, and
# Django refuses an app listed twice.
INSTALLED_APPS = list(dict.fromkeys(INSTALLED_APPS))  # noqa: F405

# Run the operators' settings snippet as Horizon does (exec inside its
# settings module), so the tests check what it registers.
with open(os.path.join(os.path.dirname(heat_deploy_dashboard.__file__), 'local_settings.d',
                       '_1799_heat_deploy_dashboard_settings.py'), encoding='utf-8') as _snippet:
    exec(_snippet.read())  # noqa: S102

# Django's default locmem cache holds 300 entries, and one page rendered with
# django_compressor stores about that many of its own, which would push the
# software config cache out between two requests; memcached, as deployed,
# has room for both.
CACHES = {
    'default': {
        'BACKEND': 'django.core.cache.backends.locmem.LocMemCache',
        'OPTIONS': {'MAX_ENTRIES': 100000},
    },
}
