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

"""Translations: every page of the plugin under a pseudo-translation, and the catalogues current.

The pseudo-locale is built (pseudo_language), in a temporary directory, from the committed
django.pot: every msgstr is its msgid wrapped in PSEUDO_OPEN ... PSEUDO_CLOSE, its %(name)s
and {name} placeholders untouched. Horizon's, openstack_auth's and Django's own sentences are
added the same way (from their largest catalogue), as a real language has them translated by
their projects. Each page of every panel is then rendered in that language with the unit tests'
fixtures behind the mocked API seam, and the plugin's part of it (the page's content region,
or the whole of a modal) is searched for text and attribute values that are still English:
words outside the brackets that are not the fixtures' own data (names, ids, outputs).

The catalogue templates (heat_deploy_dashboard/locale/*.pot) are extracted again into a
temporary directory with tools/extract_messages.sh, and compared with the committed ones by
msgid.
"""

import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from django.conf import settings
from django.test.utils import override_settings
from django.urls import reverse
from django.utils import timezone as django_timezone
from django.utils import translation

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import times
from heat_deploy_runner.following import notices
from heat_deploy_runner.pruning import archive
from tests.unit import components_data as data
from tests.unit import configs_case
from tests.unit import helpers
from tests.unit import operation_data
from tests.unit.pseudo_language import build_pseudo_locale
from tests.unit.pseudo_language import Data
from tests.unit.pseudo_language import english_in
from tests.unit.pseudo_language import english_words
from tests.unit.pseudo_language import EXTRACT
from tests.unit.pseudo_language import fixture_data
from tests.unit.pseudo_language import LOCALE
from tests.unit.pseudo_language import PSEUDO
from tests.unit.pseudo_language import pseudo
from tests.unit.pseudo_language import PSEUDO_CLOSE
from tests.unit.pseudo_language import PSEUDO_OPEN
from tests.unit.pseudo_language import read_catalogue
from tests.unit import servers_data
from tests.unit import test_archived_runs
from tests.unit import test_config_deploy
from tests.unit import test_data
from tests.unit import test_schedules

# --- The pages --------------------------------------------------------------------------

OPERATION_ID = operation_data.OPERATION.id
FAILED_RUN = '3e3e3e3e-0000-4000-8000-00000000000f'
# mysql's BACKUP on the first db server again, failed, with outputs.
FAILED = dict(data.DEPLOYMENTS[0], id=FAILED_RUN, config_id=data.DERIVED[3]['id'],
              action='BACKUP', status='FAILED', creation_time='2026-11-22T05:00:00Z',
              updated_time='2026-11-22T05:01:02Z',
              status_reason='deploy_status_code : Deployment exited with non-zero status '
                            'code: 3',
              output_values={'deploy_stdout': 'dumping\nstill dumping\n',
                             'deploy_stderr': 'disk full\n', 'deploy_status_code': 3})
SCHEDULE_NAME = test_schedules.NAME

# Where the pages' data comes from: the strings shown as they are.
FIXTURE_MODULES = (data, servers_data, test_data, operation_data, configs_case,
                   test_archived_runs, test_schedules, test_config_deploy, sys.modules[__name__])

MOCKS = {
    api.heat: ('configs_list', 'config_get', 'deployments_list', 'deployment_get',
               'stacks_list', 'stack_template', 'resources_list', 'server_metadata'),
    api.deploy: ('may_have_results',),
    api.swift: ('archive_page', 'archived_run'),
    api.mistral: ('schedule_records', 'schedule_record_get', 'cron_triggers_list',
                  'rolling_runs_list', 'execution_get'),
    api.zaqar: ('notice_subscriptions',),
}


