"""Software Configs: deploying any config to a server, as `openstack software deployment
create` does, through the same trigger as the components' Run Action form."""

import html

from django.urls import reverse

from heat_deploy_dashboard import deploy
from heat_deploy_dashboard.deploy.messages import Message
from heat_deploy_dashboard.deploy.trigger import DEPLOYMENT_FAILED
from tests.unit import components_data as demo
from tests.unit import configs_case as case
from tests.unit import helpers

SERVER = demo.DB_1


def _form(**changes):
    posted = {'server': SERVER, 'action': 'CREATE', 'name': 'hello',
              'transport': 'TEMP_URL_SIGNAL', 'timeout': '60',
              'input__greeting': 'hello', 'input__count': '1'}
    posted.update(changes)
    return {key: value for key, value in posted.items() if value is not None}


def _started(server=SERVER):
    return deploy.TriggerResult(created=demo.deployments(
        [dict(demo.DEPLOYMENTS[3], id='new-run', server_id=server)]))


class DeployFormTests(case.ConfigsTestCase):

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_the_form_has_typed_inputs_known_servers_and_the_command(self):
        self.serve()

        res = self.get_ajax(case.url('deploy'))

        self.assertEqual(200, res.status_code)
        form = res.context['form']
        self.assertEqual(['server', 'action', 'name', 'transport', 'timeout',
                          'input__greeting', 'input__count', 'input__loud'], list(form.fields))
        self.assertEqual(('CREATE', 'hello', 'hello'),
                         (form['action'].value(), form['name'].value(),
                          form['input__greeting'].value()))
        self.assertEqual('NumberInput', type(form.fields['input__count'].widget).__name__)
        for server in (demo.DB_1, demo.DB_2, demo.WEB):
            self.assertContains(res, f'<option value="{server}">', count=1)
        self.assertContains(res, '<option value="RESUME">')
        self.assertEqual(
            'openstack software deployment create --config ' + case.HELLO_ID +
            ' --server SERVER --action CREATE --signal-transport TEMP_URL_SIGNAL '
            '--timeout 60 hello-CREATE', res.context['commands'])

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_a_components_own_actions_are_offered_first(self):
        self.serve()

        res = self.get_ajax(case.url('deploy', demo.MYSQL_ID))

        self.assertEqual(['CREATE', 'BACKUP', 'RESTORE', 'UPDATE', 'DELETE', 'SUSPEND',
                          'RESUME'],
                         list(res.context['form'].fields['action'].widget.suggestions()))

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_deploys_with_typed_values_and_opens_the_new_deployment(self):
        self.serve()
        self.mock_trigger_action.return_value = _started()

        res = self.client.post(case.url('deploy'), _form(
            action='BACKUP', input__count='3', input__loud='on', transport='NO_SIGNAL'))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, reverse('horizon:project:deployments:detail',
                                                  args=['new-run']))
        self.mock_trigger_action.assert_called_once_with(
            helpers.IsHttpRequest(), case.HELLO_ID, 'BACKUP', [SERVER],
            {'greeting': 'hello', 'count': 3, 'loud': True}, 'NO_SIGNAL', 60, 'hello')
        # Posting needs no server suggestions.
        self.mock_deployments_list.assert_not_called()

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_a_form_shown_again_shows_the_command_for_what_was_posted(self):
        self.serve()

        res = self.client.post(case.url('deploy'), _form(
            input__count='x', input__greeting="it's", action='ROTATE'),
            HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        self.assertFormErrors(res, 1)
        self.assertIn(f"--server {SERVER} --action ROTATE", res.context['commands'])
        self.assertIn("--input-value 'greeting=it'\"'\"'s' --input-value count=x",
                      html.unescape(res.context['commands']))
        self.mock_trigger_action.assert_not_called()

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_bad_values_are_refused_before_anything_is_made(self):
        self.serve()
        cases = {'input__count': 'seven', 'server': 'x' * 37, 'action': '',
                 'name': 'n' * 250}
        for field, value in cases.items():
            with self.subTest(field):
                res = self.client.post(case.url('deploy'), _form(**{field: value}),
                                       HTTP_X_REQUESTED_WITH='XMLHttpRequest')

                self.assertIn(field, res.context['form'].errors)
        self.mock_trigger_action.assert_not_called()

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_a_server_the_run_could_not_start_on_is_named_on_the_form(self):
        self.serve()
        self.mock_trigger_action.return_value = deploy.TriggerResult(failures=[(
            SERVER, Message(DEPLOYMENT_FAILED,
                            {'action': 'CREATE', 'server_id': SERVER}))])

        res = self.client.post(case.url('deploy'), _form())

        self.assertEqual(200, res.status_code)
        self.assertContains(res, f'Could not start CREATE on server {SERVER}')

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_a_derived_config_is_not_deployed_again(self):
        self.serve()
        derived = demo.DERIVED[3]

        res = self.client.post(case.url('deploy', derived['id']), _form())

        self.assertRedirectsNoFollow(res, case.url('detail', derived['id']))
        self.assertMessageCount(error=1)
        self.mock_trigger_action.assert_not_called()
