"""What a deployments table needs besides Heat's deployment rows: what each run's derived
config tells of it (Run), read through the config cache (configs never change, so once read
they cost nothing on later pages and polls), the result a server sent where Heat does not
look, and the timeout Heat does not enforce.

A page that is read (a GET) changes nothing: it shows a run past its deadline as timed out,
and leaves a waiting Zaqar result where it is. The status poll (a POST) records both in Heat.
"""

from concurrent import futures
import logging

from heatclient import exc as heat_exc

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heatclient.v1 import software_deployments
from openstack_dashboard.api import base

from heat_deploy_dashboard.content.runs import recheck
import heat_deploy_runner as deploy
from heat_deploy_runner import derived

LOG = logging.getLogger(__name__)

# A page looks again at no more running rows than a status poll does, this many at a time.
MAX_RUNNING = 200
PARALLEL_LOOKS = 8


class Run(base.APIResourceWrapper):
    """A run as the tables show it: Heat's deployment, the operation that started it
    (deploy.operations), and what its derived config tells of it (each None where the config
    is gone): its name and the moment it times out (deploy.expiry)."""

    _attrs = ['id', 'server_id', 'config_id', 'action', 'status', 'status_reason',
              'creation_time', 'updated_time', 'input_values', 'output_values']

    def __init__(self, deployment, config):
        super().__init__(deployment)
        self.run_name = config['name'] if config else None
        self.operation = deploy.operation_of_run(deployment, config)
        self.deadline = deploy.deadline(config) if config else None
        # Run Again fills in the form of what the run came from: a component (its derived
        # config keeps the component's group), or the config the Configs panel deployed.
        self.rerunnable = config is not None and (
            config.get('group') == derived.COMPONENT_GROUP
            or bool(self.operation and self.operation.source))

    def to_dict(self):
        # Heat's own keys only: reading one Heat left out would make heatclient GET the
        # deployment again.
        return derived.as_dict(self._apiresource)


def described(request, deployments):
    """The deployments as Runs, their configs read through the cache."""
    configs = config_cache.get_many(request, {d.config_id for d in deployments})
    return [Run(d, configs.get(d.config_id)) for d in deployments]


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


def as_it_reads(deployment, config):
    """The deployment as a page that changes nothing shows it: timed out if it still runs
    past its deadline (deploy.as_timed_out)."""
    if config is None or not deploy.is_overdue(deployment, config):
        return deployment
    return software_deployments.SoftwareDeployment(
        None, deploy.as_timed_out(deployment, config), loaded=True)


def refreshed(request, deployment, config, write):
    """The deployment just shown in Heat, while it runs and its derived config is known with
    its result applied (with_result_applied) when ``write``, else as_it_reads."""
    if deployment.status == 'IN_PROGRESS' and config is not None:
        deployment = (with_result_applied(request, deployment, config) if write
                      else as_it_reads(deployment, config))
    # heatclient would GET the deployment again when a table reads a key Heat left out
    # (updated_time, while running): in the middle of rendering the row, so one row could show
    # the old status in some cells and the new one in others.
    deployment.set_loaded(True)
    return deployment


def _as_it_is(request, deployment, config, looked):
    """(the listed running deployment as it is now, None once gone; whether a look at its
    signal just found nothing). Heat's listing is its database as it was: a TempURL result is
    read only when the run is shown, and nothing else times a run out (a Zaqar result waits
    for the status poll, which claims it). A run not past its deadline whose signal a page of
    the project looked at a moment ago (``looked``, see recheck), or whose signal holds
    nothing now, is as listed."""
    if config is None:
        return deployment, False
    try:
        if not deploy.is_overdue(deployment, config):
            if deployment.id in looked:
                return deployment, False
            if not api.deploy.may_have_result(request, config):
                return deployment, True
        shown = api.heat.deployment_get(request, deployment.id)
    except heat_exc.HTTPNotFound:
        return None, False
    except Exception:
        # The listing is still the best there is; the page must not fail for a look.
        LOG.warning('Could not look again at deployment %s', deployment.id, exc_info=True)
        return deployment, False
    return refreshed(request, shown, config, write=False), False


def as_they_are(request, deployments, configs=None):
    """The listed deployments, their running ones looked at again (_as_it_is), so that a
    page without the status poll shows what has happened since (a result arrived while
    nobody watched, a timeout passed); gone ones are left out. ``configs``: the derived
    configs by id the caller has read already; a running one not among them stays as listed.
    The looks are shared with the status poll's (recheck).
    """
    running = [d for d in deployments if d.status == 'IN_PROGRESS'][:MAX_RUNNING]
    if not running:
        return deployments
    if configs is None:
        configs = config_cache.get_many(request, {d.config_id for d in running})
    looked = recheck.recently_looked(request, [d.id for d in running])
    with futures.ThreadPoolExecutor(PARALLEL_LOOKS) as pool:
        found = list(pool.map(
            lambda d: _as_it_is(request, d, configs.get(d.config_id), looked), running))
    recheck.remember_looked(request, [d.id for d, (_now, nothing) in zip(running, found)
                                      if nothing])
    now = {d.id: each for d, (each, _nothing) in zip(running, found)}
    return [each for each in (now.get(d.id, d) for d in deployments) if each is not None]
