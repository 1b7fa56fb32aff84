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

from django.utils.translation import gettext_lazy as _
from horizon import tabs

from heat_deploy_dashboard.content.deployments import agent_polling
from heat_deploy_dashboard.content.deployments import live
from heat_deploy_dashboard.content.runs import operations
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content import server_names
from heat_deploy_dashboard.content import times
import heat_deploy_runner as runner
from heat_deploy_runner.running import runs


def exit_code_shown(run):
    """What a run's Exit Code line says: the code, or why it has none."""
    code = runs.exit_code(run)
    if code is not None:
        return code
    if run.status == 'IN_PROGRESS':
        return _("Not reported yet")
    if runner.is_cancelled(run):
        return _("No exit code: the run was cancelled before its server reported")
    return _("Not reported")


class OverviewTab(tabs.Tab):
    name = _("Overview")
    slug = "overview"
    template_name = "project/deployments/_detail_overview.html"
    policy_rules = (("orchestration", "software_deployments:show"),)

    def get_context_data(self, request):
        run = self.tab_group.kwargs['run']
        config = run.config
        operation = run.operation
        server_id = run.server_id
        outputs = runs.outputs(run)
        return {
            'deployment': run,
            'status': dict(run_tables.STATUS_DISPLAY_CHOICES).get(
                run_tables.shown_status(run), run.status),
            'server': server_names.label(server_id, server_names.names(request).get(server_id)),
            'operation': operation,
            'operation_url': operation and run_tables.operation_url(operation.id),
            'source': operations.source_link(request, operation, run),
            'status_reason': run.reason,
            'exit_code': exit_code_shown(run),
            'outputs': outputs,
            'has_output': any(output['text'] for output in outputs),
            'tail_lines': runs.TAIL_LINES,
            'outputs_tab': run_tables.OUTPUTS_TAB,
            'config': config,
            'inputs': runs.run_inputs(config) if config else [],
            'signal': runs.signal_details(config) if config else {},
            'duration': times.duration(runs.duration(run)),
            'agent_note': agent_polling.waiting_note(run),
        }


class OutputsTab(tabs.Tab):
    name = _("Outputs")
    slug = "outputs"
    template_name = "project/deployments/_detail_outputs.html"
    policy_rules = (("orchestration", "software_deployments:show"),)

    def get_context_data(self, request):
        run = self.tab_group.kwargs['run']
        late = self.tab_group.kwargs['late_result']
        # What the server sent after the cancel, read as the run it would have made.
        late_run = late and run.changed(output_values=late)
        return {
            'deployment': run,
            'exit_code': exit_code_shown(run),
            'outputs': runs.outputs(run),
            'late_result': late and {
                'status_code': runs.exit_code(late_run),
                'outputs': runs.outputs(late_run)},
            'limit_kb': runs.DISPLAY_LIMIT // 1024,
            'download_url': ('horizon:project:deployments:archived_output' if run.archived
                             else 'horizon:project:deployments:output'),
            'shows_live': live.page_state(run) == live.LIVE,
            'says_not_live': live.page_state(run) == live.NOT_LIVE,
            'silent_after': live.silent_after(run),
            'hook_doc': live.SCRIPT_HOOK_DOC,
        }


class DerivedConfigTab(tabs.Tab):
    name = _("Derived Config")
    slug = "config"
    template_name = "project/deployments/_detail_config.html"
    policy_rules = (("orchestration", "software_configs:show"),)

    def allowed(self, request):
        return self.tab_group.kwargs['run'].config is not None and super().allowed(request)

    def get_context_data(self, request):
        config = self.tab_group.kwargs['run'].config
        return {'config': config, 'body': runs.output_text(config.get('config'))}


class DeploymentDetailTabs(tabs.DetailTabsGroup):
    slug = "deployment_details"
    tabs = (OverviewTab, OutputsTab, DerivedConfigTab)
