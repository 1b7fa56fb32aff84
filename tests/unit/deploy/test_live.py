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

"""Live output's targets (signalling/live.py): made beside the signal target when asked,
read in one look per place, and removed with the run."""

import json
from urllib import parse

import pytest

from heat_deploy_runner.configs import derived
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling import live
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner.signalling.tempurl import TempUrlSignal
from heat_deploy_runner.signalling.zaqar import ZaqarSignedUrlSignal
from heat_deploy_runner import start
from heat_deploy_runner import transport_for

from .fakes import FakeHeat
from .fakes import FakeSwift
from .zaqar_fakes import FakeZaqar


def _snapshot(seq, stdout='', stderr='', final=False):
    return json.dumps({'seq': seq, 'stdout': stdout, 'stderr': stderr,
                       'stdout_bytes': len(stdout.encode()),
                       'stderr_bytes': len(stderr.encode()), 'final': final})


def _sent(swift, values, seq, stdout, line):
    """What the streaming hook PUTs through the live URL."""
    container, object_name = signal_location(values)
    swift.put_object(container, live.object_name(object_name), _snapshot(seq, stdout),
                     content_type='application/json; line=' + parse.quote(line, safe=''))


def test_a_tempurl_run_without_live_output_gets_no_live_target():
    target = TempUrlSignal(FakeSwift()).prepare('run', 60)
    assert not live.is_live(target.values)
    assert [each['name'] for each in target.inputs] == ['deploy_signal_id', 'deploy_signal_verb']


def test_a_tempurl_live_target_is_a_put_url_of_an_object_beside_the_signal_object():
    swift = FakeSwift()
    values = TempUrlSignal(swift).prepare('run', 30, live=True).values
    container, object_name = signal_location(values)
    url = parse.urlparse(values[live.LIVE_URL])
    assert url.path.endswith(f'/{container}/live/{object_name}')
    assert parse.parse_qs(url.query)['temp_url_expires'] == parse.parse_qs(
        parse.urlparse(values['deploy_signal_id']).query)['temp_url_expires']
    # Nothing is made for it: the hook's first PUT makes it.
    assert swift.containers == {container: {object_name: b''}}


def test_a_tempurl_runs_live_output_is_its_latest_snapshot():
    swift = FakeSwift()
    transport = TempUrlSignal(swift)
    values = transport.prepare('run', 60, live=True).values
    assert transport.live_output(values) is None
    _sent(swift, values, 1, 'one\n', 'one')
    _sent(swift, values, 2, 'one\ntwo\n', 'two')
    snapshot = transport.live_output(values)
    assert (snapshot.seq, snapshot.stdout, snapshot.last_line) == (2, 'one\ntwo\n', 'two')


def test_the_last_lines_of_a_submits_runs_take_one_listing():
    swift = FakeSwift()
    transport = TempUrlSignal(swift)
    runs = [transport.prepare('run', 60, live=True).values for _each in range(3)]
    _sent(swift, runs[0], 4, 'a\nb\n', 'b')
    _sent(swift, runs[2], 1, 'élan 100%\n', 'élan 100%')
    listings = len(swift.called('get_container'))
    assert transport.live_lines(runs) == ['b', None, 'élan 100%']
    assert len(swift.called('get_container')) == listings + 1
    assert swift.called('get_object') == []


def test_a_tempurl_runs_live_object_goes_with_it_and_so_does_the_container():
    swift = FakeSwift()
    transport = TempUrlSignal(swift)
    values = transport.prepare('run', 60, live=True).values
    _sent(swift, values, 1, 'one\n', 'one')
    transport.cleanup(values, may_still_report=True)
    assert swift.containers == {}


def test_a_live_object_of_a_run_still_going_keeps_nothing_of_a_removed_one():
    swift = FakeSwift()
    transport = TempUrlSignal(swift)
    kept, removed = (transport.prepare('run', 60, live=True).values for _each in range(2))
    for values in (kept, removed):
        _sent(swift, values, 1, 'x\n', 'x')
    transport.cleanup(removed)
    container, object_name = signal_location(kept)
    assert set(swift.containers[container]) == {live.object_name(object_name), object_name}
    transport.cleanup(kept)
    assert swift.containers == {}


def test_a_zaqar_live_target_is_a_queue_of_its_own_signed_for_post_and_delete():
    zaqar = FakeZaqar()
    values = ZaqarSignedUrlSignal(zaqar).prepare('run', 30, live=True).values
    assert values[live.LIVE_QUEUE] != values['deploy_zaqar_queue']
    assert values[live.LIVE_QUEUE].startswith('live-run-')
    assert values[live.LIVE_METHODS] == 'POST,DELETE'
    assert values[live.LIVE_PATHS].endswith(f'/{values[live.LIVE_QUEUE]}/messages')
    assert sorted(zaqar.queues) == sorted([values['deploy_zaqar_queue'],
                                           values[live.LIVE_QUEUE]])


