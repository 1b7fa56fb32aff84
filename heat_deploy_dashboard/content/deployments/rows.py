"""What a deployments table needs besides Heat's deployment rows: each run's name, read from
its derived config through the config cache (configs never change, so once read they cost
nothing on later pages and polls)."""

from heat_deploy_dashboard import config_cache


def with_run_names(request, deployments):
    configs = config_cache.get_many(request, {d.config_id for d in deployments})
    for deployment in deployments:
        config = configs.get(deployment.config_id)
        deployment.run_name = config['name'] if config else None
    return deployments
