from django.urls import re_path

from heat_deploy_dashboard.content import ids
from heat_deploy_dashboard.content.servers import views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(rf'^(?P<server_id>{ids.SERVER_ID})/$', views.DetailView.as_view(), name='detail'),
    re_path(rf'^(?P<server_id>{ids.SERVER_ID})/metadata/reveal/$',
            views.RevealMetadataView.as_view(), name='reveal_metadata'),
]
