"""What a deployments table needs besides Heat's deployment rows: each run's name, read from
its derived config through the config cache (configs never change, so once read they cost
nothing on later pages and polls), and the result a server sent where Heat does not look."""

import logging

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache

LOG = logging.getLogger(__name__)


def with_run_names(request, deployments):
    configs = config_cache.get_many(request, {d.config_id for d in deployments})
    for deployment in deployments:
        config = configs.get(deployment.config_id)
        deployment.run_name = config['name'] if config else None
    return deployments


def with_result_applied(request, deployment, config):
    """The deployment after applying a result waiting for the dashboard (a Zaqar signal).

    A failure leaves the deployment as Heat showed it: the next poll tries again, and the
    page should not fail because the messaging service does.
    """
    try:
        return api.deploy.collect_result(request, deployment, config)
    except Exception:
        LOG.warning('Could not look for the result of deployment %s', deployment.id,
                    exc_info=True)
        return deployment
