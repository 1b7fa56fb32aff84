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

import hashlib
import hmac
import json
import time
from urllib import parse

import pytest
import requests
from swiftclient.client import Connection
from swiftclient.exceptions import ClientException
import urllib3

from heat_deploy_runner import NotAnswering
from heat_deploy_runner.signalling.swift_urls import storage_url
from heat_deploy_runner.signalling.tempurl import LEFT
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner.signalling.tempurl import TempUrlSignal

from .fakes import FakeSwift

KEY_HEADER = 'x-account-meta-temp-url-key'


def _signed_by(url, key, method='PUT'):
    """Check a TempURL the way Swift's tempurl middleware does."""
    parsed = parse.urlparse(url)
    query = parse.parse_qs(parsed.query)
    expires = query['temp_url_expires'][0]
    swift_path = parsed.path[parsed.path.index('/v1/'):]
    expected = hmac.new(key.encode(),
                        f'{method}\n{expires}\n{swift_path}'.encode(),
                        hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, query['temp_url_sig'][0])


def test_prepare_makes_a_container_an_empty_object_and_a_put_url():
    swift = FakeSwift(account_headers={KEY_HEADER: 'secret'})
    before = time.time()
    target = TempUrlSignal(swift).prepare('mysql-BACKUP', 30)

    url = target.values['deploy_signal_id']
    assert target.values['deploy_signal_verb'] == 'PUT'
    container, object_name = signal_location(target.values)
    assert container.startswith('mysql-BACKUP-')
    assert swift.containers == {container: {object_name: b''}}
    assert url.startswith('http://swift.example.com:8080/v1/AUTH_project/'
                          f'{container}/{object_name}?')
    assert _signed_by(url, 'secret')
    expires = int(parse.parse_qs(parse.urlparse(url).query)
                  ['temp_url_expires'][0])
    assert int(before) + 30 * 60 <= expires <= time.time() + 30 * 60


def test_an_existing_key_is_never_overwritten():
    swift = FakeSwift(account_headers={KEY_HEADER: 'theirs'})
    target = TempUrlSignal(swift).prepare('run', 60)
    assert swift.called('post_account') == []
    assert swift.account[KEY_HEADER] == 'theirs'
    assert _signed_by(target.values['deploy_signal_id'], 'theirs')


def test_the_second_account_key_is_used_when_it_is_the_only_one():
    swift = FakeSwift(account_headers={KEY_HEADER + '-2': 'second'})
    target = TempUrlSignal(swift).prepare('run', 60)
    assert swift.called('post_account') == []
    assert _signed_by(target.values['deploy_signal_id'], 'second')


def test_a_missing_key_is_set_once_and_reused():
    swift = FakeSwift()
    transport = TempUrlSignal(swift)
    first = transport.prepare('run', 60)
    second = transport.prepare('run', 60)
    assert len(swift.called('post_account')) == 1
    key = swift.account[KEY_HEADER]
    assert len(key) == 32
    assert _signed_by(first.values['deploy_signal_id'], key)
    assert _signed_by(second.values['deploy_signal_id'], key)
    assert len(swift.called('head_account')) == 2


def test_a_storage_url_prefix_stays_in_the_url_but_not_in_the_signature():
    swift = FakeSwift(url='https://cloud.example.com/swift/v1/AUTH_p/',
                      account_headers={KEY_HEADER: 'k'})
    url = TempUrlSignal(swift).prepare('run', 60).values['deploy_signal_id']
    assert url.startswith('https://cloud.example.com/swift/v1/AUTH_p/run-')
    assert _signed_by(url, 'k')


def test_names_are_made_safe_for_a_url_path():
    swift = FakeSwift(account_headers={KEY_HEADER: 'k'})
    target = TempUrlSignal(swift).prepare('my config/ä x-BACKUP', 60)
    container, _object = signal_location(target.values)
    assert container.startswith('my-config-x-BACKUP-')
    assert parse.quote(container) == container
    assert container in swift.containers


def test_storage_url_of_a_preauthenticated_connection():
    url = 'http://swift.example.com/v1/AUTH_p'
    connection = Connection(preauthurl=url, preauthtoken='token')
    assert storage_url(connection) == url
    # swiftclient forgets .url after a 401, but keeps the preauthurl.
    connection.url = None
    assert storage_url(connection) == url


def test_storage_url_authenticates_when_nothing_is_known():
    class AuthOnly(Connection):
        def get_auth(self):
            return 'http://swift.example.com/v1/AUTH_q', 'token'

    assert storage_url(AuthOnly()) == 'http://swift.example.com/v1/AUTH_q'


