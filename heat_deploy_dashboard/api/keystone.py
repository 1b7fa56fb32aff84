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

"""What the plugin asks Keystone itself; Horizon's own api.keystone does the rest."""

from django.conf import settings

from heat_deploy_dashboard.api import pool


def answers():
    """Whether Keystone answers at all (pool.answers)."""
    return pool.answers(settings.OPENSTACK_KEYSTONE_URL)
