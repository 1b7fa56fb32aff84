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

"""Deployments: a deployment's own page, its outputs and their download."""

import copy
import re

from django.urls import reverse
from heatclient import exc as heat_exc
from heatclient.v1 import software_configs

from heat_deploy_dashboard import api
import heat_deploy_runner as runner
from heat_deploy_runner.configs.derived import OPERATION_OPTION
from heat_deploy_runner.running import runs
from tests.unit import helpers
from tests.unit import test_data

FINISHED = test_data.DEPLOYMENTS[0]
COMPONENT_ID = '7c0d1e2f-3a4b-4c5d-8e6f-708192a3b4c5'
SIGNAL_URL = ('http://swift:8080/v1/AUTH_p/mysql-BACKUP-1/2'
              '?temp_url_sig=f00dfeed&temp_url_expires=1999999999')
DERIVED = {
    'id': FINISHED['config_id'], 'name': 'mysql-BACKUP', 'group': 'component',
    'config': {'configs': [{'actions': ['BACKUP'], 'tool': 'script',
                            'config': '#!/bin/sh\necho <b>backup</b>'}]},
    'inputs': [
        {'name': 'retention_days', 'type': 'Number', 'value': 14},
        {'name': 'deploy_action', 'type': 'String', 'value': 'BACKUP'},
        {'name': 'deploy_signal_transport', 'type': 'String', 'value': 'TEMP_URL_SIGNAL'},
        {'name': 'deploy_signal_id', 'type': 'String', 'value': SIGNAL_URL},
    ],
    'outputs': [{'name': 'backup_file', 'description': 'The archive written'}],
    'options': {},
}


def _deployment(**changes):
    return test_data.deployment(dict(copy.deepcopy(FINISHED), **changes))


def _config(**changes):
    return software_configs.SoftwareConfig(None, dict(copy.deepcopy(DERIVED), **changes),
                                           loaded=True)


