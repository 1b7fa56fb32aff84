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

"""An operation's runs, found among the project's deployments by what their input values say
(runner.running.operations): Heat lists no more than a project's deployments, whole, and a listing
tells each run's operation without a config read."""

import dataclasses
import logging

from django import http
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from openstack_dashboard.api import base

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import project_runs
import heat_deploy_runner as runner
from heat_deploy_runner.components import linking
from heat_deploy_runner.pruning import archive

LOG = logging.getLogger(__name__)


def described_runs(request, runs):
    """(the runs with their derived configs, the configs by id). Configs that the runs'
    trigger did not cache are read for at most directory.READ_SECONDS."""
    configs = config_cache.get_many(request, {run.config_id for run in runs},
                                    seconds=directory.READ_SECONDS)
    return [run.described(configs.get(run.config_id)) for run in runs], configs


# An operation page reads at most this many of its archived runs.
ARCHIVED_SHOWN = 100


def runs_of(request, operation_id, archived_at_most=ARCHIVED_SHOWN):
    """(the operation's runs, their derived configs by id, the operation, None when no run
    of it is left, whether its archived runs could not be read): those in Heat, then those
    retention archived (runner.pruning.archive), read from the project's Object Storage where the
    catalog has it."""
    described, configs = described_runs(
        request, [run for run in project_runs.deployments(request)
                  if run.operation and run.operation.id == operation_id])
    archived = archived_runs(request, operation_id, archived_at_most)
    if archived:
        configs.update({run.config_id: run.config for run in archived if run.config})
        described += archived
    return (described, configs, described[0].operation if described else None,
            archived is None)


@dataclasses.dataclass(frozen=True)
class Found:
    """An operation as its page shows it."""

    operation: runner.Operation
    runs: list  # those in Heat, then those archived, each with its derived config
    configs: dict  # the runs' derived configs by id
    # The Mistral execution that runs it in batches or follows it (api.mistral.Execution),
    # where Mistral was asked and answered.
    execution: object = None
    # Whether its archived runs could not be read (the page says so).
    archive_failed: bool = False

    @property
    def rolling_run(self):
        """The execution when it runs the operation in batches, else None."""
        return self.execution if self.execution is not None and self.execution.rolling \
            else None


def find(request, operation_id, follower=True, redirect=None,
         archived_at_most=ARCHIVED_SHOWN):
    """The operation of this id (Found): from its runs, else from the Mistral execution that
    runs it in batches (its first runs may not be made yet); with ``follower``, Mistral is
    also asked how it follows an operation it follows. Http404 for another project's, or one
    whose runs were all deleted (its follower may still be in Mistral). A service's failure
    is said (errors.heat_failed, redirecting to ``redirect`` when given); None when the
    operation could not be found for it."""
    try:
        found, configs, operation, archive_failed = runs_of(request, operation_id,
                                                            archived_at_most)
    except Exception:
        errors.heat_failed(request, _("retrieve the operation's runs"), redirect=redirect)
        return None
    execution = None
    if operation is None or (follower and operation.followed):
        try:
            execution = (api.mistral.execution_get(request, operation_id)
                         if api.mistral.is_available(request) else None)
        except Exception:
            errors.heat_failed(
                request, _("retrieve how the workflow service follows the operation"),
                service=errors.MISTRAL, redirect=redirect)
            if operation is None:
                # Not "not found": its first runs may be on their way.
                return None
    if operation is None:
        if execution is None or not execution.rolling:
            raise http.Http404(_("No run of this operation is left: it was deleted, or it "
                                 "is not in your project."))
        asked = execution.asked
        operation = runner.Operation(execution.id, asked.started_by, execution.created_at,
                                     asked.request.config_id, runner=runner.FOLLOWED)
    return Found(operation, found, configs, execution, archive_failed)


def archived_runs(request, operation_id, at_most=ARCHIVED_SHOWN):
    """The operation's archived runs, newest first; none without Object Storage in the
    catalog; None when it fails, for the page to say so beside what Heat holds (no alarm:
    the page's own runs are shown)."""
    if not base.is_service_enabled(request, 'object-store'):
        return []
    try:
        return api.swift.archive_page(request, archive.operation_prefix(operation_id),
                                      at_most).runs
    except Exception:
        LOG.warning("Could not read operation %s's archived runs", operation_id,
                    exc_info=True)
        return None


def source_link(request, operation, run=None):
    """{id, kind, name, label, url, component} of the config an operation's runs derive
    from (a component, or a config deployed from the Configs panel), or None when it is gone
    or was never kept. ``name`` is Heat's; ``label``, what the page shows, names a component
    as the Components panel does where ``run``, one of the operation's, says so (Heat's name
    is the stack's "demo-mysql-wsddc3qmqnyi")."""
    source = operation and operation.source and config_cache.get_many(
        request, [operation.source]).get(operation.source)
    if not source:
        return None
    component = source.get('group') == linking.COMPONENT_GROUP
    if component:
        kind, page = _("Component"), 'horizon:project:components:detail'
    else:
        kind, page = _("Config"), 'horizon:project:configs:detail'
    name = source.get('name') or operation.source
    return {'id': operation.source, 'kind': kind, 'name': name,
            'label': (component and run is not None and run.named_after) or name,
            'url': reverse(page, args=[operation.source]), 'component': component}
