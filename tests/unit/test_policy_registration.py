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

"""The settings snippet's registration of the policy scopes the panels check ("orchestration",
"workflow"), and the policy files it registers (heat_deploy_dashboard/conf/).

The shipped defaults are compared with Heat's and Mistral's policy-in-code in the venv
(openstack-heat and mistral, pinned by constraints.txt). After a bump this fails until the files
are regenerated, from the repository's root:

    DJANGO_SETTINGS_MODULE=tests.unit.settings .venv/bin/python -c '
    import django; django.setup()
    from tests.unit import test_policy_registration as t; t.write_shipped_files()'

which rewrites them below their header comments (check the headers' release numbers).
"""

import os
import pathlib
import re
import tempfile
import types
from unittest import mock

from django.test import RequestFactory
from django.test import SimpleTestCase
from django.test.utils import override_settings
from heat.policies import base as heat_base
from heat.policies import software_configs as heat_software_configs
from heat.policies import software_deployments as heat_software_deployments
from mistral.policies import base as mistral_base
from mistral.policies import cron_trigger as mistral_cron_trigger
from openstack_auth import policy
from openstack_auth import user as auth_user
from openstack_auth import utils as auth_utils
from openstack_dashboard.management.commands import dump_default_policies
from oslo_policy import generator
import yaml

import heat_deploy_dashboard

PACKAGE = pathlib.Path(heat_deploy_dashboard.__file__).resolve().parent
SNIPPET = PACKAGE / 'local_settings.d' / '_1799_heat_deploy_dashboard_settings.py'
OUR_POLICY = str(PACKAGE / 'conf' / 'heat_policy.yaml')
OUR_DEFAULTS = str(PACKAGE / 'conf' / 'default_policies' / 'heat.yaml')
OUR_MISTRAL_POLICY = str(PACKAGE / 'conf' / 'mistral_policy.yaml')
OUR_MISTRAL_DEFAULTS = str(PACKAGE / 'conf' / 'default_policies' / 'mistral.yaml')

# heat-dashboard's _1699 settings file registers these, relative to POLICY_FILES_PATH, and
# leaves copying its conf/ files there to the operator.
HEAT_DASHBOARD_POLICY = 'heat_policy.yaml'
HEAT_DASHBOARD_DEFAULTS = 'default_policies/heat.yaml'

# What Horizon's own settings register: the snippet leaves it alone.
HORIZON_POLICY_FILES = {'identity': 'keystone_policy.yaml', 'compute': 'nova_policy.yaml'}
HORIZON_DEFAULT_POLICY_FILES = {'identity': 'default_policies/keystone.yaml',
                                'compute': 'default_policies/nova.yaml'}

PROJECT, OTHER_PROJECT = 'p-1', 'p-2'


def heat_rules():
    """Heat's own rules for what the dashboard ships: its base rules and every
    software_configs:* and software_deployments:* rule, in Heat's order."""
    return [*heat_base.list_rules(), *heat_software_configs.list_rules(),
            *heat_software_deployments.list_rules()]


def mistral_rules():
    """Mistral's own rules for what the Schedules panel checks: its base rules and every
    cron_triggers:* rule, in Mistral's order."""
    return [*mistral_base.list_rules(), *mistral_cron_trigger.list_rules()]


# scope: (the service's rules, our overrides file, our defaults file)
SHIPPED = {'orchestration': (heat_rules, OUR_POLICY, OUR_DEFAULTS),
           'workflow': (mistral_rules, OUR_MISTRAL_POLICY, OUR_MISTRAL_DEFAULTS)}


def _header(path):
    """The comment lines a shipped file starts with, up to its first blank line or rule."""
    header = []
    for line in pathlib.Path(path).read_text(encoding='utf-8').splitlines(keepends=True):
        if not line.startswith('#') or line.startswith('#"'):
            break
        header.append(line)
    return ''.join(header)


def write_shipped_files():
    """Rewrite the shipped files from Heat's and Mistral's code, keeping their header
    comments."""
    for rules_of, overrides, defaults in SHIPPED.values():
        rules = rules_of()
        dumped = yaml.dump([dump_default_policies._format_default_policy(r) for r in rules])
        pathlib.Path(defaults).write_text(_header(defaults) + dumped, encoding='utf-8')
        sample = ''.join(generator._format_rule_default_yaml(r) for r in rules)
        pathlib.Path(overrides).write_text(_header(overrides) + '\n' + sample,
                                           encoding='utf-8')


