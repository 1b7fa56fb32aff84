from django.urls import re_path

from heat_deploy_dashboard.content.components import views
from heat_deploy_dashboard.content import ids
from heat_deploy_dashboard.content.run_action import views as run_views

urlpatterns = [
    re_path(r'^$', views.IndexView.as_view(), name='index'),
    re_path(rf'^(?P<component_id>{ids.HEAT_ID})/$',
            views.DetailView.as_view(), name='detail'),
    re_path(rf'^(?P<component_id>{ids.HEAT_ID})/run/$',
            run_views.RunActionView.as_view(), name='run'),
    re_path(rf'^stacks/(?P<stack_id>{ids.HEAT_ID})/$',
            views.StackMapView.as_view(), name='stack'),
]
