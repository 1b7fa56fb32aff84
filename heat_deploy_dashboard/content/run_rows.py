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

"""What a deployments table needs besides Heat's rows: each run's derived config (see
heat_deploy_runner.running.run), read through the config cache (configs never change, so once read
they cost nothing on later pages and polls), the result a server sent where Heat does not
look, and the timeout Heat does not enforce.

A page that is read (a GET) changes nothing: it shows a run past its deadline as timed out,
and leaves a waiting Zaqar result where it is. The status poll (a POST) records both in Heat
for a run nothing else follows; a run Mistral follows (runner.FOLLOWED) is its to settle,
unless it is still running well past its deadline (settled_here).
"""

from concurrent import futures
import datetime
import logging

from heatclient import exc as heat_exc

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content import recheck
import heat_deploy_runner as runner

LOG = logging.getLogger(__name__)

# A page looks again at no more running rows than a status poll does, this many at a time.
MAX_RUNNING = 200
PARALLEL_LOOKS = 8
# A followed run still running this long past its deadline has lost its follower (Mistral
# down, or the token it acts with expired first): the status poll records its timeout.
FOLLOWER_GRACE = datetime.timedelta(minutes=2)


def described(request, runs):
    """The runs with their derived configs, read through the cache."""
    configs = config_cache.get_many(request, {run.config_id for run in runs})
    return [run.described(configs.get(run.config_id)) for run in runs]


def with_result_applied(request, run):
    """The run (with its derived config) settled as Mistral's wait settles it
    (runner.settle): a waiting Zaqar result applied, and past its deadline recorded FAILED
    as timed out."""
    return runner.settle(run, lambda each: api.deploy.collect_result(request, each),
                         lambda each: api.deploy.expire_deployment(request, each))


def as_it_reads(run):
    """The run (with its derived config) as a page that changes nothing shows it: timed
    out if it still runs past its deadline (runner.as_timed_out)."""
    if run.config is None or not runner.is_overdue(run):
        return run
    return runner.as_timed_out(run)


def settled_here(run, now=None):
    """Whether the status poll settles the run (with its derived config): one nothing else
    follows, or whose follower is overdue."""
    if not (run.operation and run.operation.followed):
        return True
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return run.deadline is not None and now >= run.deadline + FOLLOWER_GRACE


def refreshed(request, run, write):
    """The run just shown in Heat (with its derived config): settled (with_result_applied)
    when ``write`` and it is the page's to settle (settled_here), else as_it_reads."""
    if write and settled_here(run):
        return with_result_applied(request, run)
    return as_it_reads(run)


def _shown(request, run):
    """The listed running run (with its derived config) as Heat shows it now, as a page that
    changes nothing reads it; None once gone. Heat's listing is its database as it was: a
    TempURL result is read only when the run is shown, and nothing else times a run out (a
    Zaqar result waits for the status poll, which claims it)."""
    try:
        return refreshed(request, api.heat.deployment_get(request, run.id).described(run.config),
                         write=False)
    except heat_exc.HTTPNotFound:
        return None
    except Exception:
        # The listing is still the best there is; the page must not fail for a look.
        LOG.warning('Could not look again at deployment %s', run.id, exc_info=True)
        return run


def as_they_are(request, deployments, configs=None):
    """The listed runs, their running ones looked at again, so that a page without the
    status poll shows what has happened since (a result arrived while nobody watched, a
    timeout passed); gone ones are left out. A quiet run (recheck.quiet) is as listed.
    ``configs``: the derived configs by id the caller has read already; a running one not
    among them stays as listed.
    """
    running = [d for d in deployments if d.status == 'IN_PROGRESS'][:MAX_RUNNING]
    if not running:
        return deployments
    if configs is None:
        configs = config_cache.get_many(request, {d.config_id for d in running})
    running = [d.described(configs[d.config_id]) for d in running if d.config_id in configs]
    with futures.ThreadPoolExecutor(PARALLEL_LOOKS) as pool:
        try:
            quiet = recheck.quiet(request, {run.id: run.config for run in running}, pool.map)
        except runner.NotAnswering:
            # Where results arrive does not answer: Heat's shows would wait on it too, and
            # the listing is the best there is.
            return deployments
        to_show = [run for run in running if run.id not in quiet]
        now = dict(zip([run.id for run in to_show],
                       pool.map(lambda run: _shown(request, run), to_show)))
    return [each for each in (now.get(d.id, d) for d in deployments) if each is not None]
