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

"""One request per poll for every running row of a deployments table (and, for an operation's
page, its running runs on the other pages).

Horizon's own row polling makes one request per running row and decays to 30 s. Here the page
sends the ids of all its running rows at once and gets back those that changed, freshly
rendered. Heat reads a deployment's signal from Swift only when that deployment is shown; a
row shown a moment ago whose signal object is still empty is left alone (see recheck), and the
others are shown in parallel to keep the poll short. While its shows end a burst of runs, a
poll looks again for results that arrived meanwhile and shows them too, for up to a poll
interval: Heat applies the burst as fast as it can instead of idling between polls. A row whose
server signals through Zaqar also costs one claim, and its result is applied here
(runner.collect).

The pages' pollers POST. A GET is answered too, for a person or a script looking, but it
changes nothing (run_rows.as_it_reads): no claim, no timeout recorded.
"""

from concurrent import futures
import datetime
import time

from django import http
from django.views import generic
from heatclient import exc as heat_exc

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content.deployments import live
from heat_deploy_dashboard.content.deployments import tables as project_tables
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import ids as content_ids
from heat_deploy_dashboard.content.policy import PolicyRequiredMixin
from heat_deploy_dashboard.content import recheck
from heat_deploy_dashboard.content import run_rows
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_runner.times import PAGE_POLL_SECONDS

# A page shows at most this many rows (Horizon's API_RESULT_PAGE_SIZE is smaller).
MAX_IDS = 200
PARALLEL_SHOWS = 8
# While its shows end a round of the pool's worth of runs (a burst of results), a poll looks
# again at its quiet rows for results that arrived since, and shows those too, until this
# long after it started: a burst of 180 results otherwise left Heat idle between polls, and
# the page showed the last of them 2.6 s after Heat alone would have applied it (bench
# fleets). Results that come a few at a time get their reply at once, as before: looking
# again for those kept the ones found first waiting for the reply (signal to screen p95 on
# the stock servers 2.8 and 3.0 s, where it was 2.2 and 2.5). The page still polls once a
# PAGE_POLL_SECONDS, start to start.
RESULTS_WINDOW_SECONDS = PAGE_POLL_SECONDS
BURST = PARALLEL_SHOWS
# The tables whose rows a poll renders again, by the name the page sends.
TABLES = {table._meta.name: table for table in (project_tables.DeploymentsTable,
                                                project_tables.OperationRunsTable)}


def _show(request, deployment_id):
    try:
        return api.heat.deployment_get(request, deployment_id)
    except heat_exc.HTTPNotFound:
        return None


def _quiet(request, ids, pool):
    """(The ids of running rows that need no show in Heat this time, {id: derived config} of
    those looked at): of those a cheap look may answer (recheck.may_look_at), the quiet ones;
    and when a look found a result, the rows come due that a look finds quiet too, so that
    the results are shown first and the rechecks wait for a poll without any (they stay
    due)."""
    lookable, due = recheck.may_look_at(request, ids)
    configs = config_cache.get_many(request, set(lookable.values()) | set(due.values()))
    rows = {each: configs[config_id] for each, config_id in {**lookable, **due}.items()
            if config_id in configs}

    def looked(some):
        return recheck.quiet(request, {each: rows[each] for each in some if each in rows},
                             pool.map)
    quiet = looked(lookable)
    if due and len(quiet) < len(lookable):
        quiet |= looked(due)
    return quiet, rows


def _shown_in_heat(request, ids, pool):
    """(The ids shown in Heat, each as shown (None: gone), the quiet ids, {id: derived config}
    of those looked at): those a look found quiet are left as they are (_quiet); while the
    shows end BURST runs or more, those that arrived since are shown too, until
    RESULTS_WINDOW_SECONDS after the start."""
    started = time.monotonic()
    quiet, looked = _quiet(request, ids, pool)
    to_show = [each for each in ids if each not in quiet]
    shown = list(pool.map(lambda each: _show(request, each), to_show))
    this_time = shown
    while (quiet and _ended(this_time) >= BURST
           and time.monotonic() - started < RESULTS_WINDOW_SECONDS):
        arrived = sorted(quiet - recheck.quiet(
            request, {each: looked[each] for each in quiet}, pool.map, fresh=True))
        if not arrived:
            break
        quiet -= set(arrived)
        to_show += arrived
        this_time = list(pool.map(lambda each: _show(request, each), arrived))
        shown += this_time
    return to_show, shown, quiet, looked


def _ended(shown):
    return sum(d is not None and d.status != 'IN_PROGRESS' for d in shown)


def _shown(deployment):
    status = run_tables.shown_status(deployment)
    return {'status': status, 'label': run_tables.status_word(status)}


class StatusView(PolicyRequiredMixin, generic.View):
    policy_rules = (("orchestration", "software_deployments:show"),)

    def get(self, request):
        return self._rows(request, request.GET, write=False)

    def post(self, request):
        # The pollers POST: a hundred ids would not fit in a request line.
        return self._rows(request, request.POST, write=True)

    def _rows(self, request, sent, write):
        """``sent``: the ids of the page's running rows ("id"), rendered again when they
        changed, and of running runs on the table's other pages ("elsewhere"), whose
        statuses alone are sent back (an operation's counts)."""
        rendered = set(sent.getlist('id'))
        requested = list(dict.fromkeys(sent.getlist('id') + sent.getlist('elsewhere')))[
            :MAX_IDS]
        table_name = sent.get('table')
        # What cannot be a deployment's id is gone without asking Heat.
        ids = [each for each in requested if content_ids.is_heat_id(each)]
        malformed = [each for each in requested if each not in ids]
        try:
            with futures.ThreadPoolExecutor(PARALLEL_SHOWS) as pool:
                to_show, shown, quiet, looked = _shown_in_heat(request, ids, pool)
                # The page listed these rows with their configs, so this is a cache hit.
                configs = config_cache.get_many(
                    request, {d.config_id for d in shown if d and d.status == 'IN_PROGRESS'})
                shown = list(pool.map(
                    lambda d: d and run_rows.refreshed(
                        request, d.described(configs.get(d.config_id)), write),
                    shown))
        except Exception:
            # The page says so and keeps retrying; Horizon's own poller would go silent.
            return http.JsonResponse({'error': errors.poll_failed(request)}, status=503)
        recheck.remember_shown(request, shown)
        found = run_rows.described(request, [d for d in shown if d is not None])
        table = TABLES.get(table_name, project_tables.DeploymentsTable)(
            request, data=[d for d in found if d.id in rendered])
        # The quiet rows are left as the page shows them: still running.
        running = [d.id for d in found if d.status == 'IN_PROGRESS'] + sorted(quiet)
        reply = {
            'rows': {row.datum.id: row.render() for row in table.get_rows()},
            'gone': malformed + [each for each, d in zip(to_show, shown) if d is None],
            'running': running,
            # For pages that show a run's status without its row (the components map).
            'statuses': {d.id: _shown(d) for d in found},
            'checked_at': datetime.datetime.now(datetime.timezone.utc).isoformat(),
        }
        configs = {**looked, **{d.id: d.config for d in found if d.config}}
        running_configs = {each: configs[each] for each in running if each in configs}
        reply.update(live.polled(request, sent, running_configs, rendered,
                                 table_name == project_tables.OperationRunsTable._meta.name))
        return http.JsonResponse(reply)
