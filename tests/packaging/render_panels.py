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

"""Render every page of the installed plugin with Django's test client, in a venv that holds
the wheel and its declared dependencies only (see test_install_alone.py, which runs this).

Run with that venv's python in isolated mode (-I), from outside the repository, so that
heat_deploy_dashboard can only be the installed wheel; this file needs nothing but the
standard library and what the wheel's dependencies install (Horizon's test helpers among
them). The API seam (heat_deploy_dashboard.api.heat, .deploy, .swift, .zaqar) is replaced by
the stand-ins of panel_stand_ins.py, beside this file; a call to any other of its functions
fails the page, and Horizon's test case fails any real HTTP connection.

With RENDER_HEAT_DASHBOARD set (see panel_settings.py), heat-dashboard is enabled beside the
plugin, and its Stacks page is rendered too, its listing stood in.

Every Horizon is also asked as a user without any role: the plugin's Deploy form must refuse
them, policy checked against whatever the settings snippets registered.

Writes a JSON report to the path in RENDER_REPORT and exits non-zero unless every page
answered as it should.
"""

import hashlib
import importlib.metadata
import inspect
import json
import os
import sys
import traceback
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # panel_settings only: the repository's root is never on the path
os.environ['DJANGO_SETTINGS_MODULE'] = 'panel_settings'

import django  # noqa: E402

django.setup()

from django.contrib.messages import constants as message_levels  # noqa: E402
from django.contrib.messages.storage import base as message_storage  # noqa: E402
from django.test.runner import DiscoverRunner  # noqa: E402
from django.urls import get_resolver  # noqa: E402
from django.urls import reverse  # noqa: E402
from heatclient.v1 import stacks as heat_stacks  # noqa: E402
import horizon  # noqa: E402
from openstack_auth import utils as auth_utils  # noqa: E402
from openstack_dashboard.test import helpers  # noqa: E402
import panel_settings  # noqa: E402
import panel_stand_ins  # noqa: E402

import heat_deploy_dashboard  # noqa: E402


# What went wrong during the current request, though the views may have caught it: a call
# to the API seam that nothing serves, and the warnings and errors shown to the user.
TROUBLE = []


def _not_served(module, name):
    def refuse(*args, **kwargs):
        TROUBLE.append(f'{module.__name__}.{name} was called: panel_stand_ins.py serves no '
                       'data for it (add a stand-in)')
        raise AssertionError(TROUBLE[-1])
    return refuse


_add_message = message_storage.BaseStorage.add


def _noting_warnings(storage, level, message, extra_tags=''):
    if level >= message_levels.WARNING:
        TROUBLE.append(f'message shown: {message}')
    return _add_message(storage, level, message, extra_tags)


def seam_functions(module):
    return [name for name, value in vars(module).items()
            if inspect.isfunction(value) and value.__module__ == module.__name__
            and not name.startswith('_')]


def plugin_routes():
    """{"panel:name": (route name, its URL keyword names)} for every named route of the
    plugin's panels, as Django serves them."""
    # Reading Horizon's URLs registers its dashboards and panels.
    project = get_resolver().namespace_dict['horizon'][1].namespace_dict['project'][1]
    slugs = [panel.slug for panel in horizon.get_dashboard('project').get_panels()
             if type(panel).__module__.startswith('heat_deploy_dashboard.')]
    found = {}
    for slug in slugs:
        resolver = project.namespace_dict[slug][1]
        for pattern in _named(resolver.url_patterns):
            found[f'{slug}:{pattern.name}'] = sorted(pattern.pattern.regex.groupindex)
    return slugs, found


def _named(patterns):
    """The named routes of these URL patterns, those of their include()s among them."""
    for pattern in patterns:
        if hasattr(pattern, 'url_patterns'):
            yield from _named(pattern.url_patterns)
        elif pattern.name:
            yield pattern


