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

"""The panels' pages while Keystone is down: a page that says so, not a server error.

Horizon draws every page's menu with calls to Keystone (which panels the user may see), after
the view has done its work: with Keystone down, each page of the panels was a 500, however
well the view itself coped. Pages of other dashboards are left to Horizon.
"""

from django import shortcuts
from keystoneauth1 import exceptions as ksa_exc

from heat_deploy_dashboard import api

PANELS = ('horizon:project:components', 'horizon:project:deployments',
          'horizon:project:servers', 'horizon:project:configs')
TEMPLATE = 'heat_deploy_dashboard/identity_unreachable.html'


def _is_keystone_down(exception):
    # The error does not always say which URL failed: Keystone is asked.
    return (isinstance(exception, (ksa_exc.ConnectionError, ksa_exc.DiscoveryFailure))
            and not api.keystone.answers())


class IdentityUnreachableMiddleware:

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        match = request.resolver_match
        if match is None or match.namespace not in PANELS or not _is_keystone_down(exception):
            return None
        # The page's own URL again, for the link that tries once more.
        return shortcuts.render(request, TEMPLATE, {'again': request.get_full_path()},
                                status=503)
