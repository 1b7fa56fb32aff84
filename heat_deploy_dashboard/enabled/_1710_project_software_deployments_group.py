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

from django.utils.translation import gettext_lazy as _
from heatclient import exc as heat_exc

PANEL_GROUP = 'software_deployments'
PANEL_GROUP_NAME = _('Software Deployments')
PANEL_GROUP_DASHBOARD = 'project'

ADD_INSTALLED_APPS = ['heat_deploy_dashboard']

# Every script under static/heat_deploy_dashboard/js goes into Horizon's compressed bundle,
# once, on every page; templates must not load them again.
AUTO_DISCOVER_STATIC_FILES = True

# horizon.exceptions.handle() sorts exceptions by these lists, and
# openstack_dashboard's lists hold no heatclient class. Without them a 401
# from Heat would read as a Heat failure instead of leading to Horizon's
# not-authorized page, and where handle() gets no message (Horizon's ajax
# row updates call it with ignore=True) a heatclient error would be
# re-raised as a 500 instead of a 404 that drops the row. BaseException also
# covers CommunicationError and InvalidEndpoint: Heat not reachable.
# heat-dashboard registers the same classes; twice is harmless.
ADD_EXCEPTIONS = {
    'recoverable': (heat_exc.BaseException,),
    'not_found': (heat_exc.HTTPNotFound,),
    'unauthorized': (heat_exc.HTTPUnauthorized,),
}