def pages():
    """(name, url, whether Horizon's JavaScript asks for it as a part): every page."""
    def url(name, *args, **kwargs):
        return reverse('horizon:project:' + name, args=args, kwargs=kwargs or None)

    component, config = data.MYSQL_ID, configs_case.HELLO_ID
    run = data.DEPLOYMENTS[0]['id']
    running = data.DEPLOYMENTS[3]['id']
    return [
        ('components index', url('components:index'), False),
        ('component detail', url('components:detail', component), False),
        ('component map tab', url('components:detail', component) + '?tab=component_details'
         '__map', False),
        ('run action form', url('components:run', component), True),
        ('run action page', url('components:run', component), False),
        ('stack map', url('components:stack', data.STACK_ID), False),
        ('configs index', url('configs:index'), False),
        ('config detail', url('configs:detail', config), False),
        ('component config detail', url('configs:detail', component), False),
        ('create config', url('configs:create'), True),
        ('copy config', url('configs:copy', config), True),
        ('delete config', url('configs:delete', config), True),
        ('deploy config', url('configs:deploy', config), True),
        ('deployments index', url('deployments:index'), False),
        ('deployment detail', url('deployments:detail', run), False),
        ('running deployment detail', url('deployments:detail', running), False),
        ('failed deployment detail', url('deployments:detail', FAILED_RUN), False),
        ('diff', url('deployments:diff', FAILED_RUN) + '?other=' + run, False),
        ('operation', url('deployments:operation', OPERATION_ID), False),
        ('operation results', url('deployments:operation_results', OPERATION_ID), False),
        ('operation results, a search', url('deployments:operation_results', OPERATION_ID)
         + '?search=dumping', False),
        ('archived index', url('deployments:archived_index'), False),
        ('archived run', url('deployments:archived', test_archived_runs.RUN_ID), False),
        ('notices', url('deployments:notices', kind='operation', subject_id=OPERATION_ID),
         False),
        ('subscribe', url('deployments:notice_subscribe', kind='operation',
                          subject_id=OPERATION_ID), True),
        ('schedules index', url('schedules:index'), False),
        ('change schedule', url('schedules:change', SCHEDULE_NAME), True),
        ('servers index', url('servers:index'), False),
        ('server detail', url('servers:detail', data.DB_1), False),
        ('server results', url('servers:results', data.DB_1), False),
        ('server metadata', url('servers:detail', data.DB_1) + '?tab=server_details__metadata',
         False),
        ('reveal metadata', url('servers:reveal_metadata', data.DB_1), True),
    ]


class PseudoTranslationTests(helpers.TestCase):
    """Every page of the plugin, in a language where every sentence the plugin marked reads
    between brackets."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.locale_dir = tempfile.mkdtemp(prefix='hdd-pseudo-')
        cls.addClassCleanup(shutil.rmtree, cls.locale_dir, True)
        build_pseudo_locale(cls.locale_dir)

    def setUp(self):
        super().setUp()
        test_data.with_workflows(self)
        test_data.with_messaging(self)
        languages = list(settings.LANGUAGES) + [(PSEUDO, 'Pseudo')]
        overridden = override_settings(LANGUAGES=languages, LOCALE_PATHS=[self.locale_dir])
        overridden.enable()
        self.addCleanup(overridden.disable)
        self.client.cookies[settings.LANGUAGE_COOKIE_NAME] = PSEUDO
        self.addCleanup(translation.deactivate)

    def _serve(self):
        self.mock_configs_list.return_value = data.summaries(configs_case.CONFIGS)
        configs = {c['id']: c for c in configs_case.CONFIGS}
        demo_get = data.config_getter(configs_case.CONFIGS)

        def config_get(request, config_id):
            if config_id in configs:
                return demo_get(request, config_id)
            if config_id == test_archived_runs.CONFIG['id']:
                return configs_case.resource(test_archived_runs.CONFIG)
            return operation_data.config_get(request, config_id)

        self.mock_config_get.side_effect = config_get
        runs = data.deployments(data.DEPLOYMENTS + [FAILED]) + operation_data.runs()
        self.mock_deployments_list.return_value = runs
        self.mock_deployment_get.side_effect = lambda request, run_id: next(
            run for run in runs if run.id == run_id)
        self.mock_stacks_list.return_value = data.stack_list()
        self.mock_stack_template.return_value = dict(data.STACK_TEMPLATE)
        self.mock_resources_list.return_value = data.resource_list()
        self.mock_may_have_results.return_value = set()
        self.mock_server_metadata.return_value = servers_data.metadata()
        self.mock_archive_page.return_value = archive.Page([test_archived_runs.ARCHIVED],
                                                           False, False)
        self.mock_archived_run.return_value = test_archived_runs.ARCHIVED
        record = test_schedules.record()
        self.mock_schedule_records.return_value = [record]
        self.mock_schedule_record_get.return_value = record.variables
        self.mock_cron_triggers_list.return_value = [test_schedules.trigger()]
        self.mock_rolling_runs_list.return_value = [test_schedules.execution()]
        self.mock_execution_get.side_effect = LookupError('no execution')
        self.mock_notice_subscriptions.return_value = [
            notices.Subscription('5f0c2a7b1d4c3e9f601a2b3c', OPERATION_ID,
                                 notices.ON_FAILURE, 'https://hooks.example.com/ops')]

    @helpers.create_mocks(MOCKS)
    def test_every_page_reads_in_the_pseudo_language(self):
        self._serve()
        fixtures = fixture_data(*FIXTURE_MODULES)
        left = {}
        for name, url, part in pages():
            with self.subTest(name):
                headers = {'HTTP_X_REQUESTED_WITH': 'XMLHttpRequest'} if part else {}
                res = self.client.get(url, **headers)
                self.assertEqual(200, res.status_code, name)
                content = res.content.decode()
                self.assertIn(PSEUDO_OPEN, content, f'{name}: nothing translated at all')
                found = english_in(content, part, fixtures)
                if found:
                    left[name] = found
        self.assertEqual({}, left, 'English left on the pages:\n' + '\n'.join(
            f'{name}: {where} {text!r} ({" ".join(words)})'
            for name, found in left.items() for where, text, words in found))

    @helpers.create_mocks(MOCKS)
    def test_what_the_scripts_are_sent_reads_in_the_pseudo_language(self):
        """The live status poll's rows and status words (deployment_poller.js, stack_map.js)
        and the schedule field's preview (schedule_preview.js)."""
        self._serve()
        fixtures = fixture_data(*FIXTURE_MODULES)
        status_url = reverse('horizon:project:deployments:status')
        asked = [data.DEPLOYMENTS[3]['id'], FAILED_RUN, data.DEPLOYMENTS[0]['id']]
        left = []
        for table in ('deployments', 'operation'):
            reply = json.loads(self.client.post(status_url, {'id': asked, 'table': table})
                               .content)
            self.assertTrue(reply['rows'], reply)
            for run_id, row in reply['rows'].items():
                left += english_in(row, True, fixtures)
            for shown in reply['statuses'].values():
                self.assertIn(PSEUDO_OPEN, shown['label'])
        preview = json.loads(self.client.get(reverse('horizon:project:schedules:preview'),
                                             {'pattern': 'not a pattern'}).content)
        self.assertTrue(preview['error'].startswith(PSEUDO_OPEN), preview)
        self.assertEqual([], left)

    def test_durations_and_counts_are_translated(self):
        with translation.override(PSEUDO):
            self.assertEqual(pseudo('1h 02m 03s'), times.duration(datetime.timedelta(
                hours=1, minutes=2, seconds=3)))
            self.assertEqual(pseudo('2m 05s'), times.duration(datetime.timedelta(seconds=125)))
            self.assertEqual(pseudo('4s'), times.duration(datetime.timedelta(seconds=4)))
            self.assertEqual(pseudo('%s ago') % pseudo('1\xa0minute'),
                             str(times.since(django_timezone.now()
                                             - datetime.timedelta(seconds=61))).split('>')[1]
                             .split('<')[0])


