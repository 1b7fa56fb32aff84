from django.utils.translation import gettext_lazy as _

import horizon


class Components(horizon.Panel):
    name = _("Components")
    slug = "components"
    permissions = ('openstack.services.orchestration',)
    policy_rules = (("orchestration", "software_configs:index"),)
