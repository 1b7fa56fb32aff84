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

"""heat-config-notify for the Zaqar transports the stock heat-agents chain cannot send.

heat-agents' heat-config-notify (13.0.0) sends a result to a Swift TempURL (deploy_signal_id),
to a stack resource (deploy_auth_url), or to a Zaqar queue with Zaqar's v1.1 API, which Zaqar
23 no longer serves and python-zaqarclient 4.7 no longer has; nothing reads the inputs of
heat-deploy-dashboard's ZAQAR_SIGNED_URL_SIGNAL (deploy_zaqar_*). This program takes the same
arguments and standard input as heat-config-notify, so 55-heat-config runs it in its place
(HEAT_CONFIG_NOTIFY=heat-deploy-notify):

- a run with deploy_zaqar_signature: POST to the queue's messages through the pre-signed URL
  (the server holds no credentials);
- a stack deployment with deploy_queue_id (Heat's ZAQAR_SIGNAL): log in as the stack's user
  and POST with Zaqar's v2 API (needs keystoneauth1: the [zaqar-signal] extra);
- anything else: passed on, arguments and standard input unchanged, to heat-config-notify
  (HEAT_DEPLOY_NOTIFY_NEXT names another).

As heat-config-notify does, a POST that met no connection or a 5xx is tried again, ten times,
0.5 s apart and doubling (about four minutes), and a result too big for one message has the
beginning of its stdout and stderr cut.

Usage: heat-deploy-notify /path/to/config.json < /path/to/signal_data.json
"""

import json
import logging
import os
import subprocess
import sys
import uuid

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

LOG = logging.getLogger('heat-deploy-notify')
USAGE = 'Usage:\n  heat-deploy-notify /path/to/config.json < /path/to/signal_data.json'
NEXT = 'heat-config-notify'
TIMEOUT = 30
# Zaqar keeps a result no page has taken yet at most this long (its default maximum): a result
# that comes after a cancel is still shown beside it for two weeks.
MESSAGE_TTL = 14 * 24 * 3600
# Zaqar's default max_messages_post_size is 256 KiB for a whole POST; room for the envelope.
MAX_RESULT_BYTES = 256 * 1024 - 1024
TRIMMED = ('deploy_stdout', 'deploy_stderr')

SIGNATURE = 'deploy_zaqar_signature'
STACK_QUEUE = 'deploy_queue_id'


def _session():
    """requests with heat-config-notify's own retries: connection errors and 5xx."""
    session = requests.Session()
    retry = Retry(total=10, read=10, connect=10, backoff_factor=0.5,
                  status_forcelist=(500, 502, 503, 504), allowed_methods=None)
    adapter = HTTPAdapter(max_retries=retry)
    session.mount('http://', adapter)
    session.mount('https://', adapter)
    return session


def trimmed(result, limit=MAX_RESULT_BYTES):
    """The result as JSON of at most ``limit`` bytes, the start of its stdout and stderr cut
    in proportion to their sizes (as heat-config-notify trims what it sends to Heat)."""
    text = json.dumps(result)
    excess = len(text) - limit
    if excess <= 0:
        return result
    result = dict(result)
    sizes = {key: len(json.dumps(result.get(key) or '')) for key in TRIMMED}
    total = sum(sizes.values()) or 1
    for key in TRIMMED:
        value = result.get(key) or ''
        cut = -(-excess * sizes[key] // total)
        result[key] = value[min(len(value), cut):]
    return trimmed(result, limit) if len(json.dumps(result)) > limit else result


def _messages(result):
    return json.dumps({'messages': [{'body': trimmed(result), 'ttl': MESSAGE_TTL}]})


def post_signed(values, result, session=None):
    """POST the result through the pre-signed URL of the run's queue."""
    headers = {
        'URL-Signature': values[SIGNATURE],
        'URL-Expires': values['deploy_zaqar_expires'],
        'URL-Methods': values['deploy_zaqar_methods'],
        'URL-Paths': values['deploy_zaqar_paths'],
        'X-Project-ID': values['deploy_zaqar_project_id'],
        # Zaqar wants a client UUID; one per queue is enough.
        'Client-ID': str(uuid.uuid5(uuid.NAMESPACE_URL, values['deploy_zaqar_queue'])),
        'Content-Type': 'application/json',
    }
    url = values['deploy_zaqar_endpoint'].rstrip('/') + values['deploy_zaqar_paths']
    LOG.debug('Signaling to %s', url)
    response = (session or _session()).post(url, data=_messages(result), headers=headers,
                                            timeout=TIMEOUT)
    LOG.debug('Response %s', response)
    response.raise_for_status()


def post_as_stack_user(values, result, session=None):
    """Heat's ZAQAR_SIGNAL: the stack's user posts to the queue Heat reads on a show."""
    from keystoneauth1.identity import v3
    from keystoneauth1 import session as ks_session

    auth = v3.Password(auth_url=values['deploy_auth_url'], user_id=values['deploy_user_id'],
                       password=values['deploy_password'],
                       project_id=values['deploy_project_id'])
    keystone = ks_session.Session(auth=auth, timeout=TIMEOUT)
    endpoint = keystone.get_endpoint(service_type='messaging', interface='public',
                                     region_name=values.get('deploy_region_name'))
    url = f'{endpoint.rstrip("/")}/v2/queues/{values[STACK_QUEUE]}/messages'
    headers = {
        'X-Auth-Token': keystone.get_token(),
        'X-Project-ID': values['deploy_project_id'],
        'Client-ID': str(uuid.uuid5(uuid.NAMESPACE_URL, values[STACK_QUEUE])),
        'Content-Type': 'application/json',
    }
    LOG.debug('Signaling to queue %s', values[STACK_QUEUE])
    response = (session or _session()).post(url, data=_messages(result), headers=headers,
                                            timeout=TIMEOUT)
    LOG.debug('Response %s', response)
    response.raise_for_status()


def pass_on(argv, raw_signal):
    """heat-config-notify with the same arguments and standard input; its exit status."""
    program = os.environ.get('HEAT_DEPLOY_NOTIFY_NEXT', NEXT)
    return subprocess.run([program, *argv[1:]], input=raw_signal).returncode


def _init_logging():
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG,
                        format='[%(asctime)s] (%(name)s) [%(levelname)s] %(message)s')
    # Each retry is worth a line (urllib3 says why and how many are left); its other
    # debug lines are not.
    logging.getLogger('urllib3').setLevel(logging.WARNING)


def main(argv=None, stdin=None):
    argv = sys.argv if argv is None else argv
    stdin = sys.stdin.buffer if stdin is None else stdin
    _init_logging()
    if len(argv) < 2:
        LOG.error(USAGE)
        return 1
    raw_signal = stdin.read()
    try:
        with open(argv[1]) as config_file:
            config = json.load(config_file)
    except (OSError, ValueError) as exc:
        LOG.error('Cannot read the config %s: %s', argv[1], exc)
        LOG.error(USAGE)
        return 1
    values = {each['name']: each.get('value') for each in config.get('inputs') or []}
    if SIGNATURE not in values and STACK_QUEUE not in values:
        return pass_on(argv, raw_signal)
    try:
        result = json.loads(raw_signal)
    except ValueError:
        LOG.warning('No valid json found on stdin')
        result = {}
    try:
        if SIGNATURE in values:
            post_signed(values, result)
        else:
            post_as_stack_user(values, result)
    except Exception as exc:
        LOG.error('Could not send the result: %s', exc)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
