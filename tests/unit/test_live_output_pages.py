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

"""Live output on the pages: a running run's Outputs tab shows its lines as they come (or says
in one sentence why none come until the end), and the status poll both pages make anyway
carries what is new: a run's new text beyond the byte totals the page has, and each running
row's last line on an operation's page."""

import json

from django.test.utils import override_settings
from django.urls import reverse
from heatclient.v1 import software_configs

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content.deployments import live
from heat_deploy_runner.signalling.live import Snapshot
from tests.unit import helpers
from tests.unit import test_data

RUNNING = test_data.DEPLOYMENTS[2]
OTHER_ID = '00000001-0000-4000-8000-000000000000'
THIRD_ID = '00000002-0000-4000-8000-000000000000'
# Signed until 2100: the runs are not past their deadline.
SIGNAL_URL = ('https://swift:8080/v1/AUTH_1/wordpress-1/{}'
              '?temp_url_sig=0f&temp_url_expires=4102444800')
LIVE_URL = ('https://swift:8080/v1/AUTH_1/wordpress-1/live/{}'
            '?temp_url_sig=1e&temp_url_expires=4102444800')
OUTPUTS_TAB = '?tab=deployment_details__outputs'
POLL_MOCKS = {api.heat: ('deployment_get', 'config_get'),
              api.deploy: ('live_output', 'live_lines', 'may_have_results')}


def _config_get(transport='TEMP_URL_SIGNAL', live_ids=(RUNNING['config_id'],)):
    """api.heat.config_get of runs' derived configs: those of ``live_ids`` with a live
    target."""
    def config_get(request, config_id):
        inputs = [{'name': 'deploy_signal_transport', 'type': 'String', 'value': transport},
                  {'name': 'deploy_signal_id', 'type': 'String',
                   'value': SIGNAL_URL.format(config_id)}]
        if config_id in live_ids:
            inputs.append({'name': 'deploy_live_url', 'type': 'String',
                           'value': LIVE_URL.format(config_id)})
        return software_configs.SoftwareConfig(None, {
            'id': config_id, 'name': 'wordpress-ROTATE_KEYS', 'group': 'component',
            'config': '', 'inputs': inputs, 'outputs': [], 'options': {}}, loaded=True)
    return config_get


def _config_id(run_id):
    return RUNNING['config_id'] if run_id == RUNNING['id'] else run_id[:-1] + 'c'


def _running(run_id=RUNNING['id'], **changes):
    config_id = _config_id(run_id)
    return test_data.deployment(dict(RUNNING, id=run_id, config_id=config_id, **changes))


def _snapshot(stdout, stderr='', stdout_bytes=None):
    return Snapshot(seq=4, stdout=stdout, stderr=stderr,
                    stdout_bytes=len(stdout.encode()) if stdout_bytes is None else stdout_bytes,
                    stderr_bytes=len(stderr.encode()))


class RunPageTests(helpers.TestCase):

    def _outputs(self, run, config_get):
        """The run page's Outputs tab, as it renders."""
        self.mock_deployment_get.return_value = run
        self.mock_config_get.side_effect = config_get
        page = self.client.get(reverse('horizon:project:deployments:detail', args=[run.id])
                               + OUTPUTS_TAB).content.decode()
        start = page.index('id="deployment_details__outputs"')
        return page[start:page.index('id="deployment_details__config"')]

    @override_settings(HEAT_DEPLOY_AGENT_POLLING_INTERVAL=30)
    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_running_live_run_shows_its_lines_as_they_come_not_empty_outputs(self):
        tab = self._outputs(_running(), _config_get())

        self.assertIn('class="hdd-live" ng-non-bindable data-live-for="%s"' % RUNNING['id'],
                      tab)
        self.assertIn('data-stream="stdout"', tab)
        self.assertIn("Waiting for the server's first lines.", tab)
        self.assertIn('Its image may lack heat-deploy-script-hook', tab)
        self.assertIn(live.SCRIPT_HOOK_DOC, tab)
        self.assertNotIn('(empty)', tab)
        self.assertNotIn('hdd-live-none', tab)
        # Started long ago: its silence says at once that its image may lack the hook.
        self.assertIn('data-silent-after="0"', tab)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_a_run_without_live_output_says_why_no_lines_come_and_how_to_get_them(self):
        tab = self._outputs(_running(), _config_get(live_ids=()))

        self.assertIn('No lines show until this run ends', tab)
        self.assertIn('tick "Send output live"', tab)
        self.assertIn('href="%s"' % live.SCRIPT_HOOK_DOC, tab)
        self.assertNotIn('data-live-for', tab)
        # Its outputs, empty until the end, as ever.
        self.assertIn('(empty)', tab)

    @helpers.create_mocks({api.heat: ('deployment_get', 'config_get')})
    def test_nothing_is_said_of_live_output_where_none_can_come(self):
        for run, config_get in (
                # It ended: its final output, as ever.
                (_running(status='COMPLETE', updated_time='2025-03-02T11:16:00Z',
                          output_values={'deploy_stdout': 'done\n'}), _config_get()),
                # It waits for no result.
                (_running(OTHER_ID), _config_get(transport='NO_SIGNAL', live_ids=()))):
            with self.subTest(status=run.status):
                tab = self._outputs(run, config_get)
                self.assertNotIn('data-live-for', tab)
                self.assertNotIn('hdd-live-none', tab)

    def test_silence_is_told_after_the_agents_interval_and_a_margin(self):
        with override_settings(HEAT_DEPLOY_AGENT_POLLING_INTERVAL=30):
            just_now = _running(creation_time=None)
            self.assertEqual(30 + live.SILENT_MARGIN_SECONDS, live.silent_after(just_now))


