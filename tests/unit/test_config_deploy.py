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

"""Software Configs: deploying any config to a server, as `openstack software deployment
create` does, through the same trigger as the components' Run Action form."""

import copy
import html
from unittest import mock

from django.urls import reverse
from heatclient import exc as heat_exc
from heatclient.v1 import resources
from novaclient.v2 import servers as nova_servers_api
from openstack_dashboard.api import nova

from heat_deploy_dashboard import api
from heat_deploy_dashboard.content import server_names
import heat_deploy_runner as runner
from heat_deploy_runner import Message
from heat_deploy_runner.running.starting import DEPLOYMENT_FAILED
from tests.unit import components_data as demo
from tests.unit import configs_case as case
from tests.unit import helpers

SERVER = demo.DB_1
NEW_RUN = '6e3a1f00-0000-4000-8000-00000000beef'
# The Heat calls of the form, and the project's servers: its stacks' and Nova's.
DEPLOY_MOCKS = {
    **case.DEPLOY_MOCKS,
    api.heat: case.HEAT_MOCKS[api.heat] + ('stacks_list', 'resources_list'),
    nova: ('server_list',),
}
DEPLOYED_SERVER = 'OS::Heat::DeployedServer'
NOVA_SERVER = 'OS::Nova::Server'
STACK = demo.STACKS[0]
NESTED = {'id': '5d0e0b7a-1111-4222-8333-000000000001', 'stack_name': 'demo-web-abc',
          'stack_status': 'CREATE_COMPLETE', 'parent': STACK['id']}
# The demo stack's DeployedServers, as Heat lists them with_detail (attributes and all).
DEPLOYED = [(demo.DB_1, 'demo-db-1', 'db_server_1'), (demo.DB_2, 'demo-db-2', 'db_server_2'),
            (demo.WEB, 'demo-web-1', 'web_server')]
APP_VM = '4b0c3cf0-7777-4888-9999-00000000000a'
LONE_VM = '0a0b0c0d-7777-4888-9999-00000000000b'
OTHER_PROJECTS = 'e1e2e3e4-5555-4666-8777-888888888888'


def deployed_server(server_id, name, resource_name, stack=STACK):
    return {'resource_name': resource_name, 'physical_resource_id': server_id,
            'resource_type': DEPLOYED_SERVER, 'resource_status': 'CREATE_COMPLETE',
            'stack_name': stack['stack_name'],
            'attributes': {'name': name, 'os_collect_config': {
                'request': {'metadata_url': 'https://swift/v1/c/o?temp_url_sig=s3cret'}}},
            'metadata': {'deployments': []}}


def heat_resources(infos):
    return [resources.Resource(None, copy.deepcopy(info), loaded=True) for info in infos]


def nova_servers(*pairs):
    """Nova's servers of the project, as Horizon's server_list gives them."""
    return [nova.Server(nova_servers_api.Server(None, {'id': server_id, 'name': name},
                                                loaded=True), None)
            for server_id, name in pairs]


def _form(**changes):
    posted = {'server': SERVER, 'action': 'CREATE', 'name': 'hello',
              'transport': 'TEMP_URL_SIGNAL', 'timeout': '60',
              'input__greeting': 'hello', 'input__count': '1'}
    posted.update(changes)
    return {key: value for key, value in posted.items() if value is not None}


def _started(server=SERVER):
    return runner.Started(created=demo.triggered(
        [dict(demo.DEPLOYMENTS[3], id=NEW_RUN, server_id=server)]))


class DeployTestCase(case.ConfigsTestCase):

    def serve(self, configs=None, deployments=None, deployed=None, nova_resources=(),
              compute=()):
        """The configs and deployments, the demo stack's DeployedServers (or these), its
        OS::Nova::Server resources, and Nova's servers of the project."""
        super().serve(configs, deployments)
        deployed = [deployed_server(*each) for each in
                    (DEPLOYED if deployed is None else deployed)]
        by_type = {DEPLOYED_SERVER: heat_resources(deployed),
                   # Heat keeps the resources whose type holds the one asked for.
                   NOVA_SERVER: heat_resources(
                       [{'resource_name': 'app', 'physical_resource_id': server_id,
                         'resource_type': NOVA_SERVER} for server_id in nova_resources]
                       + [{'resource_name': 'group', 'physical_resource_id': 'sg-1',
                           'resource_type': 'OS::Nova::ServerGroup'}])}
        self.mock_stacks_list.return_value = demo.stack_list()
        self.mock_resources_list.side_effect = (
            lambda request, stack, resource_type, **kwargs: by_type[resource_type])
        self.mock_server_list.return_value = (nova_servers(*compute), False)

    def without_compute(self):
        self.service_catalog[:] = [s for s in self.service_catalog
                                   if s['type'] != 'compute']

    def post_deploy(self, **changes):
        return self.client.post(case.url('deploy'), _form(**changes),
                                HTTP_X_REQUESTED_WITH='XMLHttpRequest')


