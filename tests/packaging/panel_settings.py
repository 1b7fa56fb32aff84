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

"""Django settings for render_panels.py, in the clean venv: Horizon's test settings, with the
installed plugin enabled from its own package, as an operator's Horizon enables it.

Nothing here comes from the repository: heat_deploy_dashboard is the installed wheel.

RENDER_HEAT_DASHBOARD chooses the Horizon:

- unset or empty: the plugin alone;
- "policy-copied": heat-dashboard beside it, installed as its own devstack plugin installs it
  (its enabled files, its _1699 settings file, and its two policy files copied into
  POLICY_FILES_PATH, where that settings file names them);
- "policy-not-copied": the same, but its policy files were never copied.

With heat-dashboard, POLICY_FILES_PATH is a copy of Horizon's conf/ under RENDER_WORK_DIR, so
that nothing is written into the venv.
"""

import logging
import os
import shutil
import tempfile

WORK_DIR = os.environ['RENDER_WORK_DIR']
HEAT_DASHBOARD = os.environ.get('RENDER_HEAT_DASHBOARD', '')
if HEAT_DASHBOARD not in ('', 'policy-copied', 'policy-not-copied'):
    raise ValueError(f'RENDER_HEAT_DASHBOARD={HEAT_DASHBOARD!r}')

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

ENABLED = [openstack_dashboard.enabled, heat_deploy_dashboard.enabled]
SNIPPETS = [os.path.join(os.path.dirname(heat_deploy_dashboard.__file__), 'local_settings.d',
                         '_1799_heat_deploy_dashboard_settings.py')]

if HEAT_DASHBOARD:
    import heat_dashboard
    import heat_dashboard.enabled

    # Its _16* files sort before our _17* ones, as they do in local/enabled/.
    ENABLED.insert(1, heat_dashboard.enabled)
    HEAT_DASHBOARD_DIR = os.path.dirname(heat_dashboard.__file__)
    SNIPPETS.insert(0, os.path.join(HEAT_DASHBOARD_DIR, 'local_settings.d',
                                    '_1699_orchestration_settings.py'))
    _conf = os.path.join(WORK_DIR, 'conf')
    shutil.copytree(POLICY_FILES_PATH, _conf)  # noqa: F405
    if HEAT_DASHBOARD == 'policy-copied':
        # As heat-dashboard's devstack plugin does (devstack/plugin.sh), into Horizon's conf/:
        #   cp heat_dashboard/conf/heat_policy.yaml <conf>/
        #   cp heat_dashboard/conf/default_policies/heat.yaml <conf>/default_policies
        shutil.copy(os.path.join(HEAT_DASHBOARD_DIR, 'conf', 'heat_policy.yaml'), _conf)
        shutil.copy(os.path.join(HEAT_DASHBOARD_DIR, 'conf', 'default_policies', 'heat.yaml'),
                    os.path.join(_conf, 'default_policies'))
    # Set before any snippet runs: they read it through django.conf.settings.
    POLICY_FILES_PATH = _conf

# The enabled files, from the installed packages, read as Horizon reads its own.
HORIZON_CONFIG.pop('dashboards', None)  # noqa: F405
HORIZON_CONFIG.pop('default_dashboard', None)  # noqa: F405
settings_utils.update_dashboards(ENABLED, HORIZON_CONFIG, INSTALLED_APPS)  # noqa: F405
# Horizon's test settings added openstack_dashboard's apps once already.
INSTALLED_APPS = list(dict.fromkeys(INSTALLED_APPS))  # noqa: F405


class _Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


# The settings snippets, from the installed packages, executed the way Horizon's settings.py
# executes every file of local_settings.d/: in name order, inside this module. What ours logs
# (a registration it replaced) is kept for the report.
snippet_log = _Kept()
logging.getLogger('heat_deploy_dashboard').addHandler(snippet_log)
try:
    for SNIPPET in SNIPPETS:
        with open(SNIPPET, encoding='utf-8') as _snippet:
            exec(_snippet.read())  # noqa: S102
finally:
    logging.getLogger('heat_deploy_dashboard').removeHandler(snippet_log)

# Horizon's test settings turn policy checks off: these pages are checked against the
# policy files the snippets registered, as a deployed Horizon checks them.
POLICY_CHECK_FUNCTION = 'openstack_auth.policy.check'

COMPRESS_ROOT = os.path.join(WORK_DIR, 'compress')
# Room for django_compressor's entries and the plugin's config cache side by side.
CACHES = {
    'default': {
        'BACKEND': 'django.core.cache.backends.locmem.LocMemCache',
        'OPTIONS': {'MAX_ENTRIES': 100000},
    },
}
