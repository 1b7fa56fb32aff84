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

"""heat-deploy-notify, as 55-heat-config runs it: Zaqar results posted with Zaqar's v2 API (to
a local HTTP server here), tried again after an outage, too big a result trimmed, a refusal
reported, and every other result passed on to heat-config-notify unchanged."""

import http.server
import io
import json
import sys
import threading

import pytest

import heat_deploy_notify as notify

RESULT = {'deploy_stdout': 'done\n', 'deploy_stderr': '', 'deploy_status_code': 0,
          'report': 'disk 12% used'}


class _Zaqar(http.server.BaseHTTPRequestHandler):
    """Answers each POST with the next status of ``answers`` (201 once they are used up)."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers['Content-Length']))
        self.server.posts.append((self.path, dict(self.headers), json.loads(body)))
        status = self.server.answers.pop(0) if self.server.answers else 201
        self.send_response(status)
        self.send_header('Content-Length', '0')
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def zaqar():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _Zaqar)
    server.posts, server.answers = [], []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _config(tmp_path, **values):
    path = tmp_path / 'config.json'
    path.write_text(json.dumps({'id': 'c1', 'inputs': [
        {'name': name, 'value': value} for name, value in values.items()]}))
    return str(path)


def _signed(zaqar):
    return {
        'deploy_signal_transport': 'ZAQAR_SIGNED_URL_SIGNAL',
        'deploy_zaqar_endpoint': f'http://127.0.0.1:{zaqar.server_port}/',
        'deploy_zaqar_queue': 'check-1234',
        'deploy_zaqar_project_id': 'p1',
        'deploy_zaqar_paths': '/v2/queues/check-1234/messages',
        'deploy_zaqar_methods': 'POST',
        'deploy_zaqar_expires': '2030-01-01T00:00:00Z',
        'deploy_zaqar_signature': 'f00d',
    }


def _notify(config_path, result=RESULT):
    return notify.main(['heat-deploy-notify', config_path],
                       io.BytesIO(json.dumps(result).encode()))


def test_a_signed_url_result_is_posted_to_its_queue_with_the_signature(zaqar, tmp_path):
    assert _notify(_config(tmp_path, **_signed(zaqar))) == 0

    [(path, headers, body)] = zaqar.posts
    assert path == '/v2/queues/check-1234/messages'
    assert (headers['URL-Signature'], headers['URL-Methods'], headers['URL-Paths'],
            headers['X-Project-ID']) == ('f00d', 'POST', '/v2/queues/check-1234/messages',
                                         'p1')
    assert headers['URL-Expires'] == '2030-01-01T00:00:00Z'
    assert 'Client-ID' in headers
    assert body == {'messages': [{'body': RESULT, 'ttl': notify.MESSAGE_TTL}]}


def test_a_post_that_met_an_outage_is_tried_again(zaqar, tmp_path):
    zaqar.answers = [503, 502]

    assert _notify(_config(tmp_path, **_signed(zaqar))) == 0

    assert len(zaqar.posts) == 3
    assert zaqar.posts[-1][2]['messages'][0]['body'] == RESULT


def test_a_refusal_is_reported_and_not_tried_again(zaqar, tmp_path, caplog):
    zaqar.answers = [403]

    assert _notify(_config(tmp_path, **_signed(zaqar))) == 1

    assert len(zaqar.posts) == 1
    assert 'Could not send the result: 403' in caplog.text


def test_a_result_too_big_for_one_message_loses_the_start_of_its_output(zaqar, tmp_path):
    big = dict(RESULT, deploy_stdout='x' * 400_000 + 'the end\n', deploy_stderr='e' * 100_000)

    assert _notify(_config(tmp_path, **_signed(zaqar)), big) == 0

    [(_path, _headers, body)] = zaqar.posts
    sent = body['messages'][0]['body']
    assert len(json.dumps(sent)) <= notify.MAX_RESULT_BYTES
    assert sent['deploy_stdout'].endswith('the end\n')
    assert sent['deploy_stderr']
    assert (sent['report'], sent['deploy_status_code']) == ('disk 12% used', 0)


def test_every_other_result_goes_to_heat_config_notify_unchanged(tmp_path, monkeypatch):
    # A stand-in heat-config-notify that writes down what it was given.
    seen = tmp_path / 'seen.json'
    stand_in = tmp_path / 'heat-config-notify'
    stand_in.write_text(f'#!{sys.executable}\nimport json, sys\n'
                        f'json.dump([sys.argv[1:], sys.stdin.read()], open({str(seen)!r}, "w"))\n'
                        'sys.exit(3)\n')
    stand_in.chmod(0o755)
    monkeypatch.setenv('HEAT_DEPLOY_NOTIFY_NEXT', str(stand_in))
    config = _config(tmp_path, deploy_signal_transport='TEMP_URL_SIGNAL',
                     deploy_signal_id='http://swift/v1/AUTH_p/c/o?temp_url_sig=1')

    assert _notify(config) == 3

    assert json.loads(seen.read_text()) == [[config], json.dumps(RESULT)]


def test_without_a_config_it_says_how_to_call_it(caplog):
    assert notify.main(['heat-deploy-notify'], io.BytesIO(b'')) == 1
    assert 'Usage:' in caplog.text