class DeploymentDetailTests(helpers.TestCase):

    def _url(self, deployment_id=FINISHED['id']):
        return reverse('horizon:project:deployments:detail', args=[deployment_id])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('late_result',)})
    def test_overview_says_who_started_the_run_in_which_operation_and_its_status(self):
        operation = runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'demo',
                                     '2026-11-23T08:00:00Z')
        self.mock_deployment_get.return_value = _deployment(
            status='FAILED', status_reason='Cancelled by demo at 2026-11-23T08:01:00Z',
            input_values={OPERATION_OPTION: operation.as_option()})
        self.mock_config_get.return_value = _config(
            options={OPERATION_OPTION: operation.as_option()})
        self.mock_late_result.return_value = None

        res = self.client.get(self._url())

        operation_url = reverse('horizon:project:deployments:operation', args=[operation.id])
        self.assertRegex(res.content.decode(),
                         r'demo, <span data-seconds="\d+" title="2026-11-23 08:00:00 UTC">'
                         r'[^<]+ ago</span>, in operation '
                         f'<a href="{re.escape(operation_url)}">5e8f0c2a</a>')
        self.assertContains(res, '<dd>Cancelled</dd>')

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_overview_shows_the_inputs_the_run_used_and_masks_the_signal(self):
        self.mock_deployment_get.return_value = _deployment()
        self.mock_config_get.return_value = _config()

        res = self.client.get(self._url())

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'mysql-BACKUP on ' + FINISHED['server_id'])
        self.assertContains(res, 'retention_days')
        self.assertContains(res, 'TEMP_URL_SIGNAL')
        self.assertContains(res, 'mysql-BACKUP-1/2')
        self.assertNotContains(res, 'f00dfeed')
        self.assertContains(res, '2m 10s')
        self.mock_deployment_get.assert_called_once_with(helpers.IsHttpRequest(),
                                                         FINISHED['id'])
        self.mock_config_get.assert_called_once_with(helpers.IsHttpRequest(),
                                                     FINISHED['config_id'])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_outputs_are_escaped_and_a_long_one_is_cut_with_a_download_link(self):
        long_stdout = '<script>window.pwned=1</script>' + 'x' * runs.DISPLAY_LIMIT
        self.mock_deployment_get.return_value = _deployment(output_values={
            'deploy_stdout': long_stdout, 'deploy_stderr': 'warn <img src=x onerror=1>',
            'deploy_status_code': 0, 'backup_file': 'nightly/b.tar'})
        self.mock_config_get.return_value = _config()

        res = self.client.get(self._url() + '?tab=deployment_details__outputs')

        self.assertNotContains(res, '<script>window.pwned')
        self.assertContains(res, '&lt;script&gt;window.pwned=1&lt;/script&gt;')
        self.assertNotContains(res, '<img src=x')
        self.assertContains(res, 'nightly/b.tar')
        self.assertContains(res, 'The archive written')
        self.assertContains(res, 'Download the full text')
        self.assertContains(res, reverse('horizon:project:deployments:output',
                                         args=[FINISHED['id'], 'deploy_stdout']))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_every_output_the_server_sent_is_shown_and_downloadable_as_with_the_cli(self):
        self.mock_deployment_get.return_value = _deployment(output_values={
            'deploy_stdout': 'done', 'deploy_stderr': '', 'deploy_status_code': 0,
            'undeclared/extra': 'sent anyway'})
        self.mock_config_get.return_value = _config()

        res = self.client.get(self._url() + '?tab=deployment_details__outputs')
        page = self.client.get(self._url())

        self.assertEqual(['deploy_stdout', 'deploy_stderr', 'backup_file', 'undeclared/extra'],
                         [o['name'] for o in res.context['outputs']])
        self.assertContains(res, 'sent anyway')
        # A 4-character output is not "1 KB".
        self.assertContains(res, '<small class="hdd-output-size">4\xa0bytes</small>')
        for name in ('deploy_stdout', 'undeclared/extra'):
            self.assertContains(res, reverse('horizon:project:deployments:output',
                                             args=[FINISHED['id'], name]))
        # One box of commands, whichever tab is open: the run, and its whole output.
        for shown in (res, page):
            self.assertContains(shown, '<code>openstack software run show '
                                f'{FINISHED["id"]}\nopenstack software run output --all '
                                f'{FINISHED["id"]}</code>')

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_the_summary_leads_with_the_result_then_inputs_then_the_outputs_end(self):
        stdout = ''.join(f'step {n}\n' for n in range(1, 31)) + 'error: <b>disk</b> full\n'
        self.mock_deployment_get.return_value = _deployment(output_values={
            'deploy_stdout': stdout, 'deploy_stderr': '', 'deploy_status_code': 3})
        self.mock_config_get.return_value = _config()

        page = self.client.get(self._url()).content.decode()
        summary = page[page.index('hdd-run-summary'):page.index('</details>')]

        order = [summary.index(text) for text in (
            '<dt>Status</dt>', '<dt>Exit Code</dt>', '<dd>3</dd>', '<dt>Duration</dt>',
            '<dt>Server</dt>', 'Inputs this run used', 'retention_days',
            'error: &lt;b&gt;disk&lt;/b&gt; full', '<summary>Advanced</summary>',
            '<dt>Signal Transport</dt>')]
        self.assertEqual(sorted(order), order)
        # The end of the output, its beginning one click away.
        self.assertIn('last 20 lines', summary)
        self.assertNotIn('step 11\n', summary)
        self.assertIn('step 12\n', summary)
        self.assertIn('?tab=deployment_details__outputs">All output, from the beginning',
                      summary)
        self.assertEqual(1, summary.count('class="btn btn-default btn-xs hdd-copy"'))

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_the_summary_of_a_run_started_here_links_its_component_by_its_name_in_its_stack(
            self):
        operation = runner.Operation('5e8f0c2a-7b1d-4c3e-9f60-1a2b3c4d5e6f', 'demo',
                                     '2026-11-23T08:00:00Z', COMPONENT_ID)
        self.mock_deployment_get.return_value = _deployment(
            input_values={OPERATION_OPTION: operation.as_option()})
        self.mock_config_get.side_effect = lambda request, config_id: (
            _config(name='mysql <i>db</i>-BACKUP',
                    options={OPERATION_OPTION: operation.as_option()})
            if config_id == FINISHED['config_id']
            else _config(id=COMPONENT_ID, name='demo-mysql-wsddc3qmqnyi'))

        res = self.client.get(self._url())

        self.assertContains(res, '<dt>Component</dt><dd><a href="%s">mysql &lt;i&gt;db&lt;/i&gt;'
                                 '</a></dd>' % reverse('horizon:project:components:detail',
                                                       args=[COMPONENT_ID]), html=False)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_the_download_holds_the_whole_output(self):
        long_stdout = 'y' * (runs.DISPLAY_LIMIT + 5)
        self.mock_deployment_get.return_value = _deployment(output_values={
            'deploy_stdout': long_stdout})
        self.mock_config_get.return_value = _config()

        res = self.client.get(reverse('horizon:project:deployments:output',
                                      args=[FINISHED['id'], 'deploy_stdout']))

        self.assertEqual(200, res.status_code)
        self.assertEqual(long_stdout, res.content.decode())
        self.assertIn('attachment', res['Content-Disposition'])
        self.assertTrue(res['Content-Type'].startswith('text/plain'))

    @helpers.create_mocks({api.heat: ('deployment_get',)})
    def test_another_projects_deployment_is_not_found_not_an_error(self):
        self.mock_deployment_get.side_effect = heat_exc.HTTPNotFound()

        res = self.client.get(self._url('0000e15e-0000-4000-8000-000000000000'))

        self.assertEqual(404, res.status_code)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_running_deployment_page_watches_for_its_result(self):
        self.mock_deployment_get.return_value = _deployment(status='IN_PROGRESS',
                                                            output_values=None)
        self.mock_config_get.return_value = _config()

        res = self.client.get(self._url())

        self.assertContains(res, 'class="hdd-detail-poll')
        self.assertContains(res, 'Not reported yet')

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_deleted_derived_config_still_shows_the_deployment(self):
        self.mock_deployment_get.return_value = _deployment()
        self.mock_config_get.side_effect = heat_exc.HTTPNotFound()

        res = self.client.get(self._url())

        self.assertEqual(200, res.status_code)
        self.assertContains(res, '(deleted)')
        self.assertNotContains(res, 'Derived Config</a>')

    @helpers.create_mocks({api.heat: ('deployment_get',)})
    def test_heat_down_redirects_with_a_clear_message(self):
        self.mock_deployment_get.side_effect = heat_exc.CommunicationError('boom at 10.0.0.9')

        res = self.client.get(self._url())

        self.assertRedirectsNoFollow(res, reverse('horizon:project:deployments:index'))
        self.assertMessageCount(error=1)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_second_view_reads_the_derived_config_from_the_cache(self):
        self.mock_deployment_get.return_value = _deployment()
        self.mock_config_get.return_value = _config()

        self.client.get(self._url())
        self.client.get(self._url())

        self.assertEqual(2, self.mock_deployment_get.call_count)
        self.mock_config_get.assert_called_once_with(helpers.IsHttpRequest(),
                                                     FINISHED['config_id'])

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result',)})
    def test_reading_a_runs_page_changes_nothing_its_poll_applies_a_waiting_result(self):
        self.mock_deployment_get.return_value = _deployment(
            status='IN_PROGRESS', output_values=None, status_reason='Deploy data available')
        self.mock_config_get.return_value = _config()

        res = self.client.get(self._url())

        self.mock_collect_result.assert_not_called()
        self.assertContains(res, 'Deploy data available')
        self.assertContains(res, 'class="hdd-detail-poll')

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_run_heat_was_given_no_reason_for_shows_none_not_the_word_none(self):
        # Heat stores a missing reason as the text 'None' (the CLI's create gives none).
        self.mock_deployment_get.return_value = _deployment(
            status='IN_PROGRESS', output_values=None, status_reason='None')
        self.mock_config_get.return_value = _config()

        res = self.client.get(self._url())

        self.assertEqual(200, res.status_code)
        self.assertNotContains(res, 'hdd-status-reason')
        self.assertNotRegex(res.content.decode(), r'>\s*None\s*<')

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get'),
                           api.deploy: ('collect_result',)})
    def test_without_its_derived_config_no_result_is_looked_for(self):
        self.mock_deployment_get.return_value = _deployment(status='IN_PROGRESS',
                                                            output_values=None)
        self.mock_config_get.side_effect = heat_exc.HTTPNotFound()

        res = self.client.get(self._url())

        self.assertEqual(200, res.status_code)
        self.mock_collect_result.assert_not_called()
