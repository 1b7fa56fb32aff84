"""Notices' URLs, under the Deployments panel's (deployments/urls.py includes them): the
subject's kind, and its id (a component's config id, a schedule's name, an operation id)."""

from django.urls import re_path

from heat_deploy_dashboard.content.notices import subjects
from heat_deploy_dashboard.content.notices import views

_SUBJECT = (rf'^(?P<kind>{"|".join(subjects.KINDS)})/'
            rf'(?P<subject_id>{subjects.SUBJECT_ID})/')

urlpatterns = [
    re_path(_SUBJECT + r'$', views.NoticesView.as_view(), name='notices'),
    re_path(_SUBJECT + r'subscribe/$', views.SubscribeView.as_view(),
            name='notice_subscribe'),
    re_path(_SUBJECT + rf'(?P<subscription_id>{subjects.SUBSCRIPTION_ID})/remove/$',
            views.UnsubscribeView.as_view(), name='notice_remove'),
]