class CatalogueTests(unittest.TestCase):

    def test_the_catalogue_templates_are_current(self):
        with tempfile.TemporaryDirectory(prefix='hdd-pot-') as fresh:
            subprocess.run(['sh', EXTRACT, '--no-location', fresh], check=True,
                           capture_output=True, env=dict(
                               os.environ, PYBABEL=os.path.join(
                                   os.path.dirname(sys.executable), 'pybabel')))
            for domain in ('django', 'djangojs'):
                with self.subTest(domain):
                    committed, extracted = (
                        {m.id for m in read_catalogue(os.path.join(where, domain + '.pot'))}
                        for where in (LOCALE, fresh))
                    self.assertEqual(
                        (set(), set()), (extracted - committed, committed - extracted),
                        f'heat_deploy_dashboard/locale/{domain}.pot is not current '
                        '(new sentences, then sentences gone): run make messages')


class EnglishWordsTests(unittest.TestCase):
    """The scanner itself."""

    def test_only_unbracketed_words_that_are_not_data(self):
        none = Data(set(), set())
        self.assertEqual(([], 0), english_words(pseudo('Run an action'), none))
        self.assertEqual(([], 0), english_words(pseudo('On %s') % pseudo('Server'), none))
        self.assertEqual((['Checking'], 0), english_words('Checking ' + pseudo('x'), none))
        self.assertEqual(([], 0), english_words('mysql-BACKUP 2m 05s demo-db-1 BACKUP', none))
        self.assertEqual(([], 0), english_words('backups', Data(set(), {'backups'})))
        # A fixture's sentence, and a translated one after it.
        self.assertEqual(([], 0), english_words('Tables to include. ' + pseudo('Separate them.'),
                                                Data({'Tables to include.'}, set())))
        # A sentence holding an element: its brackets open in one text, close in another.
        self.assertEqual(([], 1), english_words(PSEUDO_OPEN + 'Delete the config', none))
        self.assertEqual(([], 0), english_words('? It cannot be undone.' + PSEUDO_CLOSE,
                                                none, 1))

    def test_the_plugins_part_of_a_page(self):
        page = ('<title>Run</title><div id="header">Log out</div><div id="content_body">'
                '<p title="Open it">\u27e6Delete <strong>x</strong>?\u27e7</p>'
                '<pre class="hdd-cli-command"><code>openstack software run show</code></pre>'
                '<br><input type="submit" value="Go"></div><div>Help</div>')
        found = english_in(page, False, Data(set(), set()))
        self.assertEqual([['Run'], ['Open', 'it'], ['Go']], [words for _, _, words in found])
