"""Render every page of the installed plugin with Django's test client, in a venv that holds
the wheel and its declared dependencies only (see test_install_alone.py, which runs this).

Run with that venv's python in isolated mode (-I), from outside the repository, so that
heat_deploy_dashboard can only be the installed wheel; this file needs nothing but the
standard library and what the wheel's dependencies install (Horizon's test helpers among
them). The API seam (heat_deploy_dashboard.api.heat, .deploy, .swift, .zaqar) is replaced by
stand-ins serving the data below; a call to any other of its functions fails the page, and
Horizon's test case fails any real HTTP connection.

With RENDER_HEAT_DASHBOARD set (see panel_settings.py), heat-dashboard is enabled beside the
plugin, and its Stacks page is rendered too, its listing stood in.

Every Horizon is also asked as a user without any role: the plugin's Deploy form must refuse
them, policy checked against whatever the settings snippets registered.

Writes a JSON report to the path in RENDER_REPORT and exits non-zero unless every page
answered as it should.
"""

import copy
import hashlib
import importlib.metadata
import inspect
import json
import os
import sys
import traceback
import unittest
from unittest import mock
import uuid

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
from heatclient import exc as heat_exc  # noqa: E402
from heatclient.v1 import resources as heat_resources  # noqa: E402
from heatclient.v1 import software_configs  # noqa: E402
from heatclient.v1 import software_deployments  # noqa: E402
from heatclient.v1 import stacks as heat_stacks  # noqa: E402
import horizon  # noqa: E402
from mistralclient.api.v2 import environments  # noqa: E402
from openstack_auth import utils as auth_utils  # noqa: E402
from openstack_dashboard.test import helpers  # noqa: E402
import panel_settings  # noqa: E402

import heat_deploy_dashboard  # noqa: E402
from heat_deploy_dashboard import api  # noqa: E402
from heat_deploy_runner import archive  # noqa: E402
from heat_deploy_runner.run import Run  # noqa: E402


def heat_id(label):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, 'render-panels/' + label))


# The data: a component made by stack "demo", deployed to two servers, one of its custom
# actions run on one of them, and a plain script config.
DB_1, DB_2 = heat_id('server db-1'), heat_id('server db-2')
SCHEDULE = 'hdd-' + heat_id('schedule nightly')
STACK = {'id': heat_id('stack demo'), 'stack_name': 'demo', 'stack_status': 'CREATE_COMPLETE'}
MYSQL = {
    'id': heat_id('config mysql'), 'name': 'demo-mysql-yy352j5ma4zz', 'group': 'component',
    'creation_time': '2026-11-22T03:20:17Z',
    'config': {'configs': [
        {'actions': ['CREATE'], 'tool': 'script', 'config': '#!/bin/sh\nmkdir -p data\n'},
        {'actions': ['BACKUP'], 'tool': 'script',
         'config': '#!/bin/sh\ntar -czf "$backup_dir/b.tgz" data\n'},
    ]},
    'inputs': [
        {'name': 'backup_dir', 'type': 'String', 'default': 'backups',
         'description': 'Directory for backup archives.'},
        {'name': 'retention_days', 'type': 'Number', 'default': 7},
        {'name': 'compress', 'type': 'Boolean', 'default': True},
        {'name': 'tables', 'type': 'CommaDelimitedList', 'default': ['users', 'posts']},
        {'name': 'labels', 'type': 'Json', 'default': {'schedule': 'manual'}},
    ],
    'outputs': [{'name': 'backup_file', 'type': 'String', 'error_output': False}],
    'options': {},
}
HELLO = {
    'id': heat_id('config hello'), 'name': 'hello', 'group': 'script',
    'creation_time': '2026-11-23T10:00:00Z',
    'config': '#!/bin/sh\necho "$greeting" > "$heat_outputs_path.result"\n',
    'inputs': [{'name': 'greeting', 'type': 'String', 'default': 'hello'}],
    'outputs': [{'name': 'result', 'type': 'String', 'error_output': False}],
    'options': {'timeout': 30},
}


# One Run Action on both servers: the backup runs below.
OPERATION = {'operation': heat_id('operation backup'), 'started_by': 'test_user',
             'started_at': '2026-11-22T09:00:00Z', 'source': MYSQL['id']}


def derived(source, label, server_id, action, name=None, operation=None):
    config = copy.deepcopy(source)
    if operation:
        config['options'] = dict(config['options'], heat_deploy_dashboard=operation)
    for declared in config['inputs']:
        declared['value'] = declared.get('default')
    config['inputs'] += [
        {'name': 'deploy_server_id', 'type': 'String', 'value': server_id},
        {'name': 'deploy_action', 'type': 'String', 'value': action},
        {'name': 'deploy_signal_transport', 'type': 'String', 'value': 'NO_SIGNAL'},
    ]
    config.update(id=heat_id(label), name=name or source['name'])
    return config


