"""Project > Software Deployments > Servers: the servers with deployments, and each server's
history of runs, its timeline, its metadata, and cancelling a run from there."""

import json
import re
import xml.etree.ElementTree as ET

from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from heatclient import exc as heat_exc
from heatclient.v1 import software_deployments
from openstack_auth import policy

from heat_deploy_dashboard import api
from tests.unit import helpers
from tests.unit import servers_data as data

INDEX_URL = reverse('horizon:project:servers:index')
METADATA_TAB = '?tab=server_details__metadata'
HEAT_MOCKS = {api.heat: ('deployments_list', 'config_get')}
HEAT_DOWN = {
    'unreachable': heat_exc.CommunicationError(
        message='Error communicating with http://10.9.9.9:8004/v1/p [Errno 111] '
                'Connection refused'),
    'server error': heat_exc.HTTPInternalServerError(
        message='{"error": {"message": "Traceback: DBError in software_deployment_get_all"}}'),
}
RAW_ERROR_TEXT = ('10.9.9.9', 'Connection refused', 'Traceback', 'DBError')


def server_url(server_id=data.DB_1):
    return reverse('horizon:project:servers:detail', args=[server_id])


def reveal_url(server_id=data.DB_1):
    return reverse('horizon:project:servers:reveal_metadata', args=[server_id])


def detail_url(deployment):
    return reverse('horizon:project:deployments:detail', args=[deployment['id']])


class ServersTestCase(helpers.TestCase):

    def serve(self, infos=None, configs=None):
        self.mock_deployments_list.return_value = data.deployments(infos)
        self.mock_config_get.side_effect = data.config_getter(configs)


