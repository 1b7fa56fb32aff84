from django.urls import re_path

from heat_deploy_dashboard.content.configs import views
from heat_deploy_dashboard.content import ids

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(r'^create/$', views.CreateView.as_view(), name='create'),
    re_path(rf'^(?P<config_id>{ids.HEAT_ID})/$', views.DetailView.as_view(), name='detail'),
    re_path(rf'^(?P<config_id>{ids.HEAT_ID})/copy/$', views.CopyView.as_view(), name='copy'),
    re_path(rf'^(?P<config_id>{ids.HEAT_ID})/delete/$', views.DeleteView.as_view(), name='delete'),
    re_path(rf'^(?P<config_id>{ids.HEAT_ID})/deploy/$', views.DeployView.as_view(), name='deploy'),
]
