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