class DeployFormTests(DeployTestCase):

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_the_form_has_typed_inputs_known_servers_and_the_command(self):
        self.serve()

        res = self.get_ajax(case.url('deploy'))

        self.assertEqual(200, res.status_code)
        form = res.context['form']
        self.assertEqual(['server', 'action', 'name', 'transport', 'live', 'timeout',
                          'input__greeting', 'input__count', 'input__loud'], list(form.fields))
        self.assertEqual(('CREATE', 'hello', 'hello'),
                         (form['action'].value(), form['name'].value(),
                          form['input__greeting'].value()))
        self.assertEqual('NumberInput', type(form.fields['input__count'].widget).__name__)
        for server, name, _resource in DEPLOYED:
            self.assertContains(res, f'<option value="{server}">{name}</option>',
                                count=1, html=False)
        self.assertContains(res, '<option value="RESUME">')
        self.assertEqual(
            f'openstack software run create --config {case.HELLO_ID} --server SERVER '
            '--action CREATE --name hello', res.context['commands'])

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_run_again_fills_the_form_in_from_its_link(self):
        self.serve()

        res = self.get_ajax(case.url('deploy') + f'?server={demo.WEB}&action=ROTATE'
                            '&name=hi&input__greeting=bonjour&input__count=2')

        form = res.context['form']
        self.assertEqual((demo.WEB, 'ROTATE', 'hi', 'bonjour', '2'),
                         tuple(form[name].value() for name in (
                             'server', 'action', 'name', 'input__greeting', 'input__count')))

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_components_own_actions_are_offered_first(self):
        self.serve()

        res = self.get_ajax(case.url('deploy', demo.MYSQL_ID))

        self.assertEqual(['CREATE', 'BACKUP', 'RESTORE', 'UPDATE', 'DELETE', 'SUSPEND',
                          'RESUME'],
                         list(res.context['form'].fields['action'].widget.suggestions()))

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_deploys_with_typed_values_and_opens_the_new_deployment(self):
        self.serve()
        self.mock_start_runs.return_value = _started()

        res = self.client.post(case.url('deploy'), _form(
            action='BACKUP', input__count='3', input__loud='on', transport='NO_SIGNAL'))

        self.assertNoFormErrors(res)
        self.assertRedirectsNoFollow(res, reverse('horizon:project:deployments:detail',
                                                  args=[NEW_RUN]))
        self.mock_start_runs.assert_called_once_with(
            helpers.IsHttpRequest(), runner.RunRequest(
                case.HELLO_ID, 'BACKUP', (SERVER,), {'greeting': 'hello', 'count': 3,
                                                     'loud': True}, 'NO_SIGNAL', 60, 'hello'),
            mock.ANY, mock.ANY, mock.ANY)
        self.assertEqual(['Started BACKUP on server demo-db-1.'],
                         [str(m) for m in res.wsgi_request._messages])
        # Posting lists no deployments; the project's servers once, to check the server.
        self.mock_deployments_list.assert_not_called()
        self.mock_stacks_list.assert_called_once_with(helpers.IsHttpRequest())
        self.mock_server_list.assert_called_once_with(helpers.IsHttpRequest(), detailed=False)

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_form_shown_again_shows_the_command_for_what_was_posted(self):
        self.serve()

        res = self.client.post(case.url('deploy'), _form(
            input__count='x', input__greeting="it's", action='ROTATE'),
            HTTP_X_REQUESTED_WITH='XMLHttpRequest')

        self.assertFormErrors(res, 1)
        self.assertIn(f"--server {SERVER} --action ROTATE", res.context['commands'])
        self.assertIn("--input 'greeting=it'\"'\"'s' --input count=x",
                      html.unescape(res.context['commands']))
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_bad_values_are_refused_before_anything_is_made(self):
        self.serve()
        cases = {'input__count': 'seven', 'server': 'x' * 37, 'action': '', 'name': 'n' * 250}
        for field, value in cases.items():
            with self.subTest(field):
                res = self.client.post(case.url('deploy'), _form(**{field: value}),
                                       HTTP_X_REQUESTED_WITH='XMLHttpRequest')

                self.assertIn(field, res.context['form'].errors)
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_server_the_run_could_not_start_on_is_named_on_the_form(self):
        self.serve()
        self.mock_start_runs.return_value = runner.Started(failures=[(
            SERVER, Message(DEPLOYMENT_FAILED,
                            {'action': 'CREATE', 'server': SERVER}))])

        res = self.client.post(case.url('deploy'), _form())

        self.assertEqual(200, res.status_code)
        self.assertContains(res, f'Could not start CREATE on server {SERVER}')

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_derived_config_is_not_deployed_again(self):
        self.serve()
        derived = demo.DERIVED[3]

        res = self.client.post(case.url('deploy', derived['id']), _form())

        self.assertRedirectsNoFollow(res, case.url('detail', derived['id']))
        self.assertMessageCount(error=1)
        self.mock_start_runs.assert_not_called()


