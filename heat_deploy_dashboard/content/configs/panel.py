from django.utils.translation import gettext_lazy as _

import horizon


class Configs(horizon.Panel):
    name = _("Software Configs")
    slug = "configs"
    permissions = ('openstack.services.orchestration',)
    policy_rules = (("orchestration", "software_configs:index"),)
