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
