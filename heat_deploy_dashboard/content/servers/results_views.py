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

"""A server's results: every run of it, archived ones too (runs.results)."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from horizon.utils import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content.runs import operations
from heat_deploy_dashboard.content.runs import results
from heat_deploy_dashboard.content import server_names
from heat_deploy_runner.pruning import archive


class ServerResults(PolicyRequiredMixin):
    """The results of every run of one server, archived ones too (its history)."""

    policy_rules = (("orchestration", "software_deployments:index"),
                    ("orchestration", "software_configs:show"))

    @memoized.memoized_method
    def results(self):
        server_id = self.kwargs['server_id']
        try:
            found, _configs = operations.described_runs(
                self.request, project_runs.deployments(self.request, server_id=server_id))
        except Exception:
            errors.heat_failed(self.request, _("retrieve this server's runs"),
                               redirect=reverse('horizon:project:servers:index'))
        try:
            found += api.swift.archive_page(self.request, archive.server_prefix(server_id),
                                            archive.RESULTS_READ).runs
        except Exception:
            errors.heat_failed(self.request, _("retrieve this server's archived runs"),
                               service=errors.SWIFT)
        return results.filtered_results(self.request, found)

    def subject(self):
        server_id = self.kwargs['server_id']
        return {'title': _("Results of server %(name)s") % {
                    'name': server_names.name_of(self.request, server_id)},
                'back_url': reverse('horizon:project:servers:detail', args=[server_id]),
                'back_text': _("Back to the server"),
                'empty': _("Heat lists no deployments on this server, and the project's "
                           "archive holds none of its runs."),
                'downloads': results.downloads('horizon:project:servers:results_download',
                                               server_id)}


class ServerResultsView(ServerResults, results.ResultsPage):
    pass


class ServerResultsDownloadView(ServerResults, results.ResultsDownload):
    pass
