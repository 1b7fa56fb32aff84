"""Deployments: running a past run again, and a result that arrives after a cancel."""

import copy
from urllib import parse

from django.urls import reverse

from heat_deploy_dashboard import api
from tests.unit import components_case as case
from tests.unit import components_data as data
from tests.unit import helpers

BACKUP_RUN = data.DEPLOYMENTS[3]   # mysql BACKUP on DB_1, running
SCRIPT_RUN = data.DEPLOYMENTS[4]   # a plain script config, not a component
DETAIL_MOCKS = {api.heat: ('deployment_get', 'config_get')}
RERUN_MOCKS = {**case.HEAT_MOCKS, api.heat: ('deployment_get',) + case.HEAT_MOCKS[api.heat]}


def _detail(deployment_id, tab=''):
    url = reverse('horizon:project:deployments:detail', args=[deployment_id])
    return url + (f'?tab=deployment_details__{tab}' if tab else '')


class RerunTests(case.ComponentsTestCase):

    def _serve(self, run):
        self.serve()
        self.mock_deployment_get.return_value = data.deployments([run])[0]

    @helpers.create_mocks(RERUN_MOCKS)
    def test_run_again_opens_the_components_form_with_this_runs_action_server_and_inputs(
            self):
        self._serve(BACKUP_RUN)

        res = self.client.get(reverse('horizon:project:deployments:rerun',
                                      args=[BACKUP_RUN['id']]))

        self.assertEqual(302, res.status_code)
        target = parse.urlsplit(res['Location'])
        self.assertEqual(case.trigger_url(data.MYSQL_ID), target.path)
        query = parse.parse_qs(target.query)
        self.assertEqual(['BACKUP'], query['action'])
        self.assertEqual([data.DB_1], query['server'])
        self.assertEqual(['7'], query['input__retention_days'])
        self.assertEqual(['users,posts'], query['input__tables'])
        self.assertNotIn('input__deploy_signal_transport', query)

    @helpers.create_mocks(RERUN_MOCKS)
    def test_a_run_of_a_plain_config_cannot_be_run_again_from_here(self):
        self._serve(SCRIPT_RUN)

        res = self.client.get(reverse('horizon:project:deployments:rerun',
                                      args=[SCRIPT_RUN['id']]))

        self.assertRedirectsNoFollow(res, _detail(SCRIPT_RUN['id']))
        self.assertMessageCount(error=1)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_form_takes_the_runs_server_and_values_from_the_link(self):
        self.serve()

        res = self.client.get(case.trigger_url(
            data.MYSQL_ID, f'?action=RESTORE&server={data.DB_2}&input__retention_days=30'),
            HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        form = res.context['form']
        self.assertEqual('RESTORE', form.initial['action'])
        self.assertEqual([data.DB_2], form.initial['servers'])
        self.assertEqual('30', form['input__retention_days'].value())


class LateResultTests(helpers.TestCase):

    def _cancelled(self):
        run = copy.deepcopy(BACKUP_RUN)
        run.update(status='FAILED', status_reason='Cancelled by demo at 2026-11-22T04:00:02Z')
        return data.deployments([run])[0]

    @helpers.create_mocks({**DETAIL_MOCKS, api.deploy: ('late_result',)})
    def test_a_result_sent_after_a_cancel_is_shown_as_late_and_escaped(self):
        self.mock_deployment_get.return_value = self._cancelled()
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_late_result.return_value = {
            'deploy_stdout': 'finished anyway <b>bold</b>', 'deploy_status_code': 0}

        res = self.client.get(_detail(BACKUP_RUN['id'], 'outputs'))

        self.assertContains(res, 'Late result')
        self.assertContains(res, 'finished anyway &lt;b&gt;bold&lt;/b&gt;')
        self.assertContains(res, 'its server finished it anyway')
        self.assertContains(res, 'Cancelled by demo')

    @helpers.create_mocks({**DETAIL_MOCKS, api.deploy: ('late_result',)})
    def test_a_cancelled_run_without_a_late_result_says_nothing_more(self):
        self.mock_deployment_get.return_value = self._cancelled()
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_late_result.return_value = None

        res = self.client.get(_detail(BACKUP_RUN['id'], 'outputs'))

        self.assertNotContains(res, 'Late result')

    @helpers.create_mocks(DETAIL_MOCKS)
    def test_the_page_of_a_running_run_offers_cancel_and_a_finished_one_does_not(self):
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_deployment_get.return_value = data.deployments([BACKUP_RUN])[0]
        running = self.client.get(_detail(BACKUP_RUN['id']))
        self.assertContains(running, f'deployments__cancel__{BACKUP_RUN["id"]}')

        finished = dict(BACKUP_RUN, status='COMPLETE', updated_time='2026-11-22T04:01:00Z')
        self.mock_deployment_get.return_value = data.deployments([finished])[0]
        done = self.client.get(_detail(BACKUP_RUN['id']))
        self.assertNotContains(done, f'deployments__cancel__{BACKUP_RUN["id"]}')
        self.assertContains(done, reverse('horizon:project:deployments:rerun',
                                          args=[BACKUP_RUN['id']]))

    @helpers.create_mocks(DETAIL_MOCKS)
    def test_the_actions_on_a_runs_page_post_to_the_deployments_list(self):
        self.mock_config_get.side_effect = data.config_getter()
        self.mock_deployment_get.return_value = data.deployments([BACKUP_RUN])[0]

        res = self.client.get(_detail(BACKUP_RUN['id']))

        self.assertContains(
            res, f'action="{reverse("horizon:project:deployments:index")}"')
