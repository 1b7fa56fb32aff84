from django.utils.translation import gettext_lazy as _

import horizon


class Deployments(horizon.Panel):
    name = _("Deployments")
    slug = "deployments"
    permissions = ('openstack.services.orchestration',)
    policy_rules = (("orchestration", "software_deployments:index"),)