DERIVED = [derived(MYSQL, 'derived db-1', DB_1, 'CREATE'),
           derived(MYSQL, 'derived db-2', DB_2, 'CREATE'),
           derived(MYSQL, 'derived backup', DB_1, 'BACKUP', name='mysql-BACKUP',
                   operation=OPERATION),
           derived(MYSQL, 'derived running', DB_2, 'BACKUP', name='mysql-BACKUP'),
           derived(MYSQL, 'derived failed', DB_2, 'BACKUP', name='mysql-BACKUP',
                   operation=OPERATION)]
CONFIGS = [MYSQL, HELLO] + DERIVED


def deployment_info(label, config, status, created, updated=None, outputs=None):
    info = {'id': heat_id(label), 'config_id': config['id'],
            'server_id': next(each['value'] for each in config['inputs']
                              if each['name'] == 'deploy_server_id'),
            # A run started here carries its operation, as its derived config does.
            'input_values': {key: value for key, value in config['options'].items()
                             if key == 'heat_deploy_dashboard'},
            'output_values': outputs,
            'action': next(each['value'] for each in config['inputs']
                           if each['name'] == 'deploy_action'),
            'status': status, 'status_reason': 'Outputs received',
            'creation_time': created}
    if updated:
        info['updated_time'] = updated
    return info


BACKUP_RUN = deployment_info(
    'run backup', DERIVED[2], 'COMPLETE', '2026-11-22T09:00:00Z', '2026-11-22T09:02:10Z',
    outputs={'deploy_stdout': 'backed up\n', 'deploy_stderr': '', 'deploy_status_code': 0,
             'backup_file': 'backups/b.tgz'})
RUNNING = deployment_info('run running', DERIVED[3], 'IN_PROGRESS', '2026-11-22T11:00:00Z')
DEPLOYMENTS = [
    deployment_info('run db-1', DERIVED[0], 'COMPLETE', '2026-11-22T03:20:17Z',
                    '2026-11-22T03:20:21Z'),
    deployment_info('run db-2', DERIVED[1], 'COMPLETE', '2026-11-22T03:20:17Z',
                    '2026-11-22T03:20:21Z'),
    BACKUP_RUN, RUNNING,
    deployment_info('run failed', DERIVED[4], 'FAILED', '2026-11-22T09:00:01Z',
                    '2026-11-22T09:00:09Z', outputs={'deploy_stdout': '',
                                                     'deploy_stderr': 'no such table\n',
                                                     'deploy_status_code': 3}),
]
TEMPLATE = {'heat_template_version': '2018-08-31',
            'resources': {'mysql': {'type': 'OS::Heat::SoftwareComponent',
                                    'properties': {'inputs': MYSQL['inputs']}}}}


def _config(config):
    return software_configs.SoftwareConfig(None, copy.deepcopy(config), loaded=True)


def _deployment(info):
    return Run.from_heat(
        software_deployments.SoftwareDeployment(None, copy.deepcopy(info), loaded=True))


# A run retention archived: the failed BACKUP on db-2, read back from the archive.
ARCHIVED = archive.run_of(archive.record(_deployment(DEPLOYMENTS[4]).described(DERIVED[4])))

# Which URL of each route to GET, by route name; a route missing here fails the run, so that
# a new page is not left out unnoticed.
ROUTES = {
    'components:index': {},
    'components:detail': {'component_id': MYSQL['id']},
    'components:run': {'component_id': MYSQL['id']},
    'components:stack': {'stack_id': STACK['id']},
    'deployments:index': {},
    'deployments:status': {'query': '?id=' + RUNNING['id']},
    'deployments:detail': {'deployment_id': BACKUP_RUN['id']},
    'deployments:rerun': {'deployment_id': BACKUP_RUN['id'],
                          'lands_on': 'horizon:project:components:run'},
    'deployments:output': {'deployment_id': BACKUP_RUN['id'], 'output_name': 'deploy_stdout'},
    'deployments:operation': {'operation_id': OPERATION['operation']},
    'deployments:operation_rerun': {'operation_id': OPERATION['operation'],
                                    'lands_on': 'horizon:project:components:run'},
    'deployments:archived_index': {},
    'deployments:archived': {'run_id': ARCHIVED.id},
    'deployments:archived_output': {'run_id': ARCHIVED.id, 'output_name': 'deploy_stderr'},
    'deployments:archived_rerun': {'run_id': ARCHIVED.id,
                                   'lands_on': 'horizon:project:components:run'},
    'servers:index': {},
    'servers:detail': {'server_id': DB_1},
    'servers:reveal_metadata': {'server_id': DB_1},
    'configs:index': {},
    'configs:create': {},
    'configs:detail': {'config_id': HELLO['id']},
    'configs:copy': {'config_id': HELLO['id']},
    'configs:delete': {'config_id': HELLO['id']},
    'configs:deploy': {'config_id': HELLO['id']},
    'schedules:index': {},
    'schedules:preview': {'query': '?pattern=0+2+*+*+*'},
    'schedules:change': {'schedule_id': SCHEDULE},
    'deployments:notices': {'kind': 'schedule', 'subject_id': SCHEDULE},
    'deployments:notice_subscribe': {'kind': 'operation',
                                     'subject_id': OPERATION['operation']},
    # A GET removes nothing: it goes to the subject's page.
    'deployments:notice_remove': {'kind': 'operation', 'subject_id': OPERATION['operation'],
                                  'subscription_id': '5f0c2a7b1d4c3e9f601a2b3c',
                                  'lands_on': 'horizon:project:deployments:operation'},
}


