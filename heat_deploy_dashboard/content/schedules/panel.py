from django.utils.translation import gettext_lazy as _

import horizon


class Schedules(horizon.Panel):
    name = _("Schedules")
    slug = "schedules"
    # Schedules are Mistral cron triggers: the panel shows only with Mistral in the catalog.
    permissions = ('openstack.services.orchestration', 'openstack.services.workflowv2')
    policy_rules = (("workflow", "cron_triggers:list"),)
