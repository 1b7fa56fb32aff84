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

"""Tables whose actions belong to one table each.

Horizon makes a table class's actions once, when the class is made, and points them at each
new table (``base_actions``, ``associate_with_table``). Under a threaded server, as DevStack's
mod_wsgi serves Horizon (ten threads a process), an action drawing one user's table would
read another request's: its rows, its operation, None while that one loads. Each table here
works on copies of its own.
"""

import collections
import copy
import inspect
import types

from horizon import tables


def _copied(action):
    """A copy of ``action`` whose methods kept as attributes (a batch action's ``single``
    and ``multiple``) are the copy's."""
    copied = copy.copy(action)
    copied.attrs = copy.copy(action.attrs)
    for name, value in vars(action).items():
        if inspect.ismethod(value) and value.__self__ is action:
            setattr(copied, name, types.MethodType(value.__func__, copied))
    return copied


class OwnActionsTable(tables.DataTable):
    def __init__(self, request, *args, **kwargs):
        self.base_actions = collections.OrderedDict(
            (name, _copied(action)) for name, action in type(self).base_actions.items())
        if self._meta._filter_action:
            self._meta = copy.copy(self._meta)
            self._meta._filter_action = self.base_actions[self._meta._filter_action.name]
        super().__init__(request, *args, **kwargs)
