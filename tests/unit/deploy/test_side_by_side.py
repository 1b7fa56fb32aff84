"""side_by_side: an operation's runs read a few at a time, in order, each thread on clients
of its own over one session (a swiftclient Connection is not shared between threads)."""

import threading

import pytest

from heat_deploy_runner import session_clients
from heat_deploy_runner import side_by_side
from tests.unit.deploy.test_session_clients import _Session


def test_each_keeps_the_order_and_gives_every_thread_clients_of_its_own():
    clients = session_clients.on_session(_Session(), interface='internal', region_name='r2')
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

    assert side_by_side.each(clients, work, range(9)) == [i * 10 for i in range(9)]
    swifts = [swift for each in seen.values() for swift in each]
    # One connection per thread, never one shared.
    assert len(seen) >= 2 and all(len(each) == 1 for each in seen.values())
    assert len(set(swifts)) == len(swifts)


def test_a_failure_is_raised_once_the_others_have_ended():
    clients = session_clients.Clients(heat=None, find_transport=None)
    done = []

    def work(own, item):
        if item == 0:
            raise ValueError('no')
        done.append(item)

    with pytest.raises(ValueError):
        side_by_side.each(clients, work, range(6))
    assert sorted(done) == [1, 2, 3, 4, 5]


def test_clients_without_a_session_are_shared_as_they_are():
    clients = session_clients.Clients(heat=object(), find_transport=None)
    assert clients.for_another_thread() is clients
