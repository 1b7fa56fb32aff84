"""The reads of an operation's many runs, a few at a time: a follower of 200 runs read them
one after another, and the outcome of an operation whose 200 servers had all answered was
recorded 12 to 18 s after the last answer (bench fleets), most of it spent waiting on one
call at a time. WIDTH threads, each on clients of its own over the caller's session.
"""

import concurrent.futures
import threading

from heat_deploy_runner.session_clients import Clients

# Heat's engine and Swift's proxy are shared with every other user: a few calls at a time,
# as one of the dashboard's status polls makes (its pool's size).
WIDTH = 4


def each(clients: Clients, work, items) -> list:
    """[work(clients, item) for item in items], WIDTH at a time, each thread with clients
    of its own (Clients.for_another_thread); the first error is raised once all have
    ended."""
    items = list(items)
    if len(items) < 2:
        return [work(clients, item) for item in items]
    own = threading.local()

    def one(item):
        if not hasattr(own, 'clients'):
            own.clients = clients.for_another_thread()
        return work(own.clients, item)
    with concurrent.futures.ThreadPoolExecutor(min(WIDTH, len(items))) as pool:
        return list(pool.map(one, items))
