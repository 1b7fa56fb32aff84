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

"""The bench's views of several pages taken in turn (measure.views_in_turn): bench.archive_cost
took each view's five after one another, and a load passing after its seeding slowed only the
first view measured."""

import pytest

from bench import measure


def test_the_views_are_taken_in_turn_after_one_of_each():
    viewed = []

    def view(path):
        viewed.append(path)
        return {'status': 200, 'seconds': 0.1 * len(viewed), 'calls': {'swift_proxy': 1}}

    found = measure.views_in_turn(view, 3, {'tab': '/t', 'list': '/l'})

    assert viewed == ['/t', '/l'] * 4
    assert found['tab']['samples'] == [0.3, 0.5, 0.7]
    assert found['list']['median_seconds'] == pytest.approx(0.6)
    assert found['tab']['status'] == [200] and found['tab']['calls'] == {'swift_proxy': 1}
