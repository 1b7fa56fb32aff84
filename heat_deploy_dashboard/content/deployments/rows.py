"""What a deployments table needs besides Heat's deployment rows: each run's name, read from
its derived config through the config cache (configs never change, so once read they cost
nothing on later pages and polls), the result a server sent where Heat does not look, and the
timeout Heat does not enforce."""

import logging

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard import deploy

LOG = logging.getLogger(__name__)


def with_run_names(request, deployments):
    configs = config_cache.get_many(request, {d.config_id for d in deployments})
    for deployment in deployments:
        config = configs.get(deployment.config_id)
        deployment.run_name = config['name'] if config else None
    return deployments


def with_result_applied(request, deployment, config):
    """The deployment after applying a result waiting for the dashboard (a Zaqar signal), and
    marked FAILED as timed out if it still runs past its deadline (deploy.expire).

    A failure leaves the deployment as Heat showed it: the next poll tries again, and the
    page should not fail because the messaging service does. A run whose result could not be
    looked for is not timed out: its result may be waiting.
    """
    try:
        deployment = api.deploy.collect_result(request, deployment, config)
    except Exception:
        LOG.warning('Could not look for the result of deployment %s', deployment.id,
                    exc_info=True)
        return deployment
    # Checked here first, with no call: only a run past its deadline costs a Heat call.
    if not deploy.is_overdue(deployment, config):
        return deployment
    try:
        return api.deploy.expire_deployment(request, deployment, config)
    except Exception:
        LOG.warning('Could not mark deployment %s as timed out', deployment.id,
                    exc_info=True)
        return deployment