def test_a_zaqar_runs_live_output_is_its_newest_snapshot_and_goes_with_it():
    zaqar = FakeZaqar()
    transport = ZaqarSignedUrlSignal(zaqar)
    values = transport.prepare('run', 60, live=True).values
    assert transport.live_output(values) is None
    queue = zaqar.queue(values[live.LIVE_QUEUE])
    queue.post([{'body': json.loads(_snapshot(3, 'c\n')), 'ttl': 60},
                {'body': json.loads(_snapshot(2, 'b\n')), 'ttl': 60},
                {'body': 'not a snapshot', 'ttl': 60}])
    assert transport.live_output(values).seq == 3
    assert transport.live_lines([values]) == ['c']
    transport.cleanup(values, may_still_report=True)
    assert set(zaqar.queues) <= {'heat-deploy-deleted-signal-queues'}
    notes = [each['body']['queue'] for each in zaqar.queues.get(
        'heat-deploy-deleted-signal-queues', [])]
    assert sorted(notes) == sorted([values['deploy_zaqar_queue'], values[live.LIVE_QUEUE]])


def test_a_failed_live_queue_removes_the_signal_queue_too():
    zaqar = FakeZaqar()
    zaqar.fail('queue.signed_url', RuntimeError('no'),
               when=lambda name, **kwargs: name.startswith('live-'))
    with pytest.raises(RuntimeError):
        ZaqarSignedUrlSignal(zaqar).prepare('run', 60, live=True)
    assert zaqar.queues == {}


@pytest.mark.parametrize('body', [b'', b'[]', b'{"seq": "1"}', 'not json', None, 7])
def test_what_is_not_a_snapshot_is_none(body):
    assert live.Snapshot.of(body) is None


def test_a_snapshot_of_stderr_alone_tells_its_last_line():
    assert live.Snapshot.of(_snapshot(1, '', 'oops\n\n')).last_line == 'oops'
    assert live.line_of('application/json; line=a%20b%3Bc') == 'a b;c'
    assert live.line_of('application/json') == ''
    assert live.line_of(None) == ''


def _started(live_output, transport='TEMP_URL_SIGNAL'):
    heat, swift, zaqar = FakeHeat(), FakeSwift(), FakeZaqar()
    config_id = heat.add_config(group='script', config='#!/bin/sh\n', inputs=[
        {'name': 'db_password', 'type': 'String'}, {'name': 'api_token', 'type': 'String'},
        {'name': 'target', 'type': 'String'}])
    start(heat, lambda name: transport_for(name, swift=swift, zaqar=zaqar), RunRequest(
        config_id=config_id, action='BACKUP', server_ids=('s1',), transport=transport,
        input_values={'db_password': 'hunter22', 'api_token': '', 'target': 'x'},
        live=live_output))
    [made] = [each for each in heat.configs.values() if each['id'] != config_id]
    return derived.derived_input_values(made)


@pytest.mark.parametrize('transport', ['TEMP_URL_SIGNAL', 'ZAQAR_SIGNED_URL_SIGNAL'])
def test_a_live_run_tells_its_hook_which_inputs_to_leave_out(transport):
    values = _started(True, transport)
    assert live.is_live(values)
    # Secrets with a value, the live target's own signature among them where it has one.
    secrets = json.loads(values[live.LIVE_SECRETS])
    assert 'db_password' in secrets
    # The signed URLs and signatures a script that prints its environment would show.
    assert {'deploy_signal_id', live.LIVE_URL} <= set(secrets) or {
        'deploy_zaqar_signature', live.LIVE_SIGNATURE} <= set(secrets)
    assert 'api_token' not in json.loads(values[live.LIVE_SECRETS])
    assert 'target' not in json.loads(values[live.LIVE_SECRETS])


def test_a_run_without_live_output_tells_its_hook_nothing():
    values = _started(False)
    assert not live.is_live(values)
    assert live.LIVE_SECRETS not in values


def test_live_output_is_kept_through_mistral_and_a_schedules_record():
    request = RunRequest(config_id='c', action='BACKUP', server_ids=('s',), live=True)
    assert RunRequest.from_workflow_input(request.workflow_input('me')).live is True
    assert RunRequest.from_record(request.record()).live is True
    # What an older workflow or record holds: no live output.
    old = {key: value for key, value in request.record().items() if key != 'live'}
    assert RunRequest.from_record(old).live is False