class RenderTests(helpers.TestCase):

    report = {}

    def _setup_test_data(self):
        super()._setup_test_data()
        # Horizon's test catalog has no orchestration service, which the panels require.
        self.service_catalog.append({
            'type': 'orchestration', 'name': 'heat', 'endpoints_links': [],
            'endpoints': [{'region': 'RegionOne', 'interface': interface,
                           'url': 'http://heat.example.com:8004/v1/1'}
                          for interface in ('admin', 'internal', 'public')]})
        # Nor Mistral, which rolling runs and the Schedules panel need.
        self.service_catalog.append({
            'type': 'workflowv2', 'name': 'mistral', 'endpoints_links': [],
            'endpoints': [{'region': 'RegionOne', 'interface': 'public',
                           'url': 'http://mistral.example.com:8989/v2'}]})
        # Nor Zaqar, which keeps the subscriptions of notices.
        self.service_catalog.append({
            'type': 'messaging', 'name': 'zaqar', 'endpoints_links': [],
            'endpoints': [{'region': 'RegionOne', 'interface': 'public',
                           'url': 'http://zaqar.example.com:8888'}]})

    def setUp(self):
        super().setUp()
        for module, stand_ins in panel_stand_ins.STAND_INS.items():
            for name in seam_functions(module):
                stand_in = stand_ins.get(name) or _not_served(module, name)
                if stand_in is not panel_stand_ins.KEEP:
                    patcher = mock.patch.object(module, name, stand_in)
                    patcher.start()
                    self.addCleanup(patcher.stop)
        for patcher in (
                # Horizon's own API: the Compute server listing offers servers to a form.
                mock.patch('openstack_dashboard.api.nova.server_list',
                           return_value=(self.servers.list(), False)),
                mock.patch.object(message_storage.BaseStorage, 'add', _noting_warnings)):
            patcher.start()
            self.addCleanup(patcher.stop)

    def test_every_page_answers_200(self):
        slugs, routes = plugin_routes()
        pages = []
        for route, keywords in sorted(routes.items()):
            page = {'route': route}
            pages.append(page)
            spec = dict(panel_stand_ins.ROUTES.get(route, {}))
            if route not in panel_stand_ins.ROUTES:
                page['error'] = 'not in ROUTES of panel_stand_ins.py'
                continue
            query = spec.pop('query', '')
            lands_on = spec.pop('lands_on', None)
            del TROUBLE[:]
            try:
                url = reverse('horizon:project:' + route, kwargs=spec) + query
                page['url'] = url
                response = self.client.get(url, follow=True)
            except Exception:
                page['error'] = traceback.format_exc()
                continue
            page['status'] = response.status_code
            page['redirects'] = [each for each, _code in response.redirect_chain]
            page['landed_on'] = response.resolver_match.view_name
            problems = list(TROUBLE)
            if response.status_code != 200:
                problems.append(response.content.decode(errors='replace')[-2000:])
            if page['landed_on'] != (lands_on or 'horizon:project:' + route):
                problems.append(f'redirected to {page["redirects"]}')
            if problems:
                page['error'] = '\n'.join(problems)
        RenderTests.report['panels'] = slugs
        RenderTests.report['pages'] = pages
        failed = [page for page in pages if 'error' in page]
        self.assertEqual([], failed)

    def without_roles(self):
        """The test user, with no role at all, while this lasts."""
        as_test_user = auth_utils.get_user

        def get_user(request):
            user = as_test_user(request)
            user.roles = []
            return user

        return mock.patch.object(auth_utils, 'get_user', get_user)

    def test_a_user_without_roles_is_refused_the_deploy_form(self):
        url = reverse('horizon:project:configs:deploy',
                      kwargs={'config_id': panel_stand_ins.HELLO['id']})
        found = RenderTests.report['refusal'] = {'url': url}
        del TROUBLE[:]
        found['default_user'] = self.client.get(url).status_code

        with self.without_roles():
            found['roles'] = [role['name'] for role in auth_utils.get_user(None).roles]
            answers = [self.client.get(url),
                       self.client.post(url, {'server': panel_stand_ins.DB_1, 'greeting': 'hi'})]
        found['no_roles'] = [answer.status_code for answer in answers]
        found['no_roles_redirects'] = [answer.get('Location') for answer in answers]
        found['trouble'] = list(TROUBLE)

        self.assertEqual(200, found['default_user'])
        self.assertEqual([], found['roles'])
        for answer in answers:
            # Horizon answers NotAuthorized with 403, or a redirect to its login page.
            self.assertTrue(answer.status_code == 403 or (
                answer.status_code == 302 and '/auth/login/' in answer['Location']),
                answer)
        self.assertEqual([], TROUBLE)

    @unittest.skipUnless(panel_settings.HEAT_DASHBOARD, 'heat-dashboard is not enabled')
    def test_heat_dashboards_stacks_page_beside_ours(self):
        from heat_dashboard import api as heat_dashboard_api

        # A name no other text on the page holds.
        stack = heat_stacks.Stack(None, dict(
            panel_stand_ins.STACK, stack_name='stack-beside-ours', description='A stack',
            stack_status_reason='Stack CREATE completed',
            creation_time='2026-11-22T03:20:00Z', updated_time=None), loaded=True)
        page = RenderTests.report['heat_dashboard_page'] = {
            'route': 'stacks:index', 'url': reverse('horizon:project:stacks:index')}
        del TROUBLE[:]
        launch = reverse('horizon:project:stacks:select_template')
        with mock.patch.object(heat_dashboard_api.heat, 'stacks_list',
                               return_value=([stack], False, False)) as stacks_list:
            with self.without_roles():
                # Its own actions, checked against whatever "orchestration" files were
                # registered: reported; test_install_alone.py asserts them where they are
                # heat-dashboard's own (Launch Stack needs a member).
                nobody = self.client.get(page['url'])
                page['offers_launch_stack_without_roles'] = (
                    launch in nobody.content.decode(errors='replace'))
            response = self.client.get(page['url'])
        page['status'] = response.status_code
        page['status_without_roles'] = nobody.status_code
        page['listing_called'] = stacks_list.call_count
        content = response.content.decode(errors='replace')
        # Both plugins' panels in the one navigation, and the stack listed.
        page['shows'] = {text: text in content for text in (
            stack.stack_name, 'Orchestration', 'Software Deployments',
            reverse('horizon:project:stacks:index'),
            reverse('horizon:project:configs:index'),
            reverse('horizon:project:deployments:index'))}
        page['offers_launch_stack'] = launch in content
        page['trouble'] = list(TROUBLE)
        if response.status_code != 200:
            page['error'] = content[-2000:]

        self.assertEqual(200, response.status_code)
        self.assertEqual(2, stacks_list.call_count)
        self.assertEqual([], [text for text, shown in page['shows'].items() if not shown])
        self.assertEqual([], TROUBLE)


