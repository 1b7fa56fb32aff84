from django.utils.translation import gettext_lazy as _

import horizon


class Servers(horizon.Panel):
    name = _("Servers")
    slug = "servers"
    permissions = ('openstack.services.orchestration',)
    policy_rules = (("orchestration", "software_deployments:index"),)