class StatusPollTests(helpers.TestCase):

    def setUp(self):
        super().setUp()
        self.status_url = reverse('horizon:project:deployments:status')

    def _poll(self, **sent):
        return json.loads(self.client.post(self.status_url, sent).content)

    def _serve(self, config_get=None, **runs):
        self.mock_config_get.side_effect = config_get or _config_get(
            live_ids=(RUNNING['config_id'], _config_id(OTHER_ID), _config_id(THIRD_ID)))
        self.mock_deployment_get.side_effect = lambda request, each: runs.get(
            each) or _running(each)
        self.mock_may_have_results.return_value = set()

    @helpers.create_mocks(POLL_MOCKS)
    def test_the_run_page_gets_only_what_is_new_beyond_the_totals_it_has(self):
        self._serve()
        self.mock_live_output.return_value = _snapshot('one\ntwo\n', 'warn\n')

        reply = self._poll(id=RUNNING['id'], live=RUNNING['id'], stdout_bytes='4',
                           stderr_bytes='0')

        self.assertEqual({'seq': 4, 'stdout': 'two\n', 'stdout_bytes': 8, 'stdout_not_shown': 0,
                          'stderr': 'warn\n', 'stderr_bytes': 5, 'stderr_not_shown': 0},
                         reply['live'])
        [(_request, config)] = [each.args for each in self.mock_live_output.call_args_list]
        self.assertEqual(RUNNING['config_id'], config['id'])
        self.mock_live_lines.assert_not_called()

    @helpers.create_mocks(POLL_MOCKS)
    def test_what_scrolled_past_the_servers_tail_is_counted_for_the_page(self):
        self._serve()
        self.mock_live_output.return_value = _snapshot('line 99\n', stdout_bytes=1000)

        reply = self._poll(id=RUNNING['id'], live=RUNNING['id'], stdout_bytes='bad')

        self.assertEqual(('line 99\n', 992), (reply['live']['stdout'],
                                              reply['live']['stdout_not_shown']))

    @helpers.create_mocks(POLL_MOCKS)
    def test_a_quiet_run_gets_its_lines_without_a_show_in_heat(self):
        self._serve()
        self.mock_live_output.return_value = _snapshot('a\n')
        self._poll(id=RUNNING['id'], live=RUNNING['id'])
        shows = self.mock_deployment_get.call_count

        # The next poll: the cheap look finds no result, Heat is not asked.
        reply = self._poll(id=RUNNING['id'], live=RUNNING['id'], stdout_bytes='2')

        self.assertEqual(shows, self.mock_deployment_get.call_count)
        self.assertEqual([RUNNING['id']], reply['running'])
        self.assertEqual('', reply['live']['stdout'])

    @helpers.create_mocks(POLL_MOCKS)
    def test_before_the_first_send_live_is_none_and_a_failed_read_says_where(self):
        self._serve()
        self.mock_live_output.return_value = None
        self.assertIsNone(self._poll(id=RUNNING['id'], live=RUNNING['id'])['live'])

        self.mock_live_output.side_effect = Exception('refused by http://10.0.0.7:8080')
        res = self.client.post(self.status_url, {'id': RUNNING['id'], 'live': RUNNING['id']})

        self.assertEqual(200, res.status_code)
        self.assertIn('Object Storage could not be reached', res.json()['live']['error'])
        self.assertNotIn('10.0.0.7', res.content.decode())

    @helpers.create_mocks(POLL_MOCKS)
    def test_a_run_that_ended_or_another_than_polled_gets_no_live_output(self):
        ended = _running(status='COMPLETE', updated_time='2025-03-02T11:16:00Z')
        self._serve(**{RUNNING['id']: ended})

        reply = self._poll(id=[RUNNING['id'], OTHER_ID], live=RUNNING['id'])
        other = self._poll(id=RUNNING['id'], live=THIRD_ID)

        self.assertNotIn('live', reply)
        self.assertNotIn('live', other)
        self.mock_live_output.assert_not_called()

    @helpers.create_mocks(POLL_MOCKS)
    def test_an_operations_page_gets_the_last_line_of_each_running_row_in_one_call(self):
        self._serve(**{THIRD_ID: _running(THIRD_ID, status='FAILED')})
        self.mock_live_lines.return_value = {RUNNING['id']: '<b>{$ 7*7 $}</b> ' + 'x' * 900}

        res = self.client.post(self.status_url, {
            'id': [RUNNING['id'], OTHER_ID, THIRD_ID], 'elsewhere': ['00000003-0000-4000-8000-'
                                                                     '000000000000'],
            'table': 'operation'})

        reply = res.json()
        self.assertEqual({RUNNING['id']}, set(reply['lines']))
        self.assertEqual(live.LINE_CHARS, len(reply['lines'][RUNNING['id']]))
        # The running rows shown: not the ended one, nor those of the other pages.
        [(_request, configs)] = [each.args for each in self.mock_live_lines.call_args_list]
        self.assertEqual({RUNNING['id'], OTHER_ID}, set(configs))
        self.mock_live_output.assert_not_called()
        # Its row keeps the place of the line; the text goes in as text (last_lines.js).
        self.assertIn('<span class="hdd-last-line"></span>', reply['rows'][RUNNING['id']])

    @helpers.create_mocks(POLL_MOCKS)
    def test_the_deployments_list_asks_no_lines_and_a_failed_read_keeps_the_poll(self):
        self._serve()
        self.assertNotIn('lines', self._poll(id=RUNNING['id'], table='deployments'))
        self.mock_live_lines.assert_not_called()

        self.mock_live_lines.side_effect = Exception('Swift down')
        self.assertEqual({}, self._poll(id=RUNNING['id'], table='operation')['lines'])
