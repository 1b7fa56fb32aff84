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

# Registers the policy scopes that the dashboard's panels check, with the policy
# files of heat_deploy_dashboard/conf/: "orchestration" (Heat's rules) and
# "workflow" (Mistral's, for the Schedules panel).
#
# Another registration of a scope (heat-dashboard's _1699 settings file, or
# the operator's settings) is kept, setting by setting, where the file it
# names exists. openstack_auth.policy joins each name to POLICY_FILES_PATH (an
# absolute name stays as it is), and when the files of a scope are missing it
# enforces nothing for that scope: every check would pass. heat-dashboard
# registers 'heat_policy.yaml' and 'default_policies/heat.yaml' and leaves
# copying them into POLICY_FILES_PATH to the operator; where that was not done,
# ours take their place.
#
# Horizon exec()s this file inside its settings module, so __file__ is not
# ours: the policy files are found through the installed package.

import logging as _logging
import os as _os

from django.conf import settings as _settings

import heat_deploy_dashboard as _heat_deploy_dashboard

# scope: (its overrides file, its defaults file), in conf/.
_SCOPES = {
    'orchestration': ('heat_policy.yaml', 'heat.yaml'),
    'workflow': ('mistral_policy.yaml', 'mistral.yaml'),
}


def _register_policies(settings):
    conf_dir = _os.path.join(
        _os.path.dirname(_os.path.abspath(_heat_deploy_dashboard.__file__)),
        'conf')
    for scope, (overrides, defaults) in _SCOPES.items():
        ours = {
            'POLICY_FILES': _os.path.join(conf_dir, overrides),
            'DEFAULT_POLICY_FILES': _os.path.join(
                conf_dir, 'default_policies', defaults),
        }
        for setting, our_file in ours.items():
            files = getattr(settings, setting)
            registered = files.get(scope)
            if registered:
                path = _os.path.join(settings.POLICY_FILES_PATH, registered)
                if _os.path.isfile(path):
                    continue
                _logging.getLogger('heat_deploy_dashboard').warning(
                    "%s['%s'] names %s, which does not exist: "
                    "using %s instead.", setting, scope, path, our_file)
            files[scope] = our_file


_register_policies(_settings)

# While Keystone is down, Horizon's menu makes each page of the panels a server
# error; this answers with a page that names Keystone instead (middleware.py).
MIDDLEWARE = tuple(MIDDLEWARE) + (  # noqa: F821 (Horizon's settings module's)
    'heat_deploy_dashboard.middleware.IdentityUnreachableMiddleware',)

# Whether the project's server images have heat-deploy-script-hook, which sends a run's output
# while the script runs: Run Action's and Deploy's "Send output live" box starts ticked where
# they do. True for every project, or a list of project IDs; False (unset) by default. Set it
# in local_settings.py, which this file must not override:
#   HEAT_DEPLOY_LIVE_OUTPUT = ['8f2c0d41a6e54b7c9d3e1f2a3b4c5d6e']
