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

"""Script hooks run as 55-heat-config runs one: heat-agents' own hook-script (from the sdist
`make install` fetched for the local cloud's servers) and heat-deploy-script-hook, and a
local HTTP server standing in for a live target."""

import collections
import http.server
import json
import pathlib
import re
import shutil
import subprocess
import sys
import threading

from devcloud import servers

Run = collections.namedtuple('Run', 'returncode result stderr')
Request = collections.namedtuple('Request', 'method path headers body')

STOCK = servers.elements_dir() / 'heat-config-script/install.d/hook-script.py'
OURS = pathlib.Path(sys.executable).parent / 'heat-deploy-script-hook'
_TIME = re.compile(r'^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] ', re.MULTILINE)


def run_hook(hook, config, root, timeout=60, fresh=True):
    """Run a hook with the config on stdin, in folders under root, emptied first when fresh
    (the same paths for each hook, so that what names them reads the same)."""
    if fresh:
        shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True, exist_ok=True)
    env = {'PATH': '/usr/bin:/bin', 'LANG': 'C.UTF-8', 'HOME': str(root),
           'HEAT_SCRIPT_WORKING': str(root / 'working'),
           'HEAT_SCRIPT_OUTPUTS': str(root / 'outputs')}
    command = [sys.executable, str(STOCK)] if hook == STOCK else [str(hook)]
    done = subprocess.run(command, input=json.dumps(config).encode(), capture_output=True,
                          env=env, cwd=root, timeout=timeout)
    result = json.loads(done.stdout) if done.stdout else None
    return Run(done.returncode, result, done.stderr.decode())


def log_lines(stderr):
    """The hook's log lines without their times, and without a traceback's frames (whose
    files are each hook's own): its last line stays."""
    lines = _TIME.sub('', stderr).splitlines()
    if 'Traceback (most recent call last):' in lines:
        at = lines.index('Traceback (most recent call last):')
        lines = lines[:at] + lines[-1:]
    return lines


def config(script, inputs=(), outputs=(), config_id='c1'):
    return {'id': config_id, 'group': 'script', 'config': script,
            'inputs': [dict(each) for each in inputs],
            'outputs': [{'name': name} for name in outputs]}


class _Target(http.server.BaseHTTPRequestHandler):
    """Writes each request down, then answers with server.answer(request): a status (after
    server.hold is set, which a test may keep clear to hold the answer back). A POST that
    succeeds is answered as Zaqar answers one: with the path of the message it made."""

    protocol_version = 'HTTP/1.1'

    def _any(self):
        body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
        request = Request(self.command, self.path, dict(self.headers), body)
        self.server.requests.append(request)
        self.server.hold.wait(60)
        status = self.server.answer(request)
        made = b''
        if self.command == 'POST' and status < 300:
            made = json.dumps({'resources': [
                f'{self.path}/m{len(self.server.requests)}']}).encode()
        self.send_response(status)
        self.send_header('Content-Length', str(len(made)))
        self.end_headers()
        self.wfile.write(made)

    do_PUT = do_POST = do_DELETE = _any

    def log_message(self, *args):
        pass


class LiveTarget:

    def __init__(self, answer=lambda request: 201):
        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _Target)
        self.server.daemon_threads = True
        self.server.requests = []
        self.server.answer = answer
        self.server.hold = threading.Event()
        self.server.hold.set()
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f'http://127.0.0.1:{self.server.server_port}'

    @property
    def requests(self):
        return list(self.server.requests)

    def bodies(self):
        """What each PUT or POST sent, as JSON."""
        return [json.loads(request.body) for request in self.requests
                if request.method in ('PUT', 'POST')]

    def close(self):
        self.server.hold.set()
        self.server.shutdown()
        self.server.server_close()


LIVE_OBJECT = '/v1/AUTH_p/signals-1/live/o1'
LIVE_QUERY = 'temp_url_sig=5ec12e7&temp_url_expires=1900000000'


def swift_inputs(target, secrets=None):
    """A PUT TempURL's inputs, as the runner gives them."""
    inputs = [{'name': 'deploy_signal_transport', 'value': 'TEMP_URL_SIGNAL'},
              {'name': 'deploy_live_url', 'value': f'{target.url}{LIVE_OBJECT}?{LIVE_QUERY}'}]
    if secrets is not None:
        inputs.append({'name': 'deploy_live_secrets', 'value': json.dumps(secrets)})
    return inputs


def zaqar_inputs(target, expires='2030-01-01T00:00:00'):
    paths = '/v2/queues/live-1/messages'
    return [{'name': name, 'value': value} for name, value in (
        ('deploy_signal_transport', 'ZAQAR_SIGNED_URL_SIGNAL'),
        ('deploy_zaqar_endpoint', target.url + '/'),
        ('deploy_zaqar_project_id', 'p1'),
        ('deploy_live_zaqar_queue', 'live-1'),
        ('deploy_live_zaqar_paths', paths),
        ('deploy_live_zaqar_methods', 'POST,DELETE'),
        ('deploy_live_zaqar_expires', expires),
        ('deploy_live_zaqar_signature', '5ec12e7'))]
