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

"""side_by_side: an operation's runs read a few at a time, in order, each thread on clients
of its own over one session (a swiftclient Connection is not shared between threads), made
once for as long as the readers last (Mistral's wait reads its runs every few seconds)."""

import threading

import pytest

from heat_deploy_runner.following import side_by_side
from heat_deploy_runner import session_clients
from tests.unit.deploy import fakes


def test_each_keeps_the_order_and_every_thread_keeps_clients_of_its_own():
    clients = session_clients.on_session(fakes.RenewingSession(), interface='internal',
                                         region_name='r2')
    seen = {}
    both_in = threading.Barrier(2, timeout=5)

    def work(own, item):
        if item < 2:
            # Two at once: the first two items are on two threads.
            both_in.wait()
        seen.setdefault(threading.get_ident(), set()).add(id(own.swift))
        assert own.session is clients.session and own.where == clients.where
        assert own.swift is not clients.swift
        return item * 10

    with side_by_side.Readers(clients) as readers:
        assert readers.each(work, range(9)) == [i * 10 for i in range(9)]
        # A second pass, as the wait's next look: the same clients, no new connections.
        both_in.reset()
        assert readers.each(work, range(9)) == [i * 10 for i in range(9)]
    swifts = [swift for each in seen.values() for swift in each]
    assert 2 <= len(seen) <= side_by_side.WIDTH
    assert all(len(each) == 1 for each in seen.values())
    assert len(set(swifts)) == len(swifts)


def test_a_failure_is_raised_once_the_others_have_ended():
    clients = session_clients.Clients(heat=None, find_transport=None)
    done = []
    first_failed = threading.Event()

    def work(own, item):
        if item == 0:
            first_failed.set()
            raise ValueError('no')
        first_failed.wait(5)
        done.append(item)

    with side_by_side.Readers(clients) as readers, pytest.raises(ValueError):
        readers.each(work, range(6))
    assert sorted(done) == [1, 2, 3, 4, 5]


def test_one_item_is_read_on_the_callers_clients():
    clients = session_clients.Clients(heat=object(), find_transport=None)
    with side_by_side.Readers(clients) as readers:
        assert readers.each(lambda own, item: own, ['only']) == [clients]


def test_clients_without_a_session_are_shared_as_they_are():
    clients = session_clients.Clients(heat=object(), find_transport=None)
    assert clients.for_another_thread() is clients
