# Registers the "orchestration" policy scope that the dashboard's panels check,
# with the policy files of heat_deploy_dashboard/conf/.
#
# Another registration of the scope (heat-dashboard's _1699 settings file, or
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


def _register_orchestration_policy(settings):
    conf_dir = _os.path.join(
        _os.path.dirname(_os.path.abspath(_heat_deploy_dashboard.__file__)),
        'conf')
    ours = {
        'POLICY_FILES': _os.path.join(conf_dir, 'heat_policy.yaml'),
        'DEFAULT_POLICY_FILES': _os.path.join(
            conf_dir, 'default_policies', 'heat.yaml'),
    }
    for setting, our_file in ours.items():
        files = getattr(settings, setting)
        registered = files.get('orchestration')
        if registered:
            path = _os.path.join(settings.POLICY_FILES_PATH, registered)
            if _os.path.isfile(path):
                continue
            _logging.getLogger('heat_deploy_dashboard').warning(
                "%s['orchestration'] names %s, which does not exist: "
                "using %s instead.", setting, path, our_file)
        files['orchestration'] = our_file


_register_orchestration_policy(_settings)

# While Keystone is down, Horizon's menu makes each page of the panels a server
# error; this answers with a page that names Keystone instead (middleware.py).
MIDDLEWARE = tuple(MIDDLEWARE) + (  # noqa: F821 (Horizon's settings module's)
    'heat_deploy_dashboard.middleware.IdentityUnreachableMiddleware',)
