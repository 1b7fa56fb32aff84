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

"""Policy checks on views and table actions, for what Horizon's own checks leave out."""

from django.utils.translation import gettext_lazy as _
from horizon import exceptions
from horizon.utils.memoized import memoized
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


@memoized
def check_once(rules, request):
    """policy.check of the rules on the request's project, asked once per request."""
    return policy.check(rules, request)


class RulesOncePerRequest:
    """A table action whose policy_rules are asked once per request, not once per row.

    Horizon asks an action's policy_rules again for every row it is offered on: for an
    action whose policy target is not the row's (no get_policy_target of its own), the same
    question with the same answer, about half of a page of runs' own cost. The rules
    stay declared as policy_rules, where views and readers find them, but the action hands
    Horizon none and asks them in allowed(), Horizon's public hook for an action's own
    checks, through check_once. An action that overrides allowed() keeps them by calling
    super().allowed() first.
    """

    def __init__(self, **kwargs):
        # Horizon asks whatever policy_rules the action holds, row by row. Done once: a table
        # class makes its actions once, and every request shares them.
        self.request_rules = kwargs.pop('policy_rules', None) or ()
        super().__init__(**kwargs)

    def allowed(self, request, datum=None):
        return check_once(self.request_rules, request) and super().allowed(request, datum)
