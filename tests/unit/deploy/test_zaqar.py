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

import datetime
import re

import pytest
from zaqarclient.transport import errors as zaqar_errors

from heat_deploy_runner import masking
from heat_deploy_runner.signalling import zaqar
from heat_deploy_runner.signalling.zaqar import ZaqarSignedUrlSignal

from .zaqar_fakes import FakeZaqar
from .zaqar_fakes import MESSAGING_PROJECT
from .zaqar_fakes import MESSAGING_URL

# What both python-zaqarclient (its Queue refuses other characters) and the
# Zaqar server (64 characters at most) accept as a queue name.
ZAQAR_QUEUE_NAME = re.compile(r'^[A-Za-z0-9_-]{1,64}$')


def _prepared(name='mysql-BACKUP', **fake):
    client = FakeZaqar(**fake)
    transport = ZaqarSignedUrlSignal(client)
    values = transport.prepare(name, 60).values
    return client, transport, values


def test_prepare_makes_a_queue_and_points_the_server_at_it():
    client = FakeZaqar()
    before = datetime.datetime.now(datetime.timezone.utc).replace(
        tzinfo=None, microsecond=0)
    target = ZaqarSignedUrlSignal(client).prepare('mysql-BACKUP', 30)

    values = target.values
    queue = values['deploy_zaqar_queue']
    assert queue.startswith('mysql-BACKUP-')
    assert client.queues == {queue: []}
    [signed] = client.signed
    assert values == {
        'deploy_zaqar_endpoint': MESSAGING_URL,
        'deploy_zaqar_queue': queue,
        'deploy_zaqar_project_id': MESSAGING_PROJECT,
        'deploy_zaqar_paths': f'/v2/queues/{queue}/messages',
        'deploy_zaqar_methods': 'POST',
        'deploy_zaqar_expires': signed['expires'],
        'deploy_zaqar_signature': signed['signature'],
    }
    expires = datetime.datetime.strptime(values['deploy_zaqar_expires'],
                                         '%Y-%m-%dT%H:%M:%S')
    assert (before + datetime.timedelta(minutes=30) <= expires <=
            before + datetime.timedelta(minutes=31))


def test_prepare_signs_post_to_the_queues_messages_for_the_timeout():
    client = FakeZaqar()
    ZaqarSignedUrlSignal(client).prepare('run', 45)
    [(_method, _args, kwargs)] = client.called('queue.signed_url')
    assert kwargs == {'paths': ['messages'], 'methods': ['POST'],
                      'ttl_seconds': 45 * 60}
    [(_method, _args, kwargs)] = [call for call in client.called('queue')
                                  if call[1][0] != zaqar.DELETED_QUEUES]
    assert kwargs['force_create'] is True


def test_every_input_is_a_described_string():
    target = ZaqarSignedUrlSignal(FakeZaqar()).prepare('run', 60)
    assert len(target.inputs) == 7
    for each in target.inputs:
        assert each['type'] == 'String'
        assert each['description']


def test_the_signature_input_is_masked_and_nothing_else_is():
    target = ZaqarSignedUrlSignal(FakeZaqar()).prepare('run', 60)
    masked = {each['name']: each['value']
              for each in masking.mask_tree(list(target.inputs))}
    assert zaqar.SIGNATURE.endswith('signature')
    assert masked[zaqar.SIGNATURE] == masking.MASK
    assert target.values[zaqar.SIGNATURE] != masking.MASK
    assert {name: value for name, value in masked.items()
            if name != zaqar.SIGNATURE} == {
        name: value for name, value in target.values.items()
        if name != zaqar.SIGNATURE}


@pytest.mark.parametrize('name', [
    'my config/ä x-BACKUP',
    # Zaqar's server takes dots, python-zaqarclient's Queue does not.
    'db.example.com-BACKUP',
    # A Heat-made component config's name with its action: 30 characters.
    'demo-mysql-yy352j5ma4zz-BACKUP',
    'x' * 300,
    '---',
])
def test_the_queue_name_is_one_zaqar_accepts(name):
    client, _transport, values = _prepared(name)
    queue = values['deploy_zaqar_queue']
    assert ZAQAR_QUEUE_NAME.match(queue)
    assert queue in client.queues


def test_two_runs_of_one_name_get_their_own_queues():
    client = FakeZaqar()
    transport = ZaqarSignedUrlSignal(client)
    first = transport.prepare('run', 60).values['deploy_zaqar_queue']
    second = transport.prepare('run', 60).values['deploy_zaqar_queue']
    assert first != second
    assert set(client.queues) == {first, second}


