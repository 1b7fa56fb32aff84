from django.urls import re_path

from heat_deploy_dashboard.content import ids
from heat_deploy_dashboard.content.schedules import views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(r'^preview/$', views.PreviewView.as_view(), name='preview'),
    re_path(rf'^(?P<schedule_id>{ids.SCHEDULE_ID})/change/$', views.ChangeView.as_view(),
            name='change'),
]
