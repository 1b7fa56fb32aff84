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

import datetime
import json

from django.template import loader
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from horizon import tables
from horizon import tabs
from horizon.utils import functions as horizon_utils
from horizon.utils import memoized

from heat_deploy_dashboard import api
from heat_deploy_dashboard import config_cache
from heat_deploy_dashboard.content import errors
from heat_deploy_dashboard.content import paging
from heat_deploy_dashboard.content import project_runs
from heat_deploy_dashboard.content import run_rows
from heat_deploy_dashboard.content.runs import archived_tables
from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_dashboard.content.servers import tables as project_tables
from heat_deploy_dashboard.content.servers import timeline
from heat_deploy_dashboard.content import times as content_times
from heat_deploy_runner import cli
from heat_deploy_runner import masking
from heat_deploy_runner.pruning import archive
from heat_deploy_runner.running import runs
from heat_deploy_runner import times

# What the history could not do when Heat fails it (errors.heat_failed).
_RETRIEVE_HISTORY = _("retrieve this server's software deployments")


def _timeline_run(run, name):
    start = times.parse_time(run.creation_time)
    end = None
    if run.status != 'IN_PROGRESS':
        # Heat has no end time: a finished run's last update is when its result came.
        end = times.parse_time(run.updated_time) or start
    return timeline.Span(name=name, action=run.action or '',
                         status=run_tables.shown_status(run) or '', start=start,
                         end=end, id=run.id)


def _inputs(config):
    """The inputs a run used as (name, value as text), secrets masked; None when its derived
    config is gone."""
    if config is None:
        return None
    return [(each['name'], each['value']) for each in runs.run_inputs(config)]


TIMELINE_TEMPLATE = "project/servers/_timeline.svg.html"
# What the timeline may span (?timeline=): its value, its link, how far back from now.
TIMELINE_SPANS = (('day', _("Last day"), datetime.timedelta(days=1)),
                  ('week', _("Last 7 days"), datetime.timedelta(days=7)),
                  ('month', _("Last 30 days"), datetime.timedelta(days=30)),
                  ('all', _("Every run of this page"), None))


def _timeline_span(request, shown_runs, now):
    """(the span's value, the moment it starts or None): the one asked for, else the last 7
    days when a run of the page went on in them (a stack made weeks ago would otherwise
    squeeze this week's runs into slivers at the right edge), else every run of the page."""
    spans = {value: back for value, _label, back in TIMELINE_SPANS}
    value = request.GET.get('timeline')
    if value not in spans:
        week = now - spans['week']
        value = 'week' if timeline.drawn(shown_runs, now, week) else 'all'
    return value, (None if spans[value] is None else now - spans[value])


def _span_links(request, current):
    links = []
    for value, label, _back in TIMELINE_SPANS:
        query = request.GET.copy()
        query['tab'] = 'server_details__history'
        query['timeline'] = value
        links.append({'label': label, 'url': '?' + query.urlencode(),
                      'current': value == current})
    return links


def _timeline_words():
    return timeline.Words(
        title=gettext("The runs on this server over time"),
        empty=gettext("No runs on this server yet."),
        statuses={status: str(label) for status, label in run_tables.STATUS_DISPLAY_CHOICES},
        bar=gettext("%(name)s: %(action)s, %(status)s. Started %(start)s, "
                    "took %(duration)s."),
        span=gettext("From %(start)s to %(end)s"),
        duration=content_times.duration)