def checked_pairs():
    """Every (scope, rule) pair written in the package's code."""
    pair = re.compile(r'''\(\s*["']([a-z-]+)["']\s*,\s*["']([a-z_]+:[^"']+)["']\s*\)''')
    found = set()
    for path in PACKAGE.rglob('*.py'):
        found.update(pair.findall(path.read_text(encoding='utf-8')))
    return found


def panel_rules(scope='orchestration'):
    """Every rule of ``scope`` the package's code checks."""
    return {rule for checked_scope, rule in checked_pairs() if checked_scope == scope}


def referenced_rules(check_str):
    return set(re.findall(r'\brule:([^\s()]+)', check_str or ''))


def run_snippet(policy_files=None, default_policy_files=None, base_path='/nonexistent'):
    """Execute the settings snippet as Horizon does, against these settings; they come back
    as the snippet left them."""
    settings = types.SimpleNamespace(
        POLICY_FILES_PATH=base_path,
        POLICY_FILES=dict(HORIZON_POLICY_FILES, **(policy_files or {})),
        DEFAULT_POLICY_FILES=dict(HORIZON_DEFAULT_POLICY_FILES, **(default_policy_files or {})))
    code = compile(SNIPPET.read_text(encoding='utf-8'), str(SNIPPET), 'exec')
    # Horizon's settings module, which defines MIDDLEWARE before it runs the snippets.
    module = {'__name__': 'openstack_dashboard.settings',
              'MIDDLEWARE': ('horizon.middleware.HorizonMiddleware',)}
    with mock.patch('django.conf.settings', settings):
        exec(code, module)  # noqa: S102
    settings.MIDDLEWARE = module['MIDDLEWARE']
    return settings


def make_user(*roles, project=PROJECT):
    return auth_user.User(
        id='u-1', user='alice', token=None, project_id=project, project_name='demo',
        roles=[{'id': name, 'name': name} for name in roles], enabled=True,
        user_domain_id='default', user_domain_name='Default', domain_id='default')


