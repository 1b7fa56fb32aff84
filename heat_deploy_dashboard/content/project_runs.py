"""The deployments of the project the user is working in.

Heat lists every project's deployments to an admin (software_deployment_get_all drops its
project filter for context.is_admin), and a deployment does not say whose it is. Its config
does: Heat's config listing gives an admin each config's project. So for an admin the
deployments of other projects' configs are left out; anyone else gets Heat's listing as it is,
at no extra call.
"""

from heat_deploy_dashboard import api
from heat_deploy_dashboard.deploy.derived import as_dict


def deployments(request, server_id=None):
    found = api.heat.deployments_list(request, server_id=server_id)
    if not request.user.is_superuser:
        return found
    return of_this_project(request, found, api.heat.configs_list(request))


def of_this_project(request, deployments, config_rows):
    """The deployments (heatclient resources) whose config is not another project's, by the
    rows of a config listing."""
    project = request.user.project_id
    theirs = {row['id'] for row in map(as_dict, config_rows)
              if row.get('project', project) != project}
    return [d for d in deployments if d.config_id not in theirs]