class ServersListTests(ServersTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_lists_each_server_once_with_its_counts_and_latest_run(self):
        self.serve()

        res = self.client.get(INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertTemplateUsed(res, 'project/servers/index.html')
        self.mock_deployments_list.assert_called_once_with(helpers.IsHttpRequest(), server_id=None)
        servers = res.context['table'].data
        # The one most recently deployed to first.
        self.assertEqual([data.DB_1, data.WEB, data.DB_2], [s.id for s in servers])
        db_1 = servers[0]
        self.assertEqual((2, 1, 1), (db_1.complete, db_1.failed, db_1.in_progress))
        self.assertEqual(data.RUNNING['id'], db_1.latest.id)
        self.assertContains(res, server_url(data.DB_1))
        self.assertContains(res, detail_url(data.RUNNING))
        self.assertContains(res, 'mysql-BACKUP')
        # Only the latest run of each server is named.
        self.assertEqual(3, self.mock_config_get.call_count)
        self.assertNoMessages()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_second_view_reads_no_config_again(self):
        self.serve()

        self.client.get(INDEX_URL)
        self.client.get(INDEX_URL)

        self.assertEqual(2, self.mock_deployments_list.call_count)
        self.assertEqual(3, self.mock_config_get.call_count)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_shows_an_empty_state_when_no_server_has_deployments(self):
        self.serve(infos=[])

        res = self.client.get(INDEX_URL)

        self.assertContains(res, 'No server has software deployments yet.')
        self.assertNoMessages()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_explains_when_heat_cannot_be_reached_or_fails(self):
        for name, failure in HEAT_DOWN.items():
            with self.subTest(name):
                self.mock_deployments_list.side_effect = failure

                res = self.client.get(INDEX_URL)

                self.assertEqual(200, res.status_code)
                self.assertContains(res, "Unable to retrieve the servers&#x27; software "
                                         "deployments")
                self.assertContains(res, 'Servers could not be loaded.')
                self.assertNotContains(res, 'No server has software deployments yet.')
                for raw in RAW_ERROR_TEXT:
                    self.assertNotContains(res, raw)


class ServerPageTests(ServersTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_lists_every_run_on_the_server_newest_first_with_inputs_and_duration(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(server_url())

        self.assertEqual(200, res.status_code)
        self.mock_deployments_list.assert_called_once_with(helpers.IsHttpRequest(),
                                                           server_id=data.DB_1)
        self.assertEqual([data.RUNNING['id'], data.RESTORE['id'], data.BACKUP['id'],
                          data.CREATE['id']],
                         [d.id for d in res.context['table'].data])
        for run in data.DB_1_RUNS:
            self.assertContains(res, detail_url(run))
        self.assertContains(res, 'mysql-RESTORE')
        self.assertContains(res, 'retention_days=14')
        self.assertContains(res, 'retention_days=7')
        self.assertContains(res, 'tables=[&quot;users&quot;, &quot;posts&quot;]')
        self.assertContains(res, 'backup_file=backups/b.tgz')
        # 09:00:00 to its last update at 09:02:10.
        self.assertContains(res, '2m 10s')
        self.assertContains(res, 'Server ' + data.DB_1)
        self.assertNoMessages()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_second_view_reads_no_config_again(self):
        self.serve(infos=data.DB_1_RUNS)

        self.client.get(server_url())
        self.client.get(server_url())

        self.assertEqual(4, self.mock_config_get.call_count)
        self.assertEqual(2, self.mock_deployments_list.call_count)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_the_timeline_has_one_bar_per_run(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(server_url())

        picture = ET.fromstring(res.context['timeline'])
        bars = [rect for rect in picture.iter('{http://www.w3.org/2000/svg}rect')
                if 'hdd-timeline-run' in rect.get('class', '')]
        self.assertEqual(4, len(bars))
        self.assertContains(res, '<svg xmlns="http://www.w3.org/2000/svg"')
        self.assertContains(res, 'mysql-RESTORE: RESTORE, Failed.')

    @helpers.create_mocks(HEAT_MOCKS)
    def test_running_rows_are_polled_like_the_deployments_panel(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(server_url())

        self.assertContains(res, 'class="hdd-poll-state')
        self.assertContains(res, 'data-table="deployments"')
        self.assertContains(res, 'data-status="IN_PROGRESS"', count=1)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'deployment_get')})
    def test_a_polled_row_has_the_same_cells_as_the_row_it_replaces(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_deployment_get.return_value = data.deployments([data.RUNNING])[0]

        page = self.client.get(server_url()).content.decode()
        polled = json.loads(self.client.get(reverse('horizon:project:deployments:status'),
                                            {'id': data.RUNNING['id']}).content)

        on_page = re.search(r'<tr[^>]*data-object-id="%s".*?</tr>' % data.RUNNING['id'], page,
                            re.S)
        cells = re.compile(r'<td[ >]')
        self.assertEqual(len(cells.findall(on_page.group(0))),
                         len(cells.findall(polled['rows'][data.RUNNING['id']])))

    @helpers.create_mocks(HEAT_MOCKS)
    def test_a_server_heat_lists_nothing_for_says_so_honestly(self):
        self.serve(infos=[])

        res = self.client.get(server_url('no-such-server'))

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'Heat lists no deployments on this server for your project.')
        self.assertContains(res, 'No runs on this server yet.')
        self.assertNoMessages()

    @helpers.create_mocks(HEAT_MOCKS)
    def test_explains_when_heat_cannot_be_reached_or_fails(self):
        for name, failure in HEAT_DOWN.items():
            with self.subTest(name):
                self.mock_deployments_list.side_effect = failure

                res = self.client.get(server_url())

                self.assertEqual(200, res.status_code)
                self.assertContains(res, 'Unable to retrieve this server&#x27;s software '
                                         'deployments')
                self.assertContains(res, 'This server&#x27;s deployments could not be loaded.')
                self.assertNotContains(res, 'Heat lists no deployments')
                self.assertNotContains(res, 'No runs on this server yet.')
                for raw in RAW_ERROR_TEXT:
                    self.assertNotContains(res, raw)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_secrets_of_a_run_never_reach_the_page(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(server_url())

        self.assertContains(res, 'db_password=********')
        self.assertNotContains(res, data.DB_PASSWORD)
        self.assertNotContains(res, data.TEMP_URL_SIG)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_markup_in_a_run_name_is_shown_as_text_in_the_table_and_the_timeline(self):
        markup = '<script>alert("run")</script>'
        configs = dict(data.CONFIGS, **{'c-backup': dict(data.CONFIGS['c-backup'],
                                                         name=markup)})
        self.serve(infos=data.DB_1_RUNS, configs=configs)

        res = self.client.get(server_url())

        self.assertNotContains(res, markup)
        self.assertNotContains(res, '<script>alert(')
        self.assertContains(res, '&lt;script&gt;alert(', count=3)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_markup_in_the_server_id_of_the_url_is_shown_as_text(self):
        self.serve(infos=[])

        res = self.client.get(server_url('<img src=x onerror=alert(1)>'))

        self.assertNotContains(res, '<img src=x')
        self.assertContains(res, 'Server &lt;img src=x onerror=alert(1)&gt;')


class ServerMetadataTests(ServersTestCase):

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_is_read_only_when_its_tab_is_opened_and_masks_secrets(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        self.client.get(server_url())
        self.mock_server_metadata.assert_not_called()

        res = self.client.get(server_url() + METADATA_TAB)

        self.mock_server_metadata.assert_called_once_with(helpers.IsHttpRequest(), data.DB_1)
        self.assertContains(res, 'deploy_signal_id')
        self.assertContains(res, 'temp_url_sig=********')
        for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
            self.assertNotContains(res, secret)

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_a_get_asking_to_reveal_still_masks_and_offers_the_confirmation(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        res = self.client.get(server_url() + METADATA_TAB + '&reveal=1')

        self.assertContains(res, 'temp_url_sig=********')
        self.assertNotContains(res, 'Secrets are shown')
        for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
            self.assertNotContains(res, secret)
        self.assertContains(res, f'href="{reveal_url()}"')
        self.assertContains(res, 'ajax-modal hdd-reveal')
        self.assertContains(res, '<code>openstack software deployment metadata show '
                                 + data.DB_1)

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_the_confirmation_shows_no_secret_and_posts_to_itself(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        modal = self.client.get(reveal_url(), HTTP_X_REQUESTED_WITH='XMLHttpRequest')
        page = self.client.get(reveal_url() + '?reveal=1')

        for res in (modal, page):
            self.assertEqual(200, res.status_code)
            self.assertContains(res, "Show the secrets of server")
            self.assertContains(res, 'passwords and signal URLs will be shown on screen')
            self.assertContains(res, f'action="{reveal_url()}"')
            self.assertContains(res, 'method="POST"')
            self.assertContains(res, 'name="csrfmiddlewaretoken"')
            self.assertContains(res, f'href="{server_url()}{METADATA_TAB}"')
            self.assertNotContains(res, 'Secrets are shown')
            for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
                self.assertNotContains(res, secret)
        self.assertTemplateUsed(modal, 'project/servers/_reveal.html')
        self.assertTemplateUsed(page, 'project/servers/reveal.html')
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_posting_the_confirmation_shows_the_secrets_with_a_warning_never_cached(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        modal = self.client.post(reveal_url(), {}, HTTP_X_REQUESTED_WITH='XMLHttpRequest')
        page = self.client.post(reveal_url(), {})

        for res in (modal, page):
            self.assertEqual(200, res.status_code)
            self.assertContains(res, 'Secrets are shown')
            for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
                self.assertContains(res, secret)
            self.assertContains(res, '<code>openstack software deployment metadata show '
                                     + data.DB_1)
            self.assertIn('no-store', res['Cache-Control'])
            self.assertNotIn('X-Horizon-Location', res)
        # As a modal: closing it masks them; as a page, a link back to the masked tab.
        self.assertTemplateUsed(modal, 'project/servers/_revealed.html')
        self.assertContains(modal, 'data-dismiss="modal"')
        self.assertTemplateUsed(page, 'project/servers/revealed.html')
        self.assertContains(page, f'href="{server_url()}{METADATA_TAB}"')
        self.assertEqual(2, self.mock_server_metadata.call_count)
        self.mock_server_metadata.assert_called_with(helpers.IsHttpRequest(), data.DB_1)

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_post_without_the_csrf_token_reveals_nothing(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()
        client = Client(enforce_csrf_checks=True)
        client.cookies = self.client.cookies

        res = client.post(reveal_url(), {})

        self.assertEqual(403, res.status_code)
        for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
            self.assertNotContains(res, secret, status_code=403)
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_failure_to_read_the_metadata_is_a_sentence(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.side_effect = HEAT_DOWN['server error']

        res = self.client.post(reveal_url(), {}, HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        self.assertContains(res, 'The metadata could not be loaded.')
        for raw in RAW_ERROR_TEXT:
            self.assertNotContains(res, raw)

    @override_settings(POLICY_CHECK_FUNCTION=lambda rules, request, target=None: (
        ('orchestration', 'software_deployments:metadata') not in rules))
    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_user_without_the_metadata_rule_cannot_reveal(self):
        self.mock_deployments_list.return_value = data.deployments(data.DB_1_RUNS)
        self.mock_server_metadata.return_value = data.metadata()

        refused = [self.client.get(reveal_url()), self.client.post(reveal_url(), {}),
                   self.client.post(reveal_url(), {}, HTTP_X_REQUESTED_WITH='XMLHttpRequest')]

        for res in refused:
            self.assertIn(res.status_code, (401, 403))
            for secret in (data.TEMP_URL_SIG, data.STACK_USER_PASSWORD, data.DB_PASSWORD):
                self.assertNotIn(secret, res.content.decode())
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({api.heat: ('server_metadata', 'deployments_list')})
    def test_a_server_without_runs_in_this_project_has_no_secrets_to_show(self):
        # Another project's server, or none at all: Heat lists no deployment of it here.
        self.mock_deployments_list.return_value = []

        for res in (self.client.get(reveal_url(data.WEB)),
                    self.client.post(reveal_url(data.WEB), {})):
            self.assertEqual(404, res.status_code)
        self.mock_server_metadata.assert_not_called()

    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_heat_down_is_a_sentence(self):
        self.serve(infos=data.DB_1_RUNS)
        self.mock_server_metadata.side_effect = HEAT_DOWN['unreachable']

        res = self.client.get(server_url() + METADATA_TAB)

        self.assertContains(res, 'The metadata could not be loaded.')
        self.assertMessageCount(res, error=1)
        for raw in RAW_ERROR_TEXT:
            self.assertNotContains(res, raw)

    @override_settings(POLICY_CHECK_FUNCTION=lambda rules, request, target=None: (
        ('orchestration', 'software_deployments:metadata') not in rules))
    @helpers.create_mocks({api.heat: ('deployments_list', 'config_get', 'server_metadata')})
    def test_is_hidden_from_a_user_heat_would_refuse_it_to(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(server_url() + METADATA_TAB)

        self.assertEqual(200, res.status_code)
        self.assertIsNone(res.context['tab_group'].get_tab('metadata'))
        self.assertNotContains(res, 'id="server_details__metadata"')
        self.mock_server_metadata.assert_not_called()


class CancelFromServerPageTests(ServersTestCase):

    @helpers.create_mocks(HEAT_MOCKS)
    def test_cancel_is_offered_only_for_the_running_run_with_honest_words(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.get(server_url())

        self.assertContains(res, 'deployments__cancel__' + data.RUNNING['id'])
        for finished in (data.CREATE['id'], data.BACKUP['id'], data.RESTORE['id']):
            self.assertNotContains(res, f'deployments__cancel__{finished}')
        self.assertContains(res, 'may still finish it')

    @helpers.create_mocks({**HEAT_MOCKS, api.deploy: ('cancel_deployment',)})
    def test_cancelling_asks_heat_once_and_comes_back_to_the_server(self):
        self.serve(infos=data.DB_1_RUNS)

        res = self.client.post(server_url(),
                               {'action': 'deployments__cancel__' + data.RUNNING['id']})

        self.assertRedirectsNoFollow(res, server_url())
        self.mock_cancel_deployment.assert_called_once_with(helpers.IsHttpRequest(),
                                                            data.RUNNING['id'])

    @helpers.create_mocks({**HEAT_MOCKS, api.deploy: ('cancel_deployment',)})
    def test_a_late_click_on_a_finished_run_is_harmless(self):
        self.serve(infos=data.DB_1_RUNS)
        finished = next(i for i in data.DB_1_RUNS if i['id'] == data.BACKUP['id'])
        # The deploy package leaves a finished run as it is and returns it.
        self.mock_cancel_deployment.return_value = \
            software_deployments.SoftwareDeployment(None, dict(finished), loaded=True)

        res = self.client.post(server_url(),
                               {'action': 'deployments__cancel__' + data.BACKUP['id']})

        self.assertRedirectsNoFollow(res, server_url())
        self.assertMessageCount(success=1, info=1, error=0)


@override_settings(POLICY_CHECK_FUNCTION='openstack_auth.policy.check')
class StackUserTests(ServersTestCase):
    # Heat's default for software_deployments:index is "role:reader and
    # project_id:%(project_id)s"; servers' agents log in with this role only.
    user_roles = ['heat_stack_user']

    def setUp(self):
        super().setUp()
        # openstack_auth caches its enforcers for the whole process.
        policy.reset()
        self.addCleanup(policy.reset)

    @helpers.create_mocks(HEAT_MOCKS)
    def test_both_pages_are_forbidden(self):
        for url in (INDEX_URL, server_url()):
            with self.subTest(url):
                res = self.client.get(url)

                self.assertEqual(403, res.status_code)
        self.mock_deployments_list.assert_not_called()
