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

"""Derived configs kept by id across calls in one process. Heat never changes a derived config
once made, and Mistral's wait read each of its runs' configs again at every call: 200 GETs a
50-s call at 200 running runs, half the follower's Heat calls. Kept per project (a config id
read through one project's trust serves no other), at most SIZE, the least lately used
dropped first."""

import collections
from collections import abc
import threading

# A derived config is a few kilobytes: a few megabytes at most per executor process.
SIZE = 2000


class KeptConfigs:
    def __init__(self, size=SIZE):
        self._kept = collections.OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def of(self, project_id):
        """The configs of one project: a mapping of config id to the derived config."""
        return _OfProject(self, project_id)

    def get_kept(self, key):
        with self._lock:
            found = self._kept[key]
            self._kept.move_to_end(key)
            return found

    def keep(self, key, config):
        with self._lock:
            self._kept[key] = config
            self._kept.move_to_end(key)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)

    def drop(self, key):
        with self._lock:
            del self._kept[key]

    def keys_of(self, project_id):
        with self._lock:
            return [config_id for project, config_id in self._kept if project == project_id]


class _OfProject(abc.MutableMapping):
    def __init__(self, kept, project_id):
        self._all = kept
        self._project_id = project_id

    def __getitem__(self, config_id):
        return self._all.get_kept((self._project_id, config_id))

    def __setitem__(self, config_id, config):
        self._all.keep((self._project_id, config_id), config)

    def __delitem__(self, config_id):
        self._all.drop((self._project_id, config_id))

    def __iter__(self):
        return iter(self._all.keys_of(self._project_id))

    def __len__(self):
        return len(self._all.keys_of(self._project_id))