class DeployServerTests(DeployTestCase):
    """Heat deploys to any server id; the form only to a server of the project."""

    def assertRefused(self, res, error):
        self.assertEqual([error], res.context['form'].errors['server'])
        self.mock_start_runs.assert_not_called()

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_made_up_id_is_refused_and_nothing_is_created(self):
        self.serve()

        for made_up in ('f00d0000-0000-4000-8000-000000000000', 'no-such-server'):
            with self.subTest(made_up):
                res = self.post_deploy(server=made_up)

                self.assertRefused(res, 'No server of this project has that ID or name.')
                self.assertIn(f'--server {made_up} ', res.context['commands'])

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_the_servers_of_every_stack_are_read_with_one_listing_per_top_level_stack(self):
        self.serve()
        self.mock_stacks_list.return_value = demo.stack_list([STACK, NESTED])
        self.mock_start_runs.return_value = _started(demo.WEB)

        res = self.client.post(case.url('deploy'), _form(server=demo.WEB))

        self.assertNoFormErrors(res)
        # Nova names the stacks' Nova servers; their listing says which stack holds each.
        self.assertEqual(
            [mock.call(helpers.IsHttpRequest(), f"demo/{STACK['id']}", DEPLOYED_SERVER,
                       nested_depth=100, with_detail=True),
             mock.call(helpers.IsHttpRequest(), f"demo/{STACK['id']}", NOVA_SERVER,
                       nested_depth=100, with_detail=False)],
            self.mock_resources_list.call_args_list)

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_server_keeps_the_stacks_that_hold_it_with_the_name_compute_gives(self):
        self.serve(deployed=[(demo.DB_1, 'db', 'db_server_1')], nova_resources=[APP_VM],
                   compute=[(APP_VM, 'app'), (LONE_VM, 'lone')])
        nested = self.mock_resources_list.side_effect

        def listing(request, stack, resource_type, **kwargs):
            found = nested(request, stack, resource_type, **kwargs)
            if resource_type == NOVA_SERVER:
                # A resource group's server: Heat names the nested stack that holds it.
                for each in found:
                    each.links = [{'rel': 'stack',
                                   'href': 'http://heat/v1/p/stacks/demo-group-abc/1'}]
            return found
        self.mock_resources_list.side_effect = listing

        self.assertEqual({demo.DB_1: ('demo',), APP_VM: ('demo', 'demo-group-abc')},
                         server_names.stacks(self.request))
        self.assertEqual('app', server_names.names(self.request)[APP_VM])

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_servers_name_is_taken_for_its_id(self):
        self.serve()
        self.mock_start_runs.return_value = _started(demo.WEB)

        res = self.client.post(case.url('deploy'), _form(server=' demo-web-1 '))

        self.assertNoFormErrors(res)
        self.mock_start_runs.assert_called_once_with(
            helpers.IsHttpRequest(), runner.RunRequest(
                case.HELLO_ID, 'CREATE', (demo.WEB,),
                {'greeting': 'hello', 'count': 1, 'loud': False}, 'TEMP_URL_SIGNAL', 60, 'hello'),
            mock.ANY, mock.ANY, mock.ANY)

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_name_several_servers_have_is_refused(self):
        self.serve(deployed=[(demo.DB_1, 'db', 'db_server_1'),
                             (demo.DB_2, 'db', 'db_server_2')],
                   compute=[(LONE_VM, 'web')], nova_resources=[APP_VM])
        self.mock_server_list.return_value = (nova_servers((LONE_VM, 'web'),
                                                           (APP_VM, 'web')), False)

        for name in ('db', 'web'):
            with self.subTest(name):
                res = self.post_deploy(server=name)

                self.assertRefused(res, f'Several servers are named {name}; give its ID.')
        # Their ids are still taken.
        self.mock_start_runs.return_value = _started(demo.DB_2)
        res = self.post_deploy(server=demo.DB_2)
        self.assertNoFormErrors(res)

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_another_projects_server_is_refused_even_with_deployments_in_the_listing(self):
        # An admin's deployment listing holds every project's; servers come from its own.
        other = dict(demo.DEPLOYMENTS[0], id='77777777-0000-4000-8000-000000000007',
                     server_id=OTHER_PROJECTS)
        self.serve(deployments=demo.DEPLOYMENTS + [other], compute=[(LONE_VM, 'vm')])

        res = self.post_deploy(server=OTHER_PROJECTS)

        self.assertRefused(res, 'No server of this project has that ID or name.')
        self.mock_server_list.assert_called_once_with(helpers.IsHttpRequest(), detailed=False)

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_novas_servers_are_offered_and_taken_when_compute_is_in_the_catalog(self):
        self.serve(compute=[(LONE_VM, 'lone-vm'), (demo.DB_1, '')])
        self.mock_start_runs.return_value = _started(LONE_VM)

        form = self.get_ajax(case.url('deploy'))
        by_name = self.client.post(case.url('deploy'), _form(server='lone-vm'))

        self.assertContains(form, f'<option value="{LONE_VM}">lone-vm</option>')
        # A server both list is offered once, with the name one of them gives.
        self.assertContains(form, f'<option value="{demo.DB_1}">', count=1)
        self.assertNotContains(form, 'sg-1')
        self.assertNoFormErrors(by_name)
        self.mock_start_runs.assert_called_once_with(
            helpers.IsHttpRequest(), runner.RunRequest(
                case.HELLO_ID, 'CREATE', (LONE_VM,),
                {'greeting': 'hello', 'count': 1, 'loud': False}, 'TEMP_URL_SIGNAL', 60, 'hello'),
            mock.ANY, mock.ANY, mock.ANY)

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_without_compute_the_stacks_nova_servers_are_taken_by_id(self):
        self.without_compute()
        self.serve(nova_resources=[APP_VM])
        self.mock_start_runs.return_value = _started(APP_VM)

        lone = self.post_deploy(server=LONE_VM)
        group = self.post_deploy(server='sg-1')
        app = self.client.post(case.url('deploy'), _form(server=APP_VM))

        self.assertEqual(['No server of this project has that ID or name.'],
                         lone.context['form'].errors['server'])
        self.assertIn('server', group.context['form'].errors)
        self.assertNoFormErrors(app)
        self.mock_start_runs.assert_called_once_with(
            helpers.IsHttpRequest(), runner.RunRequest(
                case.HELLO_ID, 'CREATE', (APP_VM,),
                {'greeting': 'hello', 'count': 1, 'loud': False}, 'TEMP_URL_SIGNAL', 60, 'hello'),
            mock.ANY, mock.ANY, mock.ANY)
        self.mock_server_list.assert_not_called()

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_when_a_listing_fails_a_known_server_is_taken_and_another_is_not_guessed(self):
        self.serve()
        self.mock_server_list.side_effect = Exception('nova is down')
        self.mock_start_runs.return_value = _started()

        unknown = self.post_deploy(server=LONE_VM)
        known = self.client.post(case.url('deploy'), _form(server='demo-db-1'))

        self.assertIn('Unable to check the server', unknown.context['form'].errors['server'][0])
        self.assertNoFormErrors(known)
        self.mock_start_runs.assert_called_once()

    @helpers.create_mocks(DEPLOY_MOCKS)
    def test_a_stack_deleted_while_listed_has_no_servers_and_the_form_still_opens(self):
        self.serve()
        self.mock_resources_list.side_effect = heat_exc.HTTPNotFound()

        form = self.get_ajax(case.url('deploy'))
        res = self.post_deploy(server=demo.DB_1)

        self.assertEqual(200, form.status_code)
        self.assertNotContains(form, f'<option value="{demo.DB_1}">')
        self.assertRefused(res, 'No server of this project has that ID or name.')