def _enabled_files(package):
    folder = package.__path__[0]
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder))
            if name.startswith('_1') and name.endswith('.py')]


def _panel_files(package_name):
    return sorted({sys.modules[type(panel).__module__].__file__
                   for panel in horizon.get_dashboard('project').get_panels()
                   if type(panel).__module__.startswith(package_name + '.')})


def _digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def installed_from():
    """Where the plugins, their enabled files and panels, and the policy files come from."""
    from django.conf import settings
    import heat_deploy_dashboard.enabled as enabled

    # As openstack_auth.policy finds them: joined to POLICY_FILES_PATH (an absolute name
    # stays as it is).
    policy_files = [os.path.join(settings.POLICY_FILES_PATH, files['orchestration'])
                    for files in (settings.POLICY_FILES, settings.DEFAULT_POLICY_FILES)]
    found = {
        'prefix': sys.prefix,
        'package': heat_deploy_dashboard.__file__,
        'enabled': _enabled_files(enabled),
        'panels': _panel_files('heat_deploy_dashboard'),
        'policy_files_path': settings.POLICY_FILES_PATH,
        'policy_files': policy_files,
        'policy_files_exist': all(os.path.isfile(each) for each in policy_files),
        'policy_check_function': settings.POLICY_CHECK_FUNCTION,
        'snippets': panel_settings.SNIPPETS,
        'snippet_warnings': panel_settings.snippet_log.messages,
        'sys_path': sys.path,
        'distributions': sorted(dist.metadata['Name'] for dist in
                                importlib.metadata.distributions()),
        'heat_dashboard': None,
    }
    if panel_settings.HEAT_DASHBOARD:
        import heat_dashboard
        import heat_dashboard.enabled

        conf = os.path.join(os.path.dirname(heat_dashboard.__file__), 'conf')
        shipped = [os.path.join(conf, 'heat_policy.yaml'),
                   os.path.join(conf, 'default_policies', 'heat.yaml')]
        found['heat_dashboard'] = {
            'mode': panel_settings.HEAT_DASHBOARD,
            'package': heat_dashboard.__file__,
            'version': importlib.metadata.version('heat-dashboard'),
            'enabled': _enabled_files(heat_dashboard.enabled),
            'panels': _panel_files('heat_dashboard'),
            # The registered files are heat-dashboard's own, byte for byte.
            'policy_files_are_its_own': [
                os.path.isfile(registered) and _digest(registered) == _digest(own)
                for registered, own in zip(policy_files, shipped)],
        }
    return found


def main():
    runner = DiscoverRunner(verbosity=0, interactive=False)
    runner.setup_test_environment()
    databases = runner.setup_databases()
    try:
        result = unittest.TextTestRunner(stream=sys.stderr, verbosity=2).run(
            unittest.defaultTestLoader.loadTestsFromTestCase(RenderTests))
    finally:
        runner.teardown_databases(databases)
        runner.teardown_test_environment()
    report = dict(RenderTests.report or {}, installed=installed_from(),
                  passed=result.wasSuccessful())
    with open(os.environ['RENDER_REPORT'], 'w', encoding='utf-8') as f:
        json.dump(report, f, indent=1)
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
