import datetime

from django import http
from django.utils.translation import gettext_lazy as _
from django.views import generic
from horizon import tables

from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content.schedules import schedules
from heat_deploy_dashboard.content.schedules import tables as project_tables


class IndexView(tables.DataTableView):
    table_class = project_tables.SchedulesTable
    template_name = 'project/schedules/index.html'
    page_title = _("Schedules")

    def get_data(self):
        try:
            return schedules.listed(self.request)
        except Exception:
            return errors.list_failed(self, _("retrieve schedules"),
                                      _("The schedules could not be loaded."),
                                      service=errors.MISTRAL)


class PreviewView(PolicyRequiredMixin, generic.View):
    """The next five times a cron pattern fires, in the user's time zone: Run Action's
    schedule field shows them as the pattern is typed (schedule_preview.js)."""

    policy_rules = (("workflow", "cron_triggers:create"),)

    def get(self, request):
        pattern = request.GET.get('pattern', '').strip()
        if not schedules.valid_pattern(pattern):
            return http.JsonResponse({'error': str(schedules.BAD_PATTERN)})
        now = datetime.datetime.now(datetime.timezone.utc)
        return http.JsonResponse({'times': [project_tables.local_time(each) for each in
                                            schedules.next_times(pattern, now=now)]})
