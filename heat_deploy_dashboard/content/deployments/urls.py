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

from django.urls import include
from django.urls import re_path

from heat_deploy_dashboard.content.deployments import archived_views
from heat_deploy_dashboard.content.deployments import results_views
from heat_deploy_dashboard.content.deployments import status
from heat_deploy_dashboard.content.deployments import views
from heat_deploy_dashboard.content import ids

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(r'^status/$', status.StatusView.as_view(), name='status'),
    re_path(rf'^operations/(?P<operation_id>{ids.HEAT_ID})/$', views.OperationView.as_view(),
            name='operation'),
    re_path(rf'^operations/(?P<operation_id>{ids.HEAT_ID})/rerun/$',
            views.OperationRerunView.as_view(), name='operation_rerun'),
    re_path(rf'^operations/(?P<operation_id>{ids.HEAT_ID})/results/$',
            results_views.OperationResultsView.as_view(), name='operation_results'),
    re_path(rf'^operations/(?P<operation_id>{ids.HEAT_ID})/results\.(?P<kind>csv|json)$',
            results_views.OperationResultsDownloadView.as_view(),
            name='operation_results_download'),
    re_path(rf'^(?P<deployment_id>{ids.HEAT_ID})/$', views.DetailView.as_view(), name='detail'),
    re_path(rf'^(?P<deployment_id>{ids.HEAT_ID})/diff/$', results_views.DiffView.as_view(),
            name='diff'),
    re_path(rf'^(?P<deployment_id>{ids.HEAT_ID})/rerun/$', views.RerunView.as_view(),
            name='rerun'),
    # Any output name: a server may send keys with slashes in them.
    re_path(rf'^(?P<deployment_id>{ids.HEAT_ID})/outputs/(?P<output_name>.+)/$',
            views.OutputDownloadView.as_view(), name='output'),
    re_path(r'^archived/$', archived_views.IndexView.as_view(), name='archived_index'),
    re_path(rf'^archived/(?P<run_id>{ids.HEAT_ID})/$', archived_views.DetailView.as_view(),
            name='archived'),
    re_path(rf'^archived/(?P<run_id>{ids.HEAT_ID})/rerun/$',
            archived_views.RerunView.as_view(), name='archived_rerun'),
    re_path(rf'^archived/(?P<run_id>{ids.HEAT_ID})/outputs/(?P<output_name>.+)/$',
            archived_views.OutputDownloadView.as_view(), name='archived_output'),
    re_path(r'^notices/', include('heat_deploy_dashboard.content.notices.urls')),
]
