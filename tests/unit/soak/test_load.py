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

import argparse

import pytest

from soak import load

PAGE = '''<table id="operation"><tbody>
<tr class="status_up" data-object-id="d1" data-status="COMPLETE" id="operation__row__d1">
<tr data-status="IN_PROGRESS" class="x" data-object-id="d2" id="operation__row__d2">
<tr data-object-id="d3" data-status="IN_PROGRESS">
<tr data-status="IN_PROGRESS" class="empty">
</tbody></table>'''


def test_a_users_page_follows_the_rows_it_shows_running():
    assert load.running_ids(PAGE) == ['d2', 'd3']


def test_after_failed_replies_a_page_asks_again_later_and_later_as_the_poll_does():
    waits = [load.POLL_SECONDS]
    for _each in range(5):
        waits.append(load.next_retry(waits[-1]))

    assert waits == [1.5, 3.0, 6.0, 12.0, 15, 15]


def test_a_short_soak_kills_the_services_named_in_their_order():
    assert load.named('postgres,mistral-executor-2') == ('postgres', 'mistral-executor-2')


def test_a_service_the_soak_does_not_kill_is_refused():
    with pytest.raises(argparse.ArgumentTypeError, match='not killed by the soak: nova'):
        load.named('keystone,nova')
