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

"""Under a threaded Horizon (mod_wsgi's threads), one user's table is drawn while another
request makes its own: each table's actions must stay its own (own_actions.py). A soak of 20
users on operation pages found an operation page failing on another request's table."""

import collections
import importlib
import inspect
import pathlib

from django.contrib.messages.storage import cookie
from django.test import RequestFactory
from horizon import tables

import heat_deploy_dashboard
from heat_deploy_dashboard.content import own_actions


Row = collections.namedtuple('Row', 'id name')


class Remember(tables.LinkAction):
    name = 'remember'
    verbose_name = 'Remember'
    url = '/'


class Forget(tables.BatchAction):
    name = 'forget'

    @staticmethod
    def action_present(count):
        return 'Forget'

    @staticmethod
    def action_past(count):
        return 'Forgot'

    def action(self, request, obj_id):
        self.table.forgotten.append(obj_id)


class Find(tables.FilterAction):
    name = 'find'


class TwoActionsTable(own_actions.OwnActionsTable):
    name = tables.Column('name')

    class Meta:
        name = 'two'
        table_actions = (Find, Remember, Forget)

    forgotten = ()


def test_a_table_made_after_another_does_not_take_its_actions():
    request = RequestFactory().get('/')
    first = TwoActionsTable(request, data=[Row('1', 'a')])
    second = TwoActionsTable(request, data=None)

    assert first.base_actions['remember'].table is first
    assert first._meta._filter_action.table is first
    assert second.base_actions['remember'].table is second
    assert type(first)._meta._filter_action is not first._meta._filter_action


def test_an_action_taken_works_on_its_own_table():
    request = RequestFactory().post('/', {'action': 'two__forget__1'})
    request._messages = cookie.CookieStorage(request)
    first = TwoActionsTable(request, data=[Row('1', 'a')])
    first.forgotten = []
    TwoActionsTable(request, data=None)

    first.base_actions['forget'].multiple(first, request, ['1'])

    assert first.forgotten == ['1']


def _tables():
    package = pathlib.Path(heat_deploy_dashboard.__file__).resolve().parent
    for path in package.rglob('*.py'):
        if 'tables' in path.read_text(encoding='utf-8') and 'enabled' not in path.parts:
            name = '.'.join(('heat_deploy_dashboard',) + path.relative_to(package)
                            .with_suffix('').parts)
            module = importlib.import_module(name)
            yield from (each for _name, each in inspect.getmembers(module, inspect.isclass)
                        if issubclass(each, tables.DataTable) and each.__module__ == name)


def test_every_table_of_the_plugin_has_its_own_actions():
    found = list(_tables())
    shared = [each.__name__ for each in found if not issubclass(each, own_actions.OwnActionsTable)]

    assert len(found) > 10
    assert not shared