@pytest.mark.parametrize('failing', ['put_object', 'head_account'])
def test_a_failed_prepare_leaves_nothing(failing):
    swift = FakeSwift()
    swift.fail(failing, ClientException('503', http_status=503))
    with pytest.raises(ClientException):
        TempUrlSignal(swift).prepare('run', 60)
    assert swift.containers == {}


def _prepared():
    swift = FakeSwift(account_headers={KEY_HEADER: 'k'})
    transport = TempUrlSignal(swift)
    values = transport.prepare('run', 60).values
    container, object_name = signal_location(values)
    return swift, transport, values, container, object_name


def test_read_result_is_none_until_the_server_sends():
    swift, transport, values, _c, _o = _prepared()
    assert transport.read_result(values) is None


def test_read_result_returns_what_the_server_sent():
    swift, transport, values, container, object_name = _prepared()
    sent = {'deploy_stdout': 'done', 'deploy_status_code': 0}
    swift.containers[container][object_name] = json.dumps(sent).encode()
    assert transport.read_result(values) == sent


@pytest.mark.parametrize('body', [b'not json', b'[1, 2]', b'  \n'])
def test_read_result_ignores_what_is_not_a_result(body):
    swift, transport, values, container, object_name = _prepared()
    swift.containers[container][object_name] = body
    assert transport.read_result(values) is None


def test_read_result_of_a_removed_target_is_none():
    swift, transport, values, _c, _o = _prepared()
    transport.cleanup(values)
    assert transport.read_result(values) is None


def test_may_have_result_is_false_while_the_object_is_empty():
    swift, transport, values, container, object_name = _prepared()
    assert transport.may_have_result(values) is False
    swift.containers[container][object_name] = b'{"deploy_status_code": 0}'
    assert transport.may_have_result(values) is True
    # One HEAD each time: the body is Heat's to read.
    assert len(swift.called('head_object')) == 2
    assert not swift.called('get_object')


def test_may_have_result_leaves_a_missing_object_or_an_error_to_heat():
    swift, transport, values, _c, _o = _prepared()
    swift.fail('head_object', ClientException('busy', http_status=503))
    assert transport.may_have_result(values) is True
    swift.fail('head_object', ClientException('gone', http_status=404))
    assert transport.may_have_result(values) is True
    swift.fail('head_object', ConnectionResetError('the proxy went away'))
    assert transport.may_have_result(values) is True
    # A kept connection the proxy closed, as requests says it.
    swift.fail('head_object', requests.exceptions.ConnectionError(
        urllib3.exceptions.ProtocolError('aborted', ConnectionResetError())))
    assert transport.may_have_result(values) is True


@pytest.mark.parametrize('unreachable', [
    requests.exceptions.ConnectionError(urllib3.exceptions.MaxRetryError(
        None, '/v1/AUTH_p/c/o', urllib3.exceptions.NewConnectionError(
            None, 'Failed to establish a new connection: [Errno 111] Connection refused'))),
    requests.exceptions.ConnectTimeout('connect timed out'),
    # The dashboard's pool holding back a host that did not answer a moment ago.
    requests.exceptions.ConnectionError('127.0.0.1:8080 did not answer a moment ago')])
def test_object_storage_not_answering_is_said_before_heat_waits_on_it(unreachable):
    # Heat's show would wait on the same Object Storage for about half a minute.
    swift, transport, values, _c, _o = _prepared()
    swift.fail('head_object', unreachable)
    with pytest.raises(NotAnswering):
        transport.may_have_result(values)


@pytest.mark.parametrize('versioned', [False, True])
def test_cleanup_removes_the_object_its_versions_and_the_container(
        versioned):
    swift, transport, values, container, object_name = _prepared()
    if versioned:
        swift.put_container(container,
                            headers={'x-versions-location': container})
    objects = swift.containers[container]
    objects[f'{len(object_name):03x}{object_name}/1700000000.00000'] = b'{}'
    objects[f'{len(object_name):03x}{object_name}/1700000001.00000'] = b'{}'
    transport.cleanup(values)
    assert swift.containers == {}


def test_cleanup_leaves_other_signals_in_a_shared_container():
    swift, transport, values, container, object_name = _prepared()
    swift.containers[container]['other-resource-signal'] = b''
    transport.cleanup(values)
    assert swift.containers == {container: {'other-resource-signal': b''}}


def test_cleanup_of_something_already_gone_is_fine():
    swift, transport, values, container, object_name = _prepared()
    transport.cleanup(values)
    transport.cleanup(values)
    # The object gone but not yet its container, as after an interruption.
    swift.containers[container] = {}
    transport.cleanup(values)
    assert swift.containers == {}


def test_cleanup_reports_real_errors():
    swift, transport, values, _c, _o = _prepared()
    swift.fail('delete_object', ClientException('403', http_status=403))
    with pytest.raises(ClientException):
        transport.cleanup(values)


