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

"""What the scope suite and the bad-input corpus share: a logged-in user that logs in again
when Horizon sent it to the login page, what a page tells its user (toasts, form errors, its
title), and the demo project's Heat and Swift state, counted before and after each case."""

import contextlib
import dataclasses
import hashlib
import html
import json
import re

from heatclient import exc as heat_exc
from swiftclient import exceptions as swift_exc

from devcloud.services import identity
from tests.integration import dashboard

# How a page says that an object is not there (or not the user's).
NOT_FOUND_WORDS = ('does not exist', 'not found', 'no longer exist', 'not in your project',
                   'no such', 'page not found', 'no match returned')
# How a page blames a service for what was only a request it could not serve.
BLAME_WORDS = ('could not be reached', 'ask your cloud administrator to check',
               'answered with an error', 'service unavailable')


class User(dashboard.Dashboard):
    """A dashboard session that logs in again whenever a request ended on the login page
    (Horizon logs a user out on some refusals), so that one case cannot spoil the next."""

    def __init__(self, base_url, username, password):
        super().__init__(base_url)
        self.username, self.password = username, password
        self.logins = 0
        self._logging_in = False
        self.login(username, password)

    def login(self, username, password):
        self._logging_in = True
        try:
            self.logins += 1
            return super().login(username, password)
        finally:
            self._logging_in = False

    def login_again(self):
        """A new login: a new token, with the project's catalog as it is now."""
        self.http.cookies.clear()
        self.login(self.username, self.password)

    def checked(self, response):
        if not self._logging_in and ('/auth/login/' in response.url
                                     or '/auth/logout/' in response.url):
            self.login_again()
        return response

    def get(self, path, **kwargs):
        return self.checked(super().get(path, **kwargs))

    def post(self, path, data, **kwargs):
        return self.checked(super().post(path, data, **kwargs))

    def request(self, method, path, data=None, **kwargs):
        if method == 'GET':
            return self.get(path, **kwargs)
        return self.post(path, data or {}, **kwargs)


@contextlib.contextmanager
def catalog_without(layout, user, project_id, service_type):
    """Within it, the project's catalog lacks the service, as on a cloud without it: its
    endpoints are the others (Keystone's endpoint filter), for ``user`` logged in again; as
    it was after."""
    admin = identity.admin_session(layout)
    keystone = {'endpoint_filter': {'service_type': 'identity', 'interface': 'public'}}
    types = {each['id']: each['type']
             for each in admin.get('/services', **keystone).json()['services']}
    kept = [each['id'] for each in admin.get('/endpoints', **keystone).json()['endpoints']
            if types[each['service_id']] != service_type]
    path = f'/OS-EP-FILTER/projects/{project_id}/endpoints/'
    try:
        for endpoint in kept:
            admin.put(path + endpoint, **keystone)
        user.login_again()
        yield
    finally:
        for endpoint in kept:
            admin.delete(path + endpoint, raise_exc=False, **keystone)
        user.login_again()


def _text(fragment):
    return html.unescape(re.sub(r'<[^>]+>|\s+', ' ', fragment)).strip()


def alerts(page):
    """(level, text) of every Horizon toast and alert box on a page (the JS templates left
    out)."""
    found = re.findall(r'<div class="alert alert-(danger|warning|info|success)([^"]*)"[^>]*>'
                       r'(.*?)</div>', page, re.S)
    return [(level, _text(body)) for level, classes, body in found
            if '{{' not in body and 'javascript-disabled' not in classes]


def form_errors(page):
    """The field errors of a Horizon form on the page."""
    return [_text(each) for each in
            re.findall(r'<span class="help-block[^"]*">(.*?)</span>', page, re.S)]


def forms_of(text):
    """The ways a text can appear in a page: as it is, HTML-escaped, JSON-escaped."""
    return {text, html.escape(text), html.escape(text, quote=False),
            json.dumps(text)[1:-1], html.escape(json.dumps(text)[1:-1])}


def appears(text, page):
    return any(each in page for each in forms_of(text))


def title(page):
    found = re.search(r'<title>(.*?)</title>', page, re.S)
    return _text(found.group(1)) if found else ''