class SnippetTests(SimpleTestCase):

    def test_adds_the_middleware_that_names_keystone_after_horizons(self):
        self.assertEqual(('horizon.middleware.HorizonMiddleware',
                          'heat_deploy_dashboard.middleware.IdentityUnreachableMiddleware'),
                         run_snippet().MIDDLEWARE)

    def setUp(self):
        super().setUp()
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.conf = tmp.name

    def copy_heat_dashboard_files(self, policy=True, defaults=True):
        """Do what heat-dashboard's install guide asks: its conf/ files into
        POLICY_FILES_PATH (any content: the snippet only looks whether they are there)."""
        os.makedirs(os.path.join(self.conf, 'default_policies'))
        if policy:
            pathlib.Path(self.conf, HEAT_DASHBOARD_POLICY).write_text('{}\n')
        if defaults:
            pathlib.Path(self.conf, HEAT_DASHBOARD_DEFAULTS).write_text('[]\n')

    def heat_dashboard_registration(self):
        return run_snippet({'orchestration': HEAT_DASHBOARD_POLICY},
                           {'orchestration': HEAT_DASHBOARD_DEFAULTS}, base_path=self.conf)

    def test_without_a_registration_it_registers_ours(self):
        with self.assertNoLogs('heat_deploy_dashboard'):
            settings = run_snippet(base_path=self.conf)

        self.assertEqual(dict(HORIZON_POLICY_FILES, orchestration=OUR_POLICY,
                              workflow=OUR_MISTRAL_POLICY), settings.POLICY_FILES)
        self.assertEqual(dict(HORIZON_DEFAULT_POLICY_FILES, orchestration=OUR_DEFAULTS,
                              workflow=OUR_MISTRAL_DEFAULTS), settings.DEFAULT_POLICY_FILES)

    def test_every_scope_the_panels_check_is_registered_with_files_that_exist(self):
        # openstack_auth allows every rule of a scope it has no files for.
        settings = run_snippet(base_path=self.conf)
        scopes = {scope for scope, _rule in checked_pairs()}

        self.assertLessEqual({'orchestration', 'workflow'}, scopes)
        for scope in sorted(scopes):
            with self.subTest(scope=scope):
                for files in (settings.POLICY_FILES, settings.DEFAULT_POLICY_FILES):
                    self.assertTrue(os.path.isfile(
                        os.path.join(settings.POLICY_FILES_PATH, files[scope])))

    def test_a_registration_whose_files_exist_is_kept(self):
        self.copy_heat_dashboard_files()

        with self.assertNoLogs('heat_deploy_dashboard'):
            settings = self.heat_dashboard_registration()

        self.assertEqual(HEAT_DASHBOARD_POLICY, settings.POLICY_FILES['orchestration'])
        self.assertEqual(HEAT_DASHBOARD_DEFAULTS,
                         settings.DEFAULT_POLICY_FILES['orchestration'])

    def test_absolute_names_are_kept_when_their_files_exist(self):
        self.copy_heat_dashboard_files()
        policy_file = os.path.join(self.conf, HEAT_DASHBOARD_POLICY)
        defaults_file = os.path.join(self.conf, HEAT_DASHBOARD_DEFAULTS)

        # POLICY_FILES_PATH does not matter for an absolute name, as in openstack_auth.
        settings = run_snippet({'orchestration': policy_file},
                               {'orchestration': defaults_file}, base_path='/nonexistent')

        self.assertEqual(policy_file, settings.POLICY_FILES['orchestration'])
        self.assertEqual(defaults_file, settings.DEFAULT_POLICY_FILES['orchestration'])

    def test_a_registration_whose_files_do_not_exist_is_replaced_by_ours(self):
        with self.assertLogs('heat_deploy_dashboard', 'WARNING') as logs:
            settings = self.heat_dashboard_registration()

        self.assertEqual(OUR_POLICY, settings.POLICY_FILES['orchestration'])
        self.assertEqual(OUR_DEFAULTS, settings.DEFAULT_POLICY_FILES['orchestration'])
        self.assertEqual(2, len(logs.records))
        self.assertIn(os.path.join(self.conf, HEAT_DASHBOARD_DEFAULTS), logs.output[1])
        # Horizon's own services are left as they were.
        self.assertEqual(HORIZON_POLICY_FILES['identity'], settings.POLICY_FILES['identity'])

    def test_each_file_is_kept_or_replaced_on_its_own(self):
        # The operator copied heat-dashboard's overrides but not its defaults: the overrides
        # stay, over our defaults, as oslo.policy puts a policy file over any defaults.
        self.copy_heat_dashboard_files(defaults=False)

        settings = self.heat_dashboard_registration()

        self.assertEqual(HEAT_DASHBOARD_POLICY, settings.POLICY_FILES['orchestration'])
        self.assertEqual(OUR_DEFAULTS, settings.DEFAULT_POLICY_FILES['orchestration'])

    def test_a_directory_is_no_policy_file(self):
        os.makedirs(os.path.join(self.conf, HEAT_DASHBOARD_POLICY))

        settings = run_snippet({'orchestration': HEAT_DASHBOARD_POLICY}, base_path=self.conf)

        self.assertEqual(OUR_POLICY, settings.POLICY_FILES['orchestration'])


class PolicyCheckCase(SimpleTestCase):
    """openstack_auth's own check, over the policy files given to use_files()."""

    def setUp(self):
        super().setUp()
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        self.addCleanup(policy.reset)

    def use_files(self, settings):
        """Check against the registration a run_snippet() left."""
        overridden = override_settings(POLICY_FILES=settings.POLICY_FILES,
                                       DEFAULT_POLICY_FILES=settings.DEFAULT_POLICY_FILES)
        overridden.enable()
        self.addCleanup(overridden.disable)
        # openstack_auth read POLICY_FILES_PATH once, when it was imported.
        base_path = mock.patch.object(policy, '_BASE_PATH', settings.POLICY_FILES_PATH)
        base_path.start()
        self.addCleanup(base_path.stop)
        policy.reset()

    def allowed(self, rule, user, target=None, scope='orchestration'):
        request = RequestFactory().get('/')
        request.session = {}
        with mock.patch.object(auth_utils, 'get_user', return_value=user):
            return policy.check(((scope, rule),), request, target=target)