def test_one_transport_keeps_a_names_runs_in_one_container_and_others_apart():
    swift = FakeSwift(account_headers={KEY_HEADER: 'secret'})
    transport = TempUrlSignal(swift)
    first, second = (signal_location(transport.prepare('mysql-BACKUP', 60).values)
                     for _ in range(2))
    other = signal_location(transport.prepare('web-PING', 60).values)
    later = signal_location(TempUrlSignal(swift).prepare('mysql-BACKUP', 60).values)
    assert first[0] == second[0] and first[1] != second[1]
    assert len({first[0], other[0], later[0]}) == 3


def test_may_have_results_lists_a_shared_container_once():
    swift = FakeSwift(account_headers={KEY_HEADER: 'secret'})
    transport = TempUrlSignal(swift)
    many = [transport.prepare('run', 60).values for _ in range(3)]
    container, object_name = signal_location(many[1])
    swift.containers[container][object_name] = b'{"deploy_status_code": 0}'
    assert transport.may_have_results(many) == [False, True, False]
    assert [call[1] for call in swift.called('get_container')] == [(LEFT,), (container,)]
    assert not swift.called('head_object')
    # Apart, or alone: a HEAD each.
    alone = TempUrlSignal(swift).prepare('run', 60).values
    assert transport.may_have_results([many[0], alone]) == [False, False]
    assert transport.may_have_results([alone]) == [False]
    assert len(swift.called('head_object')) == 3


def test_the_last_of_a_shared_containers_runs_removed_takes_it():
    swift = FakeSwift(account_headers={KEY_HEADER: 'secret'})
    transport = TempUrlSignal(swift)
    first, second = (transport.prepare('run', 60).values for _ in range(2))
    container, _object_name = signal_location(first)
    transport.cleanup(first)
    assert list(swift.containers) == [container]
    transport.cleanup(second)
    assert swift.containers == {}


def _late_result(swift, values):
    """What a removed run's server does when its script ends: PUT through its TempURL, which
    makes the object again wherever its container still is."""
    container, object_name = signal_location(values)
    if container in swift.containers:
        swift.containers[container][object_name] = b'{"deploy_status_code": 0}'


def _submit(runs):
    swift = FakeSwift(account_headers={KEY_HEADER: 'secret'})
    transport = TempUrlSignal(swift)
    return swift, transport, [transport.prepare('run', 60).values for _ in range(runs)]


def test_a_removed_runs_late_result_goes_with_the_containers_last_run():
    swift, transport, (first, second, third) = _submit(3)
    transport.cleanup(first, may_still_report=True)
    _late_result(swift, first)
    transport.cleanup(second)
    assert list(swift.containers) == [signal_location(third)[0]]
    transport.cleanup(third, may_still_report=True)
    _late_result(swift, third)
    assert swift.containers == {}


def test_a_late_result_landing_as_the_container_goes_is_removed_on_another_try():
    swift, transport, (first, second) = _submit(2)
    transport.cleanup(first, may_still_report=True)
    landing = iter([first, second])
    # Each time the container is about to go, a removed run's result lands first.
    swift.fail('delete_container', None, when=lambda container: bool(
        _late_result(swift, next(landing, {'deploy_signal_id': '/x/y'}))))
    transport.cleanup(second, may_still_report=True)
    assert swift.containers == {}
    assert len(swift.called('delete_container')) == 3


def test_what_late_results_leave_after_every_try_is_noted_and_swept_later():
    swift, transport, (first, second) = _submit(2)
    container = signal_location(first)[0]
    transport.cleanup(first, may_still_report=True)
    swift.fail('delete_container', None, when=lambda name: bool(
        name == container and _late_result(swift, first)))
    transport.cleanup(second, may_still_report=True)
    assert set(swift.containers) == {container, LEFT}
    assert list(swift.containers[LEFT]) == [container]

    swift.fail('delete_container', None, when=lambda name: False)
    later = TempUrlSignal(swift)
    later.prepare('another', 60)
    assert set(swift.containers) == {signal_location(later.prepare('another', 60).values)[0]}


def test_a_run_that_cannot_report_again_leaves_no_mark():
    swift, transport, (first, second) = _submit(2)
    transport.cleanup(first)
    assert swift.containers[signal_location(second)[0]] == {signal_location(second)[1]: b''}


def test_a_prepare_whose_object_object_storage_could_not_store_leaves_no_container():
    swift = FakeSwift(account_headers={KEY_HEADER: 'secret'})
    # The object server down: the proxy answers object writes and deletes 503.
    swift.fail('put_object', ClientException('503', http_status=503))
    swift.fail('delete_object', ClientException('503', http_status=503))
    with pytest.raises(ClientException):
        TempUrlSignal(swift).prepare('run', 60)
    assert swift.containers == {}
