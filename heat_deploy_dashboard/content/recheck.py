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

"""Which running rows a status poll must show in Heat, and which a cheaper look can answer.

Heat reads a TempURL run's result only when the run is shown, and a show costs Heat a database
read and a Swift GET through its few API workers: with a dozen running rows a poll took over a
second, and a result that arrived meanwhile waited that much longer to be seen. A HEAD of the
run's signal object costs Swift a few milliseconds, and one listing of a submit's signal
container tells of all its runs (runner.may_have_results). So a running row that was shown in
Heat in the last RECHECK_SECONDS, and whose transport finds nothing sent yet, is not shown
again; every running row is still shown in Heat at least that often, for what changes it
elsewhere (a cancel in another browser, a stack update); a cancel made here is seen at once
(forget).

With many running rows, "at least that often" came due for all of them at once: at 200 running
rows a poll every ten seconds showed all 200 in Heat and took 6 to 7 s, and the results that
arrived meanwhile waited for it. So a poll shows at most RECHECKS_PER_POLL of the rows come due
(those shown longest ago) and looks cheaply at the others, which stay due: 200 rows are all shown
again within 40 s, and no poll carries more than one round of the pool's shows for them.

A poll whose looks found a result shows those first: the rows come due are looked at too and,
quiet, left due for the next poll (status._quiet). At 200 running rows, a result otherwise
waited for its poll's eight rechecks' shows through Heat's two API workers.

A page that lists running runs notes them too (remember_listed), as due: its first poll had
none of them kept and showed every one in Heat, 200 shows and 13 to 19 s at 200 running rows,
while the page said "Checking..." and the results that arrived waited. Listed, they are due at
once; the poll shows RECHECKS_PER_POLL of them and looks cheaply at the others.

A look that found nothing also serves every other page of the project that polls the same run
in the next LOOK_SECONDS: twenty users watching the same twenty runs made Swift answer some 270
HEADs a second, most of two cores, and the one more user's page waited behind them. A single
page polls every 1.5 s, so it never reuses its own look: a result is seen as soon as before.
"""

import datetime
import time

from heat_deploy_dashboard import api
from heat_deploy_dashboard import spare_cache
import heat_deploy_runner as runner

RECHECK_SECONDS = 10
# One round of the status poll's parallel shows (status.PARALLEL_SHOWS).
RECHECKS_PER_POLL = 8
# How long a running row's config id (and when it was shown) is kept: well past the time a
# poll takes to come round to every row due (RECHECKS_PER_POLL a poll).
_SHOWN_KEPT_SECONDS = 300
LOOK_SECONDS = 0.75
# The cache counts whole seconds; the look's own time says whether it is recent enough.
_LOOK_KEPT_SECONDS = 2

# Per project, like the config cache: {deployment id: [its config id, when it was shown
# running]}; and when its signal was last looked at and held nothing.
_KEY = 'heat_deploy_dashboard:shown-running:%(project)s:%(deployment)s'
_LOOKED_KEY = 'heat_deploy_dashboard:looked-quiet:%(project)s:%(deployment)s'


def _keys(request, deployment_ids, key=_KEY):
    project = request.user.project_id
    return {key % {'project': project, 'deployment': each}: each for each in deployment_ids}


def may_look_at(request, deployment_ids):
    """({deployment id: config id} of the running rows a cheap look may answer this time,
    the same of those to be shown in Heat as due): those shown running in the last
    RECHECK_SECONDS, and of those shown earlier all but the RECHECKS_PER_POLL shown longest
    ago, which are due. A row never shown running is shown in Heat."""
    keys = _keys(request, deployment_ids)
    # A worker still on the previous release kept a bare config id here: such a row counts
    # as never shown, one show in Heat, until the upgrade is done.
    kept = {keys[key]: value for key, value in spare_cache.get_many(list(keys)).items()
            if isinstance(value, (list, tuple)) and len(value) == 2}
    now = time.time()
    due = sorted((each for each, (_config_id, shown_at) in kept.items()
                  if now - shown_at >= RECHECK_SECONDS), key=lambda each: kept[each][1])
    shown_now = set(due[:RECHECKS_PER_POLL])
    return ({each: config_id for each, (config_id, _shown_at) in kept.items()
             if each not in shown_now},
            {each: kept[each][0] for each in shown_now})


def remember_shown(request, deployments):
    """Note the deployments just shown in Heat that are still running."""
    running = [d for d in deployments if d is not None and d.status == 'IN_PROGRESS']
    keys = _keys(request, [d.id for d in running])
    now = time.time()
    shown = {d.id: [d.config_id, now] for d in running}
    spare_cache.set_many({key: shown[each] for key, each in keys.items()}, _SHOWN_KEPT_SECONDS)


def remember_listed(request, runs):
    """Note the running runs a page listed that no poll has shown yet: their config ids, so
    that a look may answer for them, as due (shown long ago)."""
    running = {d.id: d for d in runs if d.status == 'IN_PROGRESS'}
    keys = _keys(request, running)
    kept = spare_cache.get_many(list(keys))
    spare_cache.set_many({key: [running[each].config_id, 0] for key, each in keys.items()
                          if key not in kept}, _SHOWN_KEPT_SECONDS)


def recently_looked(request, deployment_ids):
    """Those whose signal was looked at in the last LOOK_SECONDS and held nothing."""
    keys = _keys(request, deployment_ids, _LOOKED_KEY)
    now = time.time()
    return {keys[key] for key, when in spare_cache.get_many(list(keys)).items()
            if now - when < LOOK_SECONDS}


def remember_looked(request, deployment_ids):
    """Note that these deployments' signals were just looked at and held nothing."""
    now = time.time()
    spare_cache.set_many({key: now for key in _keys(request, deployment_ids, _LOOKED_KEY)},
                         _LOOK_KEPT_SECONDS)


def quiet(request, running, map_=map, fresh=False):
    """The ids of running runs a Heat show would tell nothing new of, for every page that
    looks again at running runs (the status poll, a listing read as it is). ``running``:
    {run id: its derived config}. A run before its deadline whose signal a page of the project
    looked at a moment ago (unless ``fresh``: a poll looking again for what arrived during
    it), or whose signal holds nothing now (a look, with ``map_``: the caller's pool's map, to
    look at many at once), is quiet; past its deadline, only Heat can record its timeout."""
    now = datetime.datetime.now(datetime.timezone.utc)
    before_deadline = [each for each, config in running.items()
                       if _before_its_deadline(config, now)]
    looked = set() if fresh else recently_looked(request, before_deadline)
    to_look = {each: running[each] for each in before_deadline if each not in looked}
    nothing = set()
    if to_look:
        nothing = set(to_look) - api.deploy.may_have_results(request, to_look, map_)
    remember_looked(request, nothing)
    return looked | nothing


def _before_its_deadline(config, now):
    deadline = runner.deadline(config)
    return deadline is None or now < deadline


def forget(request, deployment_id):
    """The next poll shows this deployment in Heat (the dashboard has just changed it)."""
    spare_cache.delete_many(list(_keys(request, [deployment_id]))
                            + list(_keys(request, [deployment_id], _LOOKED_KEY)))