def schedule_record_get(request, name):
    return environments.Environment(None, {
        'name': name, 'project_id': request.user.project_id, 'variables': {
            'component_id': MYSQL['id'], 'component_name': 'mysql', 'run_name': 'mysql',
            'action': 'BACKUP', 'server_ids': [DB_1], 'input_values': {'retention_days': 14},
            'transport': 'TEMP_URL_SIGNAL', 'timeout_minutes': 60, 'batch_size': 0,
            'max_failures': 0, 'pattern': '0 2 * * *', 'once_at': None, 'owner': 'test_user',
            'paused': False}})


def _found_archived(run_id):
    if run_id != ARCHIVED.id:
        raise LookupError(run_id)
    return ARCHIVED


def _find(items, item_id, what):
    for item in items:
        if item['id'] == item_id:
            return item
    raise heat_exc.HTTPNotFound(f'{what} {item_id} not found')


def configs_list(request, limit=None, marker=None):
    rows = sorted(({key: config[key] for key in ('id', 'name', 'group', 'creation_time')}
                   for config in CONFIGS), key=lambda row: row['creation_time'], reverse=True)
    if marker:
        rows = rows[[row['id'] for row in rows].index(marker) + 1:]
    return [_config(row) for row in rows[:limit]]


def server_metadata(request, server_id):
    return [dict(copy.deepcopy(config), inputs=config['inputs'] + [
        {'name': 'deploy_password', 'type': 'String', 'value': 'stack-user-secret'}])
        for config in DERIVED if any(each['value'] == server_id for each in config['inputs'])]


def resources_list(request, stack, resource_type=None, nested_depth=0, with_detail=False):
    if resource_type != 'OS::Heat::DeployedServer':
        return []
    return [heat_resources.Resource(None, {
        'resource_name': name, 'resource_type': resource_type, 'physical_resource_id': server,
        'attributes': {'name': 'demo-' + name}}, loaded=True)
        for name, server in (('db-1', DB_1), ('db-2', DB_2))]


KEEP = object()  # the real function: it makes no call

# The stand-ins, by module and function name.
STAND_INS = {
    api.heat: {
        'deployments_list': lambda request, server_id=None: [
            _deployment(info) for info in DEPLOYMENTS
            if server_id in (None, info['server_id'])],
        'deployment_get': lambda request, deployment_id: _deployment(
            _find(DEPLOYMENTS, deployment_id, 'Software deployment')),
        'config_get': lambda request, config_id: _config(
            _find(CONFIGS, config_id, 'Software config')),
        'configs_list': configs_list,
        'foreign_config_ids': lambda request, config_ids: set(),
        'stacks_list': lambda request: [heat_stacks.Stack(None, dict(STACK), loaded=True)],
        'stack_template': lambda request, stack_name: copy.deepcopy(TEMPLATE),
        'server_metadata': server_metadata,
        'resources_list': resources_list,
    },
    api.deploy: {
        'required_service': KEEP,
        'late_result': lambda request, deployment: None,
        'may_have_result': lambda request, config: False,
        'collect_result': lambda request, run: run,
    },
    api.mistral: {
        'is_available': KEEP,
        'execution_get': lambda request, execution_id: None,
        'schedule_records': lambda request: [],
        'schedule_record_get': schedule_record_get,
        'cron_triggers_list': lambda request: [],
        'rolling_runs_list': lambda request, limit: [],
    },
    api.swift: {
        'archive_page': lambda request, prefix, size, marker=None, backwards=False: (
            archive.Page([ARCHIVED], False, False)),
        'archived_run': lambda request, run_id: _found_archived(run_id),
    },
    api.zaqar: {
        'notice_subscriptions': lambda request, subject_id: [],
    },
}


# What went wrong during the current request, though the views may have caught it: a call
# to the API seam that nothing serves, and the warnings and errors shown to the user.
TROUBLE = []


def _not_served(module, name):
    def refuse(*args, **kwargs):
        TROUBLE.append(f'{module.__name__}.{name} was called: render_panels.py serves no '
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
        for module, stand_ins in STAND_INS.items():
            for name in seam_functions(module):
                stand_in = stand_ins.get(name) or _not_served(module, name)
                if stand_in is not KEEP:
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
            spec = dict(ROUTES.get(route, {}))
            if route not in ROUTES:
                page['error'] = 'not in ROUTES of render_panels.py'
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
        url = reverse('horizon:project:configs:deploy', kwargs={'config_id': HELLO['id']})
        found = RenderTests.report['refusal'] = {'url': url}
        del TROUBLE[:]
        found['default_user'] = self.client.get(url).status_code

        with self.without_roles():
            found['roles'] = [role['name'] for role in auth_utils.get_user(None).roles]
            answers = [self.client.get(url),
                       self.client.post(url, {'server': DB_1, 'greeting': 'hi'})]
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
            STACK, stack_name='stack-beside-ours', description='A stack',
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
