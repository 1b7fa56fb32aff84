"""Policy checks on views, for pages that need more than their panel."""

from django.utils.translation import gettext_lazy as _
from horizon import exceptions
from openstack_dashboard import policy


class PolicyRequiredMixin:
    """Refuses the view unless the user passes every rule in policy_rules.

    Horizon checks a panel's rules on each of its pages, but a page may
    need more: a detail page the "show" rule, a form the "create" rules.
    """

    policy_rules = ()

    def dispatch(self, request, *args, **kwargs):
        if not policy.check(self.policy_rules, request):
            raise exceptions.NotAuthorized(
                _("You are not allowed to open this page."))
        return super().dispatch(request, *args, **kwargs)