class HistoryTab(tables.PagedTableMixin, tabs.TableTab):
    """The server's runs a page at a time, newest first, as the deployments list pages them:
    a page reads the derived configs of its own runs only, however long the history."""

    name = _("History")
    slug = "history"
    table_classes = (project_tables.ServerHistoryTable,)
    template_name = "project/servers/_history.html"
    policy_rules = (("orchestration", "software_deployments:index"),)

    @memoized.memoized_method
    def _history(self):
        """(the page of the server's runs asked for, newest first, their derived configs by
        id), or None when Heat could not be read."""
        try:
            found = project_runs.deployments(
                self.request, server_id=self.tab_group.kwargs['server_id'])
            # Heat's times are fixed-width UTC strings, so they sort in time order.
            found = sorted(found, key=lambda d: (d.creation_time, d.id), reverse=True)
            marker, direction = self._get_marker()
            page = paging.page_of(found, horizon_utils.get_page_size(self.request),
                                  marker, direction)
            self._has_prev_data, self._has_more_data = page.has_prev, page.has_more
            # One config lookup for the runs, their inputs and the running runs' signals.
            configs = config_cache.get_many(self.request, {d.config_id for d in page.rows})
            shown = run_rows.as_they_are(self.request, page.rows, configs)
        except Exception:
            errors.heat_failed(self.request, _RETRIEVE_HISTORY)
            return None
        return [run.described(configs.get(run.config_id)) for run in shown], configs

    def get_deployments_data(self):
        history = self._history()
        if history is None:
            # An empty table must not claim that the server has no runs.
            self._tables['deployments'].empty_reason = _(
                "This server's deployments could not be loaded.")
            return []
        return history[0]

    def get_context_data(self, request, **kwargs):
        context = super().get_context_data(request, **kwargs)
        history = self._history()
        if history is None:
            return context
        found, configs = history
        deleted = gettext("(config deleted)")
        shown_runs = [_timeline_run(run, run.name or deleted) for run in found]
        now = datetime.datetime.now(datetime.timezone.utc)
        span, since = _timeline_span(request, shown_runs, now)
        # The SVG markup, drawn by a template (autoescaped, {$ $} neutralised by Horizon)
        # from the layout computed in timeline.py.
        context['timeline'] = loader.render_to_string(TIMELINE_TEMPLATE, {
            'picture': timeline.layout(shown_runs, now=now, since=since,
                                       zone=timezone.get_current_timezone(),
                                       words=_timeline_words())})
        context['timeline_spans'] = _span_links(request, span)
        context['timeline_left_out'] = (
            len(shown_runs) - len(timeline.drawn(shown_runs, now, since)))
        context['runs'] = [{'deployment': d, 'inputs': _inputs(configs.get(d.config_id))}
                           for d in found]
        return context


class ServerArchivedTable(archived_tables.ArchivedRunsTable):
    tab = 'server_details__archived'

    class Meta(archived_tables.ArchivedRunsTable.Meta):
        verbose_name = _("Archived Runs on this Server")


class ArchivedTab(tables.PagedTableMixin, tabs.TableTab):
    """The server's runs that retention moved to the project's archive, newest first, a
    page of Swift's listing at a time."""

    name = _("Archived")
    slug = "archived"
    table_classes = (ServerArchivedTable,)
    template_name = "horizon/common/_detail_table.html"
    policy_rules = (("orchestration", "software_deployments:index"),)
    # Read from Object Storage when opened: the history does not need it.
    preload = False

    def get_archived_data(self):
        marker, direction = self._get_marker()
        try:
            found = api.swift.archive_page(
                self.request, archive.server_prefix(self.tab_group.kwargs['server_id']),
                horizon_utils.get_page_size(self.request), marker,
                backwards=direction == 'asc')
        except Exception:
            errors.heat_failed(self.request, _("retrieve this server's archived runs"),
                               service=errors.SWIFT)
            self._tables['archived'].empty_reason = _(
                "This server's archived runs could not be loaded.")
            return []
        self._has_prev_data, self._has_more_data = found.has_prev, found.has_more
        return found.runs


class MetadataTab(tabs.Tab):
    name = _("Metadata")
    slug = "metadata"
    template_name = "project/servers/_metadata.html"
    policy_rules = (("orchestration", "software_deployments:metadata"),)
    # Loaded when opened: it holds every derived config deployed to the server, scripts
    # included, and the history does not need it.
    preload = False

    def get_context_data(self, request, **kwargs):
        # Always masked. Whoever may read the metadata (this tab's rule) may read it whole,
        # as the CLI shows it, but only by confirming it in the reveal form (a POST:
        # views.RevealMetadataView), never from a link or a bookmark.
        return self.metadata_context(request, self.tab_group.kwargs['server_id'],
                                     revealed=False)

    @staticmethod
    def metadata_context(request, server_id, revealed):
        """What _metadata.html shows of the server's metadata: its secrets masked unless
        revealed."""
        context = {'server_id': server_id, 'revealed': revealed,
                   'command': cli.deployment_metadata_show(server_id)}
        try:
            metadata = api.heat.server_metadata(request, server_id)
        except Exception:
            errors.heat_failed(request, _("retrieve this server's metadata"))
            return dict(context, failed=True)
        if revealed:
            # What the person asked to see, by name, before the whole metadata they sit in.
            context['secrets'] = masking.secrets_of(metadata)
        else:
            # Signal URLs are bearer credentials and the stack user's password may be here.
            metadata = masking.mask_tree(metadata)
        return dict(context, entries=len(metadata or []),
                    metadata=json.dumps(metadata, indent=2, sort_keys=True, ensure_ascii=False))


class ServerTabs(tabs.DetailTabsGroup):
    slug = "server_details"
    tabs = (HistoryTab, ArchivedTab, MetadataTab)
