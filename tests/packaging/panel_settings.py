"""Django settings for render_panels.py, in the clean venv: Horizon's test settings, with the
installed plugin enabled from its own package, as an operator's Horizon enables it.

Nothing here comes from the repository: heat_deploy_dashboard is the installed wheel.
"""

import os
import tempfile

WORK_DIR = os.environ['RENDER_WORK_DIR']

# Horizon's test settings write their secret key file into the temp directory as they are
# imported; keep it with the rest of this run.
tempfile.tempdir = WORK_DIR
try:
    from openstack_dashboard.test.settings import *  # noqa: F401,F403,H303
finally:
    tempfile.tempdir = None

import openstack_dashboard.enabled  # noqa: E402
from openstack_dashboard.utils import settings as settings_utils  # noqa: E402

import heat_deploy_dashboard  # noqa: E402
import heat_deploy_dashboard.enabled  # noqa: E402

# The plugin's enabled files, from the installed package, read as Horizon reads its own.
HORIZON_CONFIG.pop('dashboards', None)  # noqa: F405
HORIZON_CONFIG.pop('default_dashboard', None)  # noqa: F405
settings_utils.update_dashboards(
    [openstack_dashboard.enabled, heat_deploy_dashboard.enabled],
    HORIZON_CONFIG,  # noqa: F405
    INSTALLED_APPS,  # noqa: F405
)
# Horizon's test settings added openstack_dashboard's apps once already.
INSTALLED_APPS = list(dict.fromkeys(INSTALLED_APPS))  # noqa: F405

# The plugin's settings snippet, from the installed package, executed the way Horizon's
# settings.py executes every file of local_settings.d/: inside this module.
SNIPPET = os.path.join(os.path.dirname(heat_deploy_dashboard.__file__), 'local_settings.d',
                       '_1799_heat_deploy_dashboard_settings.py')
with open(SNIPPET, encoding='utf-8') as _snippet:
    exec(_snippet.read())  # noqa: S102

# Horizon's test settings turn policy checks off: these pages are checked against the
# policy files the snippet registered, as a deployed Horizon checks them.
POLICY_CHECK_FUNCTION = 'openstack_auth.policy.check'

COMPRESS_ROOT = os.path.join(WORK_DIR, 'compress')
# Room for django_compressor's entries and the plugin's config cache side by side.
CACHES = {
    'default': {
        'BACKEND': 'django.core.cache.backends.locmem.LocMemCache',
        'OPTIONS': {'MAX_ENTRIES': 100000},
    },
}
