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

"""Fixed names and passwords of the local cloud: it listens on 127.0.0.1 only, for development."""

REGION = 'RegionOne'
ADMIN_PASSWORD = 'devcloud-admin'
SERVICE_PASSWORD = 'devcloud-service'
DB_USER = 'openstack'
DB_PASSWORD = 'devcloud-db'

DEMO_PROJECT = 'demo'
DEMO_USER = 'demo'
DEMO_PASSWORD = 'demo-password'

# A second project, so tests can show one project never sees another's data.
OTHER_PROJECT = 'other'
OTHER_USER = 'other'
OTHER_PASSWORD = 'other-password'

HEAT_DOMAIN = 'heat'
HEAT_DOMAIN_ADMIN = 'heat_domain_admin'