class HalfInstalledHeatDashboardTests(PolicyCheckCase):
    """heat-dashboard's settings file enabled without its policy files copied."""

    def setUp(self):
        super().setUp()
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.conf = tmp.name

    def test_without_the_snippet_every_check_would_pass(self):
        # Why the snippet does not keep such a registration: openstack_auth finds no rules
        # and allows everything, to a user without any role too.
        self.use_files(types.SimpleNamespace(
            POLICY_FILES_PATH=self.conf,
            POLICY_FILES={'orchestration': HEAT_DASHBOARD_POLICY},
            DEFAULT_POLICY_FILES={'orchestration': HEAT_DASHBOARD_DEFAULTS}))

        with self.assertLogs('openstack_auth.policy', 'WARNING'):
            self.assertTrue(self.allowed('software_deployments:create', make_user()))

    def test_with_the_snippet_our_rules_apply(self):
        with self.assertLogs('heat_deploy_dashboard', 'WARNING'):
            settings = run_snippet({'orchestration': HEAT_DASHBOARD_POLICY},
                                   {'orchestration': HEAT_DASHBOARD_DEFAULTS},
                                   base_path=self.conf)
        self.use_files(settings)

        self.assertFalse(self.allowed('software_deployments:create', make_user()))
        self.assertTrue(self.allowed('software_deployments:create',
                                     make_user('member', 'reader')))


class ShippedPolicyTests(PolicyCheckCase):

    def setUp(self):
        super().setUp()
        self.use_files(run_snippet())
        with open(OUR_DEFAULTS, encoding='utf-8') as f:
            self.defaults = yaml.safe_load(f)
        self.names = {each['name'] for each in self.defaults}

    def test_every_rule_the_panels_check_is_shipped(self):
        used = panel_rules()

        # The regular expression finds them all: at least these.
        self.assertLessEqual({'software_configs:index', 'software_configs:show',
                              'software_configs:create', 'software_configs:delete',
                              'software_deployments:index', 'software_deployments:show',
                              'software_deployments:create', 'software_deployments:update',
                              'software_deployments:delete', 'software_deployments:metadata'},
                             used)
        self.assertLessEqual(used, self.names)

    def test_the_defaults_are_heats_own(self):
        expected = [dump_default_policies._format_default_policy(r) for r in heat_rules()]

        self.assertEqual(expected, self.defaults)

    def test_every_rule_a_rule_refers_to_is_in_the_same_file(self):
        for each in self.defaults:
            for check_str in (each['check_str'],
                              (each.get('deprecated_rule') or {}).get('check_str')):
                with self.subTest(rule=each['name'], check_str=check_str):
                    self.assertLessEqual(referenced_rules(check_str), self.names)

    def test_the_overrides_file_overrides_nothing_and_shows_every_default(self):
        text = pathlib.Path(OUR_POLICY).read_text(encoding='utf-8')

        self.assertIsNone(yaml.safe_load(text))
        for each in self.defaults:
            with self.subTest(rule=each['name']):
                self.assertIn(f'#"{each["name"]}": "{each["check_str"]}"', text)

    def test_openstack_auth_loads_every_shipped_rule(self):
        enforcer = policy._get_enforcer()['orchestration']

        self.assertLessEqual(self.names, set(enforcer.rules))

    def test_a_member_of_the_project_passes_every_rule_the_panels_check(self):
        member = make_user('member', 'reader')

        for rule in sorted(panel_rules()):
            with self.subTest(rule=rule):
                self.assertTrue(self.allowed(rule, member))
                # Not for another project's objects.
                self.assertFalse(self.allowed(rule, member, {'project_id': OTHER_PROJECT}))

    def test_a_user_without_roles_passes_none(self):
        nobody = make_user()

        for rule in sorted(panel_rules()):
            with self.subTest(rule=rule):
                self.assertFalse(self.allowed(rule, nobody))

    def test_a_reader_may_look_but_not_change(self):
        reader = make_user('reader')

        for rule in sorted(panel_rules()):
            with self.subTest(rule=rule):
                looks = rule.endswith((':index', ':show', ':metadata'))
                self.assertEqual(looks, self.allowed(rule, reader))

    def test_a_servers_stack_user_may_read_its_metadata_only(self):
        # Heat's deprecated default ("not role:heat_stack_user" for the others) is not
        # enforced: oslo.policy enforces the new defaults alone.
        stack_user = make_user('heat_stack_user')

        for rule in sorted(panel_rules()):
            with self.subTest(rule=rule):
                self.assertEqual(rule == 'software_deployments:metadata',
                                 self.allowed(rule, stack_user))
