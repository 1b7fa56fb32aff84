from django.urls import re_path

from heat_deploy_dashboard.content.deployments import views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
]
