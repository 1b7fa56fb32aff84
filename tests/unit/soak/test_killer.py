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

"""soak.load.Killer kills the soak's services in turn and starts each again, on a cloud's own
supervisor: here real processes (sleep) stand in for the services."""

import time

from devcloud import cloud as cloud_mod
from devcloud import layout as layout_mod
from soak import load


def _cloud(tmp_path, *names):
    cloud = cloud_mod.Cloud(layout_mod.Layout(tmp_path, 29000))
    for name in names:
        # A shell with a child, as gunicorn's master with its workers: the whole group dies.
        cloud.sup.start(name, ['sh', '-c', 'sleep 600 & wait'])
    return cloud


def _killed(cloud, services, turns):
    killer = load.Killer(cloud, services, every=0.01, down_seconds=0.01)
    killer.start()
    deadline = time.monotonic() + 30
    while len(killer.outages) < turns and time.monotonic() < deadline:
        time.sleep(0.05)
    killer.stop()
    return killer


def test_each_service_in_turn_is_killed_and_started_again(tmp_path):
    cloud = _cloud(tmp_path, 'rabbitmq', 'postgres')
    first = {name: cloud.sup.running(name).pid for name in ('rabbitmq', 'postgres')}
    try:
        killer = _killed(cloud, ('postgres', 'rabbitmq'), 2)

        assert [each[0] for each in killer.outages[:2]] == ['postgres', 'rabbitmq']
        assert [each[0] for each in killer.killed_at[:2]] == ['postgres', 'rabbitmq']
        assert all(began < ended for _name, began, ended in killer.outages)
        for name, pid in first.items():
            assert cloud.sup.running(name).pid != pid
        assert not killer.errors
    finally:
        cloud.stop()


def test_a_service_not_running_when_its_turn_comes_is_said_and_the_next_killed(tmp_path):
    cloud = _cloud(tmp_path, 'keystone', 'mistral-executor-2')
    cloud.sup.stop_service('keystone')
    executor = cloud.sup.running('mistral-executor-2')
    try:
        killer = _killed(cloud, ('keystone', 'mistral-executor-2'), 2)

        assert killer.errors[0] == 'keystone was not running when its turn came'
        assert cloud.sup.running('mistral-executor-2').pid != executor.pid
    finally:
        cloud.stop()


def test_the_next_kill_comes_every_so_often_from_the_start_not_after_the_restart(tmp_path):
    cloud = _cloud(tmp_path, 'zaqar', 'heat-api')
    try:
        killer = load.Killer(cloud, ('zaqar', 'heat-api'), every=2.5, down_seconds=0.01)
        killer.start()
        deadline = time.monotonic() + 30
        while len(killer.outages) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        killer.stop()

        # A restart waits until the service has stayed up a second (start_service).
        (_first, _began, restarted), (_second, next_kill, _ended) = killer.outages[:2]
        assert next_kill - restarted < killer.every
    finally:
        cloud.stop()
