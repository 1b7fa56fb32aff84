from django.urls import re_path

from heat_deploy_dashboard.content.configs import views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(r'^create/$', views.CreateView.as_view(), name='create'),
    re_path(r'^(?P<config_id>[^/]+)/$', views.DetailView.as_view(), name='detail'),
    re_path(r'^(?P<config_id>[^/]+)/copy/$', views.CopyView.as_view(), name='copy'),
    re_path(r'^(?P<config_id>[^/]+)/delete/$', views.DeleteView.as_view(), name='delete'),
    re_path(r'^(?P<config_id>[^/]+)/deploy/$', views.DeployView.as_view(), name='deploy'),
]
