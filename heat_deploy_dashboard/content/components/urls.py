from django.urls import re_path

from heat_deploy_dashboard.content.components import views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(r'^(?P<component_id>[^/]+)/$',
            views.DetailView.as_view(), name='detail'),
    re_path(r'^(?P<component_id>[^/]+)/run/$',
            views.TriggerView.as_view(), name='trigger'),
]
