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

"""The deployments of the project the user is working in.

Heat lists every project's deployments to an admin (software_deployment_get_all drops its
project filter for context.is_admin), and a deployment does not say whose it is: its config
does (api.heat.foreign_config_ids). Anyone else gets Heat's listing as it is, at no extra call.
"""

from horizon.utils.memoized import memoized

from heat_deploy_dashboard import api


@memoized
def deployments(request, server_id=None):
    """Listed once per request: a page's table, its components and its stack's wiring all
    read it."""
    found = api.heat.deployments_list(request, server_id=server_id)
    foreign = api.heat.foreign_config_ids(request, {d.config_id for d in found})
    return [d for d in found if d.config_id not in foreign]
