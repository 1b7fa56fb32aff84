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

"""Project > Software Deployments > Software Configs: the list, paged by Heat and
filtered by name or group."""

import re
import zlib

from heatclient import exc as heat_exc

from tests.unit import components_data as demo
from tests.unit import configs_case as case
from tests.unit import helpers


def _rows(res):
    return re.findall(r'<tr[^>]*data-object-id="([^"]+)"', res.content.decode())


def _next_page_link(marker):
    return f'href="?marker={marker}"'


def _id(group, n):
    """A Heat id (a UUID) that says which group and row it is."""
    return f'{n:08x}-0000-4000-8000-{zlib.crc32(group.encode()):012x}'


def _summaries(count, group='script', **keys):
    """Summary rows as Heat lists them, newest first."""
    return [case.resource({'id': _id(group, n), 'name': f'{group}-{n}', 'group': group,
                           'creation_time': '2026-11-22T03:20:17Z', **keys})
            for n in range(count)]


class ConfigsListTests(case.ConfigsTestCase):

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_lists_one_page_from_one_heat_call_with_a_link_to_the_next(self):
        page = _summaries(21)
        self.mock_configs_list.return_value = page

        res = self.client.get(case.INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.mock_configs_list.assert_called_once_with(helpers.IsHttpRequest(), limit=21,
                                                       marker=None)
        # Heat lists newest first; one more row than a page says that more follow.
        self.assertEqual([row.id for row in page[:20]], _rows(res))
        self.assertContains(res, _next_page_link(page[19].id))
        self.assertEqual(['Name', 'Group', 'Created', 'ID', 'Actions'],
                         [str(c.verbose_name) for c in res.context['table'].columns.values()])
        self.assertContains(res, case.url('detail', page[0].id))
        self.assertContains(res, case.url('deploy', page[0].id))
        self.assertContains(res, case.url('copy', page[0].id))
        self.assertContains(res, case.url('delete', page[0].id))
        self.assertContains(res, case.CREATE_URL)
        self.mock_config_get.assert_not_called()

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_marker_no_config_can_have_gives_the_first_page_without_asking_heat(self):
        self.mock_configs_list.return_value = _summaries(3)

        res = self.client.get(case.INDEX_URL + '?marker=%00')

        self.assertEqual(200, res.status_code)
        self.mock_configs_list.assert_called_once_with(helpers.IsHttpRequest(), limit=21,
                                                       marker=None)
        self.assertEqual([_id('script', n) for n in range(3)], _rows(res))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_next_page_starts_after_the_marker_and_the_last_has_no_link(self):
        self.mock_configs_list.return_value = _summaries(3)

        res = self.client.get(case.INDEX_URL + '?marker=' + _id('script', 19))

        self.mock_configs_list.assert_called_once_with(helpers.IsHttpRequest(), limit=21,
                                                       marker=_id('script', 19))
        self.assertEqual([_id('script', n) for n in range(3)], _rows(res))
        self.assertNotContains(res, 'href="?marker=')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_a_filter_reads_on_through_heats_pages_until_a_page_matches(self):
        scripts, components = _summaries(1500), _summaries(30, group='component')
        listing = scripts[:990] + components[:10] + scripts[990:] + components[10:]
        self.mock_configs_list.side_effect = lambda request, limit, marker: (
            listing[:limit] if marker is None
            else listing[[c.id for c in listing].index(marker) + 1:][:limit])

        res = self.client.post(case.INDEX_URL, {'configs__filter__q_field': 'group',
                                                'configs__filter__q': 'Component'}, follow=True)

        self.assertEqual([c.id for c in components[:20]], _rows(res))
        self.assertEqual([None, listing[999].id],
                         [call.kwargs['marker'] for call in
                          self.mock_configs_list.call_args_list])
        self.assertEqual({1000}, {call.kwargs['limit'] for call in
                                  self.mock_configs_list.call_args_list})
        self.assertContains(res, _next_page_link(components[19].id))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_name_filter_matches_part_of_a_name_in_any_case(self):
        self.serve()

        res = self.client.post(case.INDEX_URL, {'configs__filter__q_field': 'name',
                                                'configs__filter__q': 'MYSQL'}, follow=True)

        names = {c.name for c in res.context['table'].data}
        self.assertEqual({'demo-mysql-yy352j5ma4zz', 'mysql-BACKUP'}, names)

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_an_admins_listing_shows_only_the_current_project(self):
        ours, theirs = (_summaries(2, project=self.tenant.id),
                        _summaries(2, group='other', project='another-project'))
        self.mock_configs_list.return_value = [ours[0], theirs[0], ours[1], theirs[1]]

        res = self.client.get(case.INDEX_URL)

        self.assertEqual([_id('script', 0), _id('script', 1)], _rows(res))

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_explains_when_heat_cannot_be_reached_without_its_raw_error(self):
        self.mock_configs_list.side_effect = heat_exc.CommunicationError(
            message='Error communicating with http://10.9.9.9:8004 [Errno 111] refused')

        res = self.client.get(case.INDEX_URL)

        self.assertEqual(200, res.status_code)
        self.assertContains(res, 'Unable to retrieve software configs')
        self.assertContains(res, 'Software configs could not be loaded.')
        self.assertNotContains(res, 'No software configs.')
        self.assertNotContains(res, '10.9.9.9')

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_markup_in_a_name_is_shown_as_text(self):
        self.mock_configs_list.return_value = demo.summaries([case.hello(
            name='<img src=x onerror=alert(1)>')])

        res = self.client.get(case.INDEX_URL)

        self.assertNotContains(res, '<img src=x')
        self.assertContains(res, '&lt;img src=x onerror=alert(1)&gt;')


class ReaderPolicyTests(case.PolicyEnforcedTestCase):
    user_roles = ['reader']

    @helpers.create_mocks(case.DEPLOY_MOCKS)
    def test_a_reader_sees_configs_but_cannot_create_copy_deploy_or_delete(self):
        self.serve()

        res = self.client.get(case.INDEX_URL)
        refused = {url: self.client.post(url, {'name': 'x'}).status_code
                   for url in (case.CREATE_URL, case.url('copy'), case.url('deploy'),
                               case.url('delete'))}

        self.assertEqual(200, res.status_code)
        self.assertContains(res, case.url('detail'))
        for action in ('deploy', 'copy', 'delete'):
            self.assertNotContains(res, case.url(action))
        self.assertNotContains(res, case.CREATE_URL)
        self.assertEqual({403}, set(refused.values()))
        for changed in ('config_create', 'config_delete', 'start_runs'):
            getattr(self, 'mock_' + changed).assert_not_called()


class StackUserPolicyTests(case.PolicyEnforcedTestCase):
    user_roles = ['heat_stack_user']

    @helpers.create_mocks(case.HEAT_MOCKS)
    def test_the_panel_is_forbidden(self):
        res = self.client.get(case.INDEX_URL)

        self.assertEqual(403, res.status_code)
        self.mock_configs_list.assert_not_called()
