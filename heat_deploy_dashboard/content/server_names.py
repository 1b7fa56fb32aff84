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

"""Servers by name: every table, title and form shows a server's name with its short id beside
it, not a bare UUID that cannot tell demo-db-1 from demo-db-2.

Heat's deployments hold server ids only; the names come from the project's stacks and Compute
servers (project_servers). Reading those costs a listing per stack, so the names are kept per
project for NAMES_SECONDS: a page pays for them at most once that often, never per row. A
server created meanwhile shows its id until then. Names are a help, not the data: when they
cannot be read, ids are shown.
"""

import logging

from django.urls import NoReverseMatch
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from horizon import tables
from horizon.utils.memoized import memoized

from heat_deploy_dashboard.content import project_servers
from heat_deploy_dashboard import spare_cache
from heat_deploy_runner.running import servers as runner_servers

LOG = logging.getLogger(__name__)

NAMES_SECONDS = 60
# Each server's name and stacks since the Run Action form chooses servers by stack.
_KEY = 'heat_deploy_dashboard:servers:2:%(project)s'
SHORT_ID = runner_servers.SHORT_ID


@memoized
def _listing(request):
    """({server id: (name, '' for none; the names of the stacks that hold it)} of the
    project's servers, whether that is all of them)."""
    key = _KEY % {'project': request.user.project_id}
    cached = spare_cache.get(key)
    if cached is not None:
        return cached, True
    try:
        found = project_servers.of_project(request)
    except Exception:
        LOG.warning("Could not read the names of the project's servers", exc_info=True)
        return {}, False
    known = {server.id: (server.name, server.stacks) for server in found.servers}
    # A listing that failed in part is not kept: the next page tries again.
    if found.complete:
        spare_cache.set_many({key: known}, NAMES_SECONDS)
    return known, found.complete


@memoized
def names(request):
    """{server id: name} of the project's servers that have a name."""
    return {server_id: name for server_id, (name, _stacks) in _listing(request)[0].items()
            if name}


@memoized
def stacks(request):
    """{server id: the names of the stacks that hold it} of the project's servers of
    stacks."""
    return {server_id: held for server_id, (_name, held) in _listing(request)[0].items()
            if held}


def missing(request, server_ids):
    """Those of the ids that are not the project's servers (gone, or never its); none when
    the servers could not all be read. A server made in the last NAMES_SECONDS may be
    among them."""
    known, complete = _listing(request)
    return [each for each in server_ids if each not in known] if complete else []


def name_of(request, server_id):
    """The server's name, or its id where nothing of the project names it."""
    return names(request).get(server_id) or server_id


def _server_url(server_id):
    try:
        return reverse('horizon:project:servers:detail', args=[server_id])
    except NoReverseMatch:
        # Heat takes any text as a server id; one with a slash, say, has no page.
        return None


def label(server_id, name):
    """A server as a table shows it: its name, linked to its page, and its short id (the whole
    id on hover); or, where nothing of the project names it, its whole id, linked, marked
    unknown. Escaped here: names and ids are whatever whoever made them typed."""
    url = _server_url(server_id)
    shown = name or server_id
    link = format_html('<a href="{}">{}</a>', url, shown) if url else format_html('{}', shown)
    # The space inside the span: Horizon's row template drops the whitespace between tags.
    if name:
        return format_html('{}<span class="text-muted" title="{}"> {}</span>',
                           link, server_id, server_id[:SHORT_ID])
    return format_html('{}<span class="text-muted"> ({})</span>', link, gettext('unknown'))


def matches(request, server_id, typed):
    """Whether a filter's text names this server: its id or its name, ignoring case."""
    wanted = typed.strip().lower()
    return wanted in (server_id.lower(), names(request).get(server_id, '').lower())


class ServerColumn(tables.Column):
    """The server of a row, by name (label). The link is the label's own: Horizon escapes
    whatever a linked cell holds."""

    def __init__(self, transform='server_id', verbose_name=_("Server"), **kwargs):
        super().__init__(transform, verbose_name=verbose_name, **kwargs)

    def get_data(self, datum):
        server_id = self.get_raw_data(datum)
        return label(server_id, names(self.table.request).get(server_id))
