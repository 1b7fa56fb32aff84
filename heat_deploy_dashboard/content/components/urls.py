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

from django.urls import re_path

from heat_deploy_dashboard.content.components import views
from heat_deploy_dashboard.content import ids
from heat_deploy_dashboard.content.run_action import views as run_views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(rf'^(?P<component_id>{ids.HEAT_ID})/$',
            views.DetailView.as_view(), name='detail'),
    re_path(rf'^(?P<component_id>{ids.HEAT_ID})/run/$',
            run_views.RunActionView.as_view(), name='run'),
    re_path(rf'^stacks/(?P<stack_id>{ids.HEAT_ID})/$',
            views.StackMapView.as_view(), name='stack'),
]