def test_a_failed_signing_removes_the_queue():
    client = FakeZaqar()
    client.fail('queue.signed_url', zaqar_errors.ForbiddenError())
    with pytest.raises(zaqar_errors.ForbiddenError):
        ZaqarSignedUrlSignal(client).prepare('run', 60)
    assert client.queues == {}
    assert len(client.called('queue.delete')) == 1


def test_a_failed_signing_is_reported_even_if_the_queue_stays():
    client = FakeZaqar()
    client.fail('queue.signed_url', zaqar_errors.ForbiddenError())
    client.fail('queue.delete', zaqar_errors.ServiceUnavailableError())
    with pytest.raises(zaqar_errors.ForbiddenError):
        ZaqarSignedUrlSignal(client).prepare('run', 60)


# read_result


def test_read_result_is_none_until_the_server_sends():
    _client, transport, values = _prepared()
    assert transport.read_result(values) is None


def test_read_result_returns_the_newest_result_and_leaves_it():
    client, transport, values = _prepared()
    queue = values['deploy_zaqar_queue']
    client.post(queue, {'deploy_stdout': 'first'})
    client.post(queue, {'deploy_stdout': 'second'})
    assert transport.read_result(values) == {'deploy_stdout': 'second'}
    assert len(client.queues[queue]) == 2


@pytest.mark.parametrize('body', ['not an object', [1, 2], None, 3])
def test_read_result_ignores_what_is_not_a_result(body):
    client, transport, values = _prepared()
    queue = values['deploy_zaqar_queue']
    client.post(queue, body)
    assert transport.read_result(values) is None
    client.post(queue, {'deploy_stdout': 'done'})
    client.post(queue, body)
    assert transport.read_result(values) == {'deploy_stdout': 'done'}


def test_read_result_sees_a_claimed_result_once_it_is_released():
    # Not while held: include_claimed makes Zaqar 23's Redis store fail.
    client, transport, values = _prepared()
    client.post(values['deploy_zaqar_queue'], {'deploy_stdout': 'done'})
    claimed = transport.claim_result(values)
    assert transport.read_result(values) is None
    claimed.release()
    assert transport.read_result(values) == {'deploy_stdout': 'done'}


def test_read_result_finds_the_newest_of_more_than_the_default_page():
    client, transport, values = _prepared()
    queue = values['deploy_zaqar_queue']
    for number in range(11):
        client.post(queue, {'deploy_stdout': str(number)})
    assert transport.read_result(values) == {'deploy_stdout': '10'}
    [(_method, _args, kwargs)] = [call for call in client.called('queue.messages')
                                  if call[1][0] == queue]
    assert kwargs['limit'] == 20


# What a read and a claim share: a queue that is gone has no result, and any
# other error reaches the caller.
LOOKS = [('read_result', 'queue.messages'), ('claim_result', 'queue.claim')]


@pytest.mark.parametrize('lazy_queues', [True, False])
@pytest.mark.parametrize('look, _call', LOOKS)
def test_a_removed_queue_has_no_result(look, _call, lazy_queues):
    _client, transport, values = _prepared(lazy_queues=lazy_queues)
    transport.cleanup(values)
    assert getattr(transport, look)(values) is None


@pytest.mark.parametrize('look, call', LOOKS)
def test_looking_for_a_result_reports_real_errors(look, call):
    client, transport, values = _prepared()
    client.fail(call, zaqar_errors.ServiceUnavailableError())
    with pytest.raises(zaqar_errors.ServiceUnavailableError):
        getattr(transport, look)(values)


# claim_result


def test_claim_result_holds_the_result_for_one_caller():
    client, transport, values = _prepared()
    client.post(values['deploy_zaqar_queue'], {'deploy_stdout': 'done'})
    first = transport.claim_result(values)
    assert first.result == {'deploy_stdout': 'done'}
    assert transport.claim_result(values) is None


def test_claim_result_claims_one_message_briefly():
    client, transport, values = _prepared()
    client.post(values['deploy_zaqar_queue'], {'deploy_stdout': 'done'})
    transport.claim_result(values)
    [(_method, _args, kwargs)] = client.called('queue.claim')
    assert kwargs == {'ttl': 60, 'grace': 60, 'limit': 1}


def test_claim_result_is_none_when_nothing_was_sent():
    _client, transport, values = _prepared()
    assert transport.claim_result(values) is None


def test_a_released_result_can_be_claimed_again():
    client, transport, values = _prepared()
    client.post(values['deploy_zaqar_queue'], {'deploy_stdout': 'done'})
    transport.claim_result(values).release()
    assert client.claimed(values['deploy_zaqar_queue']) == []
    again = transport.claim_result(values)
    assert again.result == {'deploy_stdout': 'done'}


