"""An operation's runs, found among the project's deployments by what their derived configs
say (deploy.operations): Heat lists no more than a project's deployments, whole."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content.deployments import rows
from heat_deploy_dashboard.content import directory
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard import linking


def described_runs(request):
    """(every run of the project as rows.Run, their derived configs by id). Configs that the
    runs' trigger did not cache are read for at most directory.READ_SECONDS."""
    listed = project_runs.deployments(request)
    configs = config_cache.get_many(request, {d.config_id for d in listed},
                                    seconds=directory.READ_SECONDS)
    return [rows.Run(d, configs.get(d.config_id)) for d in listed], configs


def runs_of(request, operation_id):
    """(the operation's runs, their derived configs by id, the operation, None when no run
    of it is left)."""
    described, configs = described_runs(request)
    found = [run for run in described
             if run.operation is not None and run.operation.id == operation_id]
    return found, configs, found[0].operation if found else None


def source_link(request, operation):
    """{kind, name, url} of the config an operation's runs derive from (a component, or a
    config deployed from the Configs panel), or None when it is gone or was never kept."""
    source = operation and operation.source and config_cache.get_many(
        request, [operation.source]).get(operation.source)
    if not source:
        return None
    if source.get('group') == linking.COMPONENT_GROUP:
        kind, page = _("Component"), 'horizon:project:components:detail'
    else:
        kind, page = _("Config"), 'horizon:project:configs:detail'
    return {'kind': kind, 'name': source.get('name') or operation.source,
            'url': reverse(page, args=[operation.source])}
