# Registers the "orchestration" policy scope that the dashboard's panels check.
#
# Horizon exec()s this file inside its settings module, so __file__ is not
# ours: the policy files are found through the installed package. setdefault
# keeps heat-dashboard's registration when both plugins are installed.
# openstack_auth.policy joins these names to POLICY_FILES_PATH, and joining
# an absolute path yields the absolute path.

import os as _os

from django.conf import settings

import heat_deploy_dashboard as _heat_deploy_dashboard

_conf_dir = _os.path.join(
    _os.path.dirname(_os.path.abspath(_heat_deploy_dashboard.__file__)),
    'conf')

settings.POLICY_FILES.setdefault(
    'orchestration', _os.path.join(_conf_dir, 'heat_policy.yaml'))
settings.DEFAULT_POLICY_FILES.setdefault(
    'orchestration', _os.path.join(_conf_dir, 'default_policies', 'heat.yaml'))