def test_a_consumed_result_is_gone():
    client, transport, values = _prepared()
    queue = values['deploy_zaqar_queue']
    client.post(queue, {'deploy_stdout': 'done'})
    transport.claim_result(values).consume()
    assert client.queues[queue] == []
    assert transport.claim_result(values) is None
    assert transport.read_result(values) is None


def test_a_message_that_is_not_a_result_is_dropped_not_applied():
    client, transport, values = _prepared()
    queue = values['deploy_zaqar_queue']
    client.post(queue, 'garbage')
    client.post(queue, {'deploy_stdout': 'done'})
    assert transport.claim_result(values) is None
    assert [m['body'] for m in client.queues[queue]] == [
        {'deploy_stdout': 'done'}]
    assert transport.claim_result(values).result == {'deploy_stdout': 'done'}


# cleanup


def test_cleanup_removes_the_queue_and_its_messages():
    client, transport, values = _prepared()
    client.post(values['deploy_zaqar_queue'], {'deploy_stdout': 'done'})
    transport.cleanup(values)
    assert client.queues == {}


@pytest.mark.parametrize('lazy_queues', [True, False])
def test_cleanup_of_a_queue_already_gone_is_fine(lazy_queues):
    client, transport, values = _prepared(lazy_queues=lazy_queues)
    transport.cleanup(values)
    transport.cleanup(values)
    assert client.queues == {}


def test_cleanup_reports_real_errors():
    client, transport, values = _prepared()
    client.fail('queue.delete', zaqar_errors.ForbiddenError())
    with pytest.raises(zaqar_errors.ForbiddenError):
        transport.cleanup(values)


def _noted(client):
    return [m['body']['queue'] for m in client.queues.get(zaqar.DELETED_QUEUES, [])]


def test_a_queue_deleted_while_its_server_may_report_is_deleted_again_later():
    client, transport, values = _prepared()
    queue = values['deploy_zaqar_queue']
    transport.cleanup(values, may_still_report=True)
    assert queue not in client.queues
    assert _noted(client) == [queue]
    # The server's late POST through its signed URL makes the queue again.
    client.post(queue, {'deploy_stdout': 'secret output'})

    ZaqarSignedUrlSignal(client).prepare('another-run', 60)

    assert queue not in client.queues
    # Noted on until its URL expires: the server may post once more.
    assert _noted(client) == [queue]


def test_a_note_is_dropped_once_the_queues_url_has_expired(monkeypatch):
    client, transport, values = _prepared()
    transport.cleanup(values, may_still_report=True)
    later = zaqar._time(values['deploy_zaqar_expires']) + datetime.timedelta(seconds=1)
    monkeypatch.setattr(zaqar, '_now', lambda: later)
    client.post(values['deploy_zaqar_queue'], {'deploy_stdout': 'late'})

    ZaqarSignedUrlSignal(client).prepare('another-run', 60)

    assert values['deploy_zaqar_queue'] not in client.queues
    assert _noted(client) == []


def test_the_note_lives_until_the_url_expires():
    client, transport, values = _prepared()
    transport.cleanup(values, may_still_report=True)
    [note] = client.queues[zaqar.DELETED_QUEUES]
    assert 59 * 60 < note['ttl'] <= 61 * 60


def test_a_finished_runs_queue_is_not_noted_nor_the_notes_read():
    client, _transport, values = _prepared()
    made = len(client.calls)
    # A delete's own transport, as each delete finds one.
    ZaqarSignedUrlSignal(client).cleanup(values)
    assert _noted(client) == []
    assert [call[0] for call in client.calls[made:]] == ['queue', 'queue.delete']


def test_a_sweep_that_fails_does_not_stop_the_run():
    client = FakeZaqar()
    client.fail('queue.messages', zaqar_errors.ServiceUnavailableError())
    target = ZaqarSignedUrlSignal(client).prepare('run', 60)
    assert target.values['deploy_zaqar_queue'] in client.queues


def test_a_look_at_the_queues_counts_tells_whether_a_result_may_be_there():
    client, transport, values = _prepared()
    assert not transport.may_have_result(values)
    client.post(values['deploy_zaqar_queue'], {'deploy_stdout': 'done'})
    assert transport.may_have_result(values)
    # Claimed by another page meanwhile: that page applies it; Heat shows it next.
    transport.claim_result(values)
    assert transport.may_have_result(values)


def test_a_look_that_fails_leaves_it_to_the_claim():
    client, transport, values = _prepared()
    client.fail('queue.stats', zaqar_errors.ServiceUnavailableError())
    assert transport.may_have_result(values)
