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

from heat_deploy_dashboard.content import ids
from heat_deploy_dashboard.content.servers import results_views
from heat_deploy_dashboard.content.servers import views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(rf'^(?P<server_id>{ids.SERVER_ID})/$', views.DetailView.as_view(), name='detail'),
    re_path(rf'^(?P<server_id>{ids.SERVER_ID})/results/$',
            results_views.ServerResultsView.as_view(), name='results'),
    re_path(rf'^(?P<server_id>{ids.SERVER_ID})/results\.(?P<kind>csv|json)$',
            results_views.ServerResultsDownloadView.as_view(), name='results_download'),
    re_path(rf'^(?P<server_id>{ids.SERVER_ID})/metadata/reveal/$',
            views.RevealMetadataView.as_view(), name='reveal_metadata'),
]
