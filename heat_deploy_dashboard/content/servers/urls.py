from django.urls import re_path

from heat_deploy_dashboard.content.servers import views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(r'^(?P<server_id>[^/]+)/$', views.DetailView.as_view(), name='detail'),
]
