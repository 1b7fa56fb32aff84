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

"""Reading live output as the pages do: what is new to a reader from a snapshot's byte
totals, one run's latest snapshot, and the last lines of many runs in one look per place."""

import functools
import json
from urllib import parse

from heat_deploy_runner import InputError
from heat_deploy_runner import Message
from heat_deploy_runner.running import live_output
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling import live
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import start
from heat_deploy_runner import transport_for

from .fakes import FakeHeat
from .fakes import FakeSwift
from .zaqar_fakes import FakeZaqar


def _snapshot(seq, stdout='', stderr='', stdout_bytes=None):
    return {'seq': seq, 'stdout': stdout, 'stderr': stderr,
            'stdout_bytes': len(stdout.encode()) if stdout_bytes is None else stdout_bytes,
            'stderr_bytes': len(stderr.encode()), 'final': False}


def test_a_reader_gets_what_is_new_from_the_byte_totals():
    snapshot = live.Snapshot.of(_snapshot(3, 'one\ntwo\n', 'warn\n'))
    assert snapshot.unseen('stdout', 0) == ('one\ntwo\n', 0)
    assert snapshot.unseen('stdout', 4) == ('two\n', 0)
    assert snapshot.unseen('stdout', 8) == ('', 0)
    assert snapshot.unseen('stderr', 0) == ('warn\n', 0)
    # A reader who has more than there is (a page of an older run) gets nothing.
    assert snapshot.unseen('stdout', 50) == ('', 0)


def test_what_scrolled_past_the_tail_is_counted_not_shown():
    # The tail is the stream's last 8 bytes of 1,000.
    snapshot = live.Snapshot.of(_snapshot(9, 'line 99\n', stdout_bytes=1000))
    assert snapshot.unseen('stdout', 0) == ('line 99\n', 992)
    assert snapshot.unseen('stdout', 990) == ('line 99\n', 2)
    assert snapshot.unseen('stdout', 997) == ('99\n', 0)


def test_a_cut_inside_a_character_leaves_the_whole_character_out():
    # "é" is two bytes: a reader with "caf" and one byte of it is shown the rest.
    snapshot = live.Snapshot.of(_snapshot(2, 'café ok\n'))
    assert snapshot.unseen('stdout', 4) == (' ok\n', 1)
    assert snapshot.unseen('stdout', 3) == ('é ok\n', 0)


def _runs(transport, count, live_output_asked=True):
    """The derived configs of ``count`` runs started in one submit, by id."""
    heat, swift, zaqar = FakeHeat(), FakeSwift(), FakeZaqar()
    config_id = heat.add_config(group='script', config='#!/bin/sh\n', inputs=[])
    find = functools.partial(transport_for, swift=swift, zaqar=zaqar)
    started = start(heat, find, RunRequest(
        config_id=config_id, action='BACKUP', transport=transport, live=live_output_asked,
        server_ids=tuple(f's{n}' for n in range(count))))
    return {run.id: run.config for run in started.created}, swift, zaqar, find


def _values(config):
    return {each['name']: each['value'] for each in config['inputs']}


def _sent_to_swift(swift, config, stdout):
    values = _values(config)
    container, object_name = signal_location(values)
    swift.put_object(container, live.object_name(object_name), json.dumps(_snapshot(1, stdout)),
                     content_type='application/json; line='
                     + parse.quote(live.last_line(stdout), safe=''))


def test_the_last_lines_of_a_submits_runs_take_one_listing_and_no_get():
    configs, swift, _zaqar, find = _runs('TEMP_URL_SIGNAL', 3)
    first, second, _third = configs
    _sent_to_swift(swift, configs[first], 'a\nb\n')
    _sent_to_swift(swift, configs[second], 'step <1>\n')
    listings = len(swift.called('get_container'))

    assert live_output.last_lines(configs, find) == {first: 'b', second: 'step <1>'}
    assert len(swift.called('get_container')) == listings + 1
    assert swift.called('get_object') == []


def test_runs_without_a_live_target_are_not_looked_at():
    configs, swift, _zaqar, find = _runs('TEMP_URL_SIGNAL', 2, live_output_asked=False)
    listings = len(swift.called('get_container'))

    assert live_output.last_lines(configs, find) == {}
    assert len(swift.called('get_container')) == listings
    assert live_output.latest(next(iter(configs.values())), find) is None


def test_a_zaqar_runs_latest_snapshot_and_last_line():
    configs, _swift, zaqar, find = _runs('ZAQAR_SIGNED_URL_SIGNAL', 1)
    [(run_id, config)] = configs.items()
    assert live_output.latest(config, find) is None
    zaqar.queue(_values(config)[live.LIVE_QUEUE]).post(
        [{'body': _snapshot(4, 'x\ny\n'), 'ttl': 60}])

    assert live_output.latest(config, find).stdout == 'x\ny\n'
    assert live_output.last_lines(configs, find) == {run_id: 'y'}


def test_a_transport_the_user_cannot_have_reads_nothing():
    configs, _swift, _zaqar, _find = _runs('TEMP_URL_SIGNAL', 1)

    def without_object_storage(name):
        raise InputError(Message('no Object Storage'))
    assert live_output.last_lines(configs, without_object_storage) == {}
    assert live_output.latest(next(iter(configs.values())), without_object_storage) is None