def describe(response, limit=300):
    """One line about a response for an assertion message: status, redirects, where it
    ended, its title, its toasts, its form errors, and the start of a non-HTML body."""
    page = response.text
    parts = [f'HTTP {response.status_code}']
    if response.history:
        parts.append('after ' + ' -> '.join(
            f'{r.status_code} {r.headers.get("Location", "")}' for r in response.history))
    parts.append(f'at {response.url}')
    kind = response.headers.get('Content-Type', '')
    if 'html' in kind:
        parts.append(f'title {title(page)!r}')
        if alerts(page):
            parts.append(f'alerts {alerts(page)}')
        if form_errors(page):
            parts.append(f'form errors {form_errors(page)}')
    else:
        parts.append(f'body {page[:limit]!r}')
    return '; '.join(parts)[:2000]


def says_not_found(response):
    words = [text.lower() for _level, text in alerts(response.text)]
    words.append(title(response.text).lower())
    return any(word in each for each in words for word in NOT_FOUND_WORDS)


def blames_a_service(response):
    texts = ' '.join(text for _level, text in alerts(response.text)).lower()
    if 'json' in response.headers.get('Content-Type', ''):
        texts += ' ' + response.text.lower()
    return any(word in texts for word in BLAME_WORDS)


@dataclasses.dataclass(frozen=True)
class State:
    """What a project holds: deployment ids, config ids, Swift container names, and in
    Mistral its schedules (trigger and environment names) and rolling runs (execution ids)."""
    deployments: frozenset
    configs: frozenset
    containers: frozenset
    schedules: frozenset = frozenset()
    rolling_runs: frozenset = frozenset()

    def changes(self, after):
        """{what: (added, removed)} for every part that differs."""
        found = {}
        for field in dataclasses.fields(self):
            old, new = getattr(self, field.name), getattr(after, field.name)
            if old != new:
                found[field.name] = (sorted(new - old), sorted(old - new))
        return found


def all_configs(heat):
    """Every config id Heat lists to this client (Heat pages its listing)."""
    found, marker = [], None
    while True:
        page = heat.software_configs.list(limit=1000, marker=marker)
        found += [each.id for each in page]
        if len(page) < 1000:
            return frozenset(found)
        marker = page[-1].id


def _digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:12]


def state(heat, swift=None, mistral=None):
    containers = frozenset()
    if swift is not None:
        containers = frozenset(c['name'] for c in swift.get_account(full_listing=True)[1])
    schedules = rolling_runs = frozenset()
    if mistral is not None:
        # With what each holds, so that a schedule changed shows as one removed and one made.
        schedules = frozenset(
            [f'environment {each.name} {_digest(each.variables)}'
             for each in mistral.environments.list()]
            + [f'trigger {each.name} {_digest([each.pattern, each.workflow_input])}'
               for each in mistral.cron_triggers.list()])
        rolling_runs = frozenset(each.id for each in mistral.executions.list(limit=1000))
    return State(frozenset(d.id for d in heat.software_deployments.list()),
                 all_configs(heat), containers, schedules, rolling_runs)


def undo(heat, swift, before, after, mistral=None):
    """Remove what appeared between two states (deployments first: Heat keeps a config
    while a deployment uses it; a schedule's trigger before its record); never anything that
    was there before."""
    if mistral is not None:
        there = {each.split(' ')[1] for each in before.schedules}
        for made in sorted(after.schedules - before.schedules, reverse=True):
            kind, name, _held = made.split(' ')
            if name in there:
                continue  # changed, not made: the case's report says so
            manager = mistral.cron_triggers if kind == 'trigger' else mistral.environments
            try:
                manager.delete(name)
            except Exception:
                pass  # gone with the other of the pair
    for deployment_id in after.deployments - before.deployments:
        try:
            heat.software_deployments.delete(deployment_id)
        except heat_exc.HTTPNotFound:
            pass
    for config_id in after.configs - before.configs:
        try:
            heat.software_configs.delete(config_id)
        except heat_exc.HTTPNotFound:
            pass
    if swift is not None:
        for container in after.containers - before.containers:
            try:
                for each in swift.get_container(container, full_listing=True)[1]:
                    swift.delete_object(container, each['name'])
                swift.delete_container(container)
            except swift_exc.ClientException:
                pass
