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

"""Project > Software Deployments > Servers: the servers with deployments, and each server's
history of runs, its timeline, and cancelling a run from there (its metadata:
test_server_metadata.py)."""

import datetime
import json
import re
import xml.etree.ElementTree as ET

from django.test.utils import override_settings
from django.urls import reverse
from heatclient.v1 import software_deployments
from openstack_auth import policy

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import servers_case as case
from tests.unit import servers_data as data


class ServersListTests(case.ServersTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_lists_each_server_once_with_its_counts_and_latest_run(self):
        self.serve()

        res = self.client.get(case.INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'project/servers/index.html')
        self.mock_deployments_list.assert_called_once_with(helpers.IsHttpRequest(), server_id=None)
        servers = res.context['table'].data
        # The one most recently deployed to first.
        self.assertEqual([data.DB_1, data.WEB, data.DB_2], [s.id for s in servers])
        db_1 = servers[0]
        self.assertEqual((2, 1, 1), (db_1.complete, db_1.failed, db_1.in_progress))
        self.assertEqual(data.RUNNING['id'], db_1.latest.id)
        self.assertContains(res, case.server_url(data.DB_1))
        self.assertContains(res, case.detail_url(data.RUNNING))
        self.assertContains(res, 'mysql-BACKUP')
        # Only the latest run of each server is named.
        self.assertEqual(3, self.mock_config_get.call_count)
        self.assertNoMessages()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_cancelled_run_is_counted_as_cancelled_not_failed(self):
        cancelled = dict(data.RESTORE, id='d-cancelled',
                         status_reason='Cancelled by demo at 2026-11-22T10:00:30Z')
        self.serve(infos=[data.BACKUP, data.RESTORE, cancelled])

        [db_1] = self.client.get(case.INDEX_URL).context['table'].data

        self.assertEqual((1, 1, 1, 0), (db_1.complete, db_1.failed, db_1.cancelled,
                                        db_1.in_progress))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_second_view_reads_no_config_again(self):
        self.serve()

        self.client.get(case.INDEX_URL)
        self.client.get(case.INDEX_URL)

        self.assertEqual(2, self.mock_deployments_list.call_count)
        self.assertEqual(3, self.mock_config_get.call_count)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_shows_an_empty_state_when_no_server_has_deployments(self):
        self.serve(infos=[])

        res = self.client.get(case.INDEX_URL)

        self.assertContains(res, 'No server has software deployments yet.')
        self.assertContains(res, '<a href="/project/components/">Run an action from the '
                                 'Components panel.</a>')
        self.assertNoMessages()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_explains_when_heat_cannot_be_reached_or_fails(self):
        for name, failure in case.HEAT_DOWN.items():
            with self.subTest(name):
                self.mock_deployments_list.side_effect = failure

                res = self.client.get(case.INDEX_URL)

                self.assertEqual(200, res.status_code)
                self.assertContains(res, "Unable to retrieve the servers&#x27; software "
                                         "deployments")
                self.assertContains(res, 'Servers could not be loaded.')
                self.assertNotContains(res, 'No server has software deployments yet.')
                self.assertNotContains(res, 'Run an action from the Components panel.')
                for raw in case.RAW_ERROR_TEXT:
                    self.assertNotContains(res, raw)


class ServerPageTests(case.ServersTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_lists_every_run_on_the_server_newest_first_with_inputs_and_duration(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(case.server_url())

        self.assertEqual(200, res.status_code)
        self.mock_deployments_list.assert_called_once_with(helpers.IsHttpRequest(),
                                                           server_id=data.DB_1)
        self.assertEqual([data.RUNNING['id'], data.RESTORE['id'], data.BACKUP['id'],
                          data.CREATE['id']],
                         [d.id for d in res.context['table'].data])
        for run in data.DB_1_RUNS:
            self.assertContains(res, case.detail_url(run))
        self.assertContains(res, 'mysql-RESTORE')
        self.assertContains(res, 'retention_days=14')
        self.assertContains(res, 'retention_days=7')
        self.assertContains(res, 'tables=[&quot;users&quot;, &quot;posts&quot;]')
        self.assertContains(res, 'backup_file=backups/b.tgz')
        # 09:00:00 to its last update at 09:02:10.
        self.assertContains(res, '2m 10s')
        self.assertContains(res, 'Server ' + data.DB_1)
        self.assertNoMessages()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_second_view_reads_no_config_again(self):
        self.serve(infos=data.DB_1_RUNS)

        self.client.get(case.server_url())
        self.client.get(case.server_url())

        self.assertEqual(4, self.mock_config_get.call_count)
        self.assertEqual(2, self.mock_deployments_list.call_count)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_long_history_is_paged_and_a_page_reads_its_own_runs_configs_only(self):
        # 25 older runs, a minute apart, each of its own (since deleted) config: 29 in all.
        older = [dict(data.BACKUP, id=f'00000000-0000-4000-8000-{n:012d}',
                      config_id=f'older-{n}',
                      creation_time=f'2026-11-20T{n // 60:02d}:{n % 60:02d}:00Z')
                 for n in range(25)]
        self.serve(infos=data.DB_1_RUNS + older)

        with self.settings(API_RESULT_PAGE_SIZE=10):
            first = self.client.get(case.server_url() + '?timeline=all')
            shown = [d.id for d in first.context['table'].data]
            reads = self.mock_config_get.call_count
            last = self.client.get(case.server_url() + '?marker=' + shown[-1])

        self.assertEqual(10, len(shown))
        self.assertEqual(data.RUNNING['id'], shown[0])
        # The configs of the page's 10 runs, not of the other 19.
        self.assertEqual(10, reads)
        self.assertContains(first, '?marker=' + shown[-1])
        bars = [rect for rect in ET.fromstring(first.context['timeline']).iter(
            '{http://www.w3.org/2000/svg}rect') if 'hdd-timeline-run' in rect.get('class', '')]
        self.assertEqual(10, len(bars))
        self.assertEqual(10, len(last.context['table'].data))
        self.assertNotIn(shown[0], [d.id for d in last.context['table'].data])

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_timeline_has_one_bar_per_run(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(case.server_url() + '?timeline=all')

        picture = ET.fromstring(res.context['timeline'])
        bars = [rect for rect in picture.iter('{http://www.w3.org/2000/svg}rect')
                if 'hdd-timeline-run' in rect.get('class', '')]
        self.assertEqual(4, len(bars))
        self.assertContains(res, '<svg xmlns="http://www.w3.org/2000/svg"')
        self.assertContains(res, 'mysql-RESTORE: RESTORE, Failed.')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_timeline_draws_the_last_week_when_it_has_runs_and_widens_on_a_click(self):
        # The stack's CREATE weeks ago, and this week's runs: slivers if drawn together.
        now = datetime.datetime.now(datetime.timezone.utc)

        def at(days):
            return (now - datetime.timedelta(days=days)).strftime('%Y-%m-%dT%H:%M:%SZ')
        runs = [dict(data.CREATE, creation_time=at(40), updated_time=at(40)),
                dict(data.BACKUP, creation_time=at(2), updated_time=at(2)),
                dict(data.RESTORE, creation_time=at(1), updated_time=at(1))]
        self.serve(infos=runs)

        week = self.client.get(case.server_url())
        widened = self.client.get(case.server_url() + '?timeline=all')

        def bars(res):
            return [rect for rect in ET.fromstring(res.context['timeline']).iter(
                '{http://www.w3.org/2000/svg}rect') if 'hdd-timeline-run' in rect.get('class', '')]
        self.assertEqual((2, 3), (len(bars(week)), len(bars(widened))))
        self.assertContains(week, '<strong>Last 7 days</strong>')
        self.assertContains(week, '(1 older run of this page is not drawn.)')
        self.assertContains(week, 'timeline=all">Every run of this page</a>')
        self.assertContains(widened, '<strong>Every run of this page</strong>')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_running_rows_are_polled_like_the_deployments_panel(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(case.server_url())

        self.assertContains(res, 'class="hdd-poll-state')
        self.assertContains(res, 'data-table="deployments"')
        self.assertContains(res, 'data-status="IN_PROGRESS"', count=1)

    @helpers.create_mocks({**case.HEAT_MOCKS,
                           api.heat: ('deployments_list', 'config_get', 'deployment_get')})
    def test_a_polled_row_has_the_same_cells_as_the_row_it_replaces(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_deployment_get.return_value = data.deployments([data.RUNNING])[0]

        page = self.client.get(case.server_url()).content.decode()
        polled = json.loads(self.client.get(reverse('horizon:project:deployments:status'),
                                            {'id': data.RUNNING['id']}).content)

        on_page = re.search(r'<tr[^>]*data-object-id="%s".*?</tr>' % data.RUNNING['id'], page,
                            re.S)
        cells = re.compile(r'<td[ >]')
        self.assertEqual(len(cells.findall(on_page.group(0))),
                         len(cells.findall(polled['rows'][data.RUNNING['id']])))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_server_heat_lists_nothing_for_says_so_honestly(self):
        self.serve(infos=[])

        res = self.client.get(case.server_url('no-such-server'))

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'Heat lists no deployments on this server for your project.')
        self.assertContains(res, 'No runs on this server yet.')
        self.assertNoMessages()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_explains_when_heat_cannot_be_reached_or_fails(self):
        for name, failure in case.HEAT_DOWN.items():
            with self.subTest(name):
                self.mock_deployments_list.side_effect = failure

                res = self.client.get(case.server_url())

                self.assertEqual(200, res.status_code)
                self.assertContains(res, 'Unable to retrieve this server&#x27;s software '
                                         'deployments')
                self.assertContains(res, 'This server&#x27;s deployments could not be loaded.')
                self.assertNotContains(res, 'Heat lists no deployments')
                self.assertNotContains(res, 'No runs on this server yet.')
                for raw in case.RAW_ERROR_TEXT:
                    self.assertNotContains(res, raw)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_secrets_of_a_run_never_reach_the_page(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(case.server_url())

        self.assertContains(res, 'db_password=********')
        self.assertNotContains(res, data.DB_PASSWORD)
        self.assertNotContains(res, data.TEMP_URL_SIG)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_markup_in_a_run_name_is_shown_as_text_in_the_table_and_the_timeline(self):
        markup = '<script>alert("run")</script>'
        configs = dict(data.CONFIGS, **{'c-backup': dict(data.CONFIGS['c-backup'],
                                                         name=markup)})
        self.serve(infos=data.DB_1_RUNS, configs=configs)

        # Every run on the timeline, whatever today's date: by default it spans the last 7
        # days when they hold a run, and the fixtures' runs age (this failed a week after
        # they were written).
        res = self.client.get(case.server_url() + '?timeline=all')

        self.assertNotContains(res, markup)
        self.assertNotContains(res, '<script>alert(')
        self.assertContains(res, '&lt;script&gt;alert(', count=3)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_markup_in_the_server_id_of_the_url_is_shown_as_text(self):
        self.serve(infos=[])

        res = self.client.get(case.server_url('<img src=x onerror=alert(1)>'))

        self.assertNotContains(res, '<img src=x')
        self.assertContains(res, 'Server &lt;img src=x onerror=alert(1)&gt;')


class CancelFromServerPageTests(case.ServersTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_cancel_is_offered_only_for_the_running_run_with_honest_words(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(case.server_url())

        self.assertContains(res, 'deployments__cancel__' + data.RUNNING['id'])
        for finished in (data.CREATE['id'], data.BACKUP['id'], data.RESTORE['id']):
            self.assertNotContains(res, f'deployments__cancel__{finished}')
        self.assertContains(res, 'may still finish it')

    @helpers.create_mocks({**case.HEAT_MOCKS,
                           api.deploy: ('may_have_results', 'cancel_deployment')})
    def test_cancelling_asks_heat_once_and_comes_back_to_the_server(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.post(case.server_url(),
                               {'action': 'deployments__cancel__' + data.RUNNING['id']})

        self.assertRedirectsNoFollow(res, case.server_url())
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(),
                                                            data.RUNNING['id'])

    @helpers.create_mocks({**case.HEAT_MOCKS,
                           api.deploy: ('may_have_results', 'cancel_deployment')})
    def test_a_late_click_on_a_finished_run_is_harmless(self):
        self.serve(infos=data.DB_1_RUNS)
        finished = next(i for i in data.DB_1_RUNS if i['id'] == data.BACKUP['id'])
        # The runner leaves a finished run as it is and returns it.
        self.mock_cancel_deployment.return_value = \
            software_deployments.SoftwareDeployment(None, dict(finished), loaded=True)

        res = self.client.post(case.server_url(),
                               {'action': 'deployments__cancel__' + data.BACKUP['id']})

        self.assertRedirectsNoFollow(res, case.server_url())
        self.assertMessageCount(success=0, info=1, error=0)


@override_settings(POLICY_CHECK_FUNCTION='openstack_auth.policy.check')
class StackUserTests(case.ServersTestCase):
    # Heat's default for software_deployments:index is "role:reader and
    # project_id:%(project_id)s"; servers' agents log in with this role only.
    user_roles = ['heat_stack_user']

    def setUp(self):
        super().setUp()
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        self.addCleanup(policy.reset)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_both_pages_are_forbidden(self):
        for url in (case.INDEX_URL, case.server_url()):
            with self.subTest(url):
                res = self.client.get(url)

                self.assertEqual(403, res.status_code)
        self.mock_deployments_list.assert_not_called()
