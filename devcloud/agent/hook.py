"""The demo servers' deployment hook, called by os-collect-config when metadata changes.

It does what heat-agents' 55-heat-config and its script hook do on a real server: for each
deployment not yet run, mark it done, run the config entry whose `actions` contain the
deployment's `deploy_action` with the inputs as environment variables, read the declared
outputs from `$heat_outputs_path.<name>`, and send {deploy_stdout, deploy_stderr,
deploy_status_code, <outputs>} to the signal target: a Swift TempURL (TEMP_URL_SIGNAL), a Zaqar
queue as the stack's user (Heat's ZAQAR_SIGNAL), or a Zaqar queue through a pre-signed URL
(the dashboard's ZAQAR_SIGNED_URL_SIGNAL; README, "Writing a hook for Zaqar").

Usage: python -m devcloud.agent.hook WORKDIR   (OS_CONFIG_FILES set by os-collect-config)
"""

import json
import logging
import os
import pathlib
import subprocess
import sys
import time
import uuid

from keystoneauth1.identity import v3
from keystoneauth1 import session as ks_session
import requests
from zaqarclient.queues.v2 import client as zaqar_client

LOG = logging.getLogger('devcloud.agent')
SCRIPT_TIMEOUT = 3600
SIGNAL_TIMEOUT = 30
# How long Zaqar keeps a result nobody took: Zaqar's default maximum, so that a result
# arriving after a cancel can still be shown beside it for two weeks.
MESSAGE_TTL = 14 * 24 * 3600


def env_value(value):
    """Heat input values as a shell script expects them."""
    if value is None:
        return ''
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, list):
        return ','.join(env_value(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def select_script(deployment, action):
    """The script to run for this action, or None when the config has nothing for it."""
    group = deployment.get('group')
    config = deployment.get('config')
    if group == 'script':
        return config
    if group == 'component':
        for entry in (config or {}).get('configs', []):
            if action in entry.get('actions', ['CREATE', 'UPDATE']):
                if entry.get('tool', 'script') != 'script':
                    raise ValueError(f'tool {entry.get("tool")!r} is not supported here')
                return entry.get('config', '')
        return None
    raise ValueError(f'group {group!r} has no hook on this server')


def run_deployment(deployment, workdir):
    inputs = {i['name']: i.get('value') for i in deployment.get('inputs', [])}
    action = inputs.get('deploy_action', 'CREATE')
    outputs_path = workdir / 'outputs' / deployment['id']
    outputs_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        script = select_script(deployment, action)
    except ValueError as exc:
        return {'deploy_stdout': '', 'deploy_stderr': str(exc), 'deploy_status_code': 1}
    if script is None:
        return {'deploy_stdout': f'Nothing to do for action {action}.\n',
                'deploy_stderr': '', 'deploy_status_code': 0}
    script_file = workdir / 'scripts' / deployment['id']
    script_file.parent.mkdir(parents=True, exist_ok=True)
    if not script.startswith('#!'):
        script = '#!/bin/sh\n' + script
    script_file.write_text(script)
    script_file.chmod(0o700)
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'HOME': str(workdir),
           'heat_outputs_path': str(outputs_path)}
    env.update({name: env_value(value) for name, value in inputs.items()})
    try:
        done = subprocess.run([str(script_file)], cwd=workdir, env=env, capture_output=True,
                              text=True, timeout=SCRIPT_TIMEOUT)
        result = {'deploy_stdout': done.stdout, 'deploy_stderr': done.stderr,
                  'deploy_status_code': done.returncode}
    except subprocess.TimeoutExpired as exc:
        result = {'deploy_stdout': exc.stdout or '', 'deploy_stderr': 'Timed out.\n',
                  'deploy_status_code': 124}
    for output in deployment.get('outputs') or []:
        path = pathlib.Path(f'{outputs_path}.{output["name"]}')
        if path.exists():
            result[output['name']] = path.read_text()
    return result


def wait_for_next_second(since):
    """Heat applies a Swift signal only if its Last-Modified, in whole seconds, is later than
    the deployment's updated_at. A fast script on an agent that polls every second can finish
    in the very second Heat updated the deployment, and that signal would be ignored forever."""
    while int(time.time()) <= int(since):
        time.sleep(0.05)


def send_signal(inputs, result, metadata_seen_at):
    transport = inputs.get('deploy_signal_transport', 'NO_SIGNAL')
    if transport == 'NO_SIGNAL':
        return
    if transport == 'TEMP_URL_SIGNAL':
        wait_for_next_second(metadata_seen_at)
        verb = inputs.get('deploy_signal_verb') or 'PUT'
        response = requests.request(verb, inputs['deploy_signal_id'], data=json.dumps(result),
                                    timeout=SIGNAL_TIMEOUT)
        response.raise_for_status()
        return
    if transport == 'ZAQAR_SIGNAL':
        post_as_stack_user(inputs, result)
        return
    if transport == 'ZAQAR_SIGNED_URL_SIGNAL':
        post_with_signed_url(inputs, result)
        return
    LOG.error('signal transport %s is not supported by this agent', transport)


def post_as_stack_user(inputs, result):
    """Heat's ZAQAR_SIGNAL: the stack's own user posts to the queue Heat reads on a show."""
    auth = v3.Password(auth_url=inputs['deploy_auth_url'], user_id=inputs['deploy_user_id'],
                       password=inputs['deploy_password'],
                       project_id=inputs['deploy_project_id'])
    session = ks_session.Session(auth=auth, timeout=SIGNAL_TIMEOUT)
    endpoint = session.get_endpoint(service_type='messaging', interface='public',
                                    region_name=inputs.get('deploy_region_name'))
    client = zaqar_client.Client(endpoint, version=2, conf={'auth_opts': {
        'backend': 'keystone',
        'options': {'os_auth_token': session.get_token(),
                    'os_project_id': inputs['deploy_project_id']}}})
    client.queue(inputs['deploy_queue_id']).post({'body': result, 'ttl': MESSAGE_TTL})


def post_with_signed_url(inputs, result):
    """The dashboard's transport: no credentials on the server, only a URL signed for POST."""
    headers = {
        'URL-Signature': inputs['deploy_zaqar_signature'],
        'URL-Expires': inputs['deploy_zaqar_expires'],
        'URL-Methods': inputs['deploy_zaqar_methods'],
        'URL-Paths': inputs['deploy_zaqar_paths'],
        'X-Project-ID': inputs['deploy_zaqar_project_id'],
        # Zaqar wants a client UUID; one per deployment is enough.
        'Client-ID': str(uuid.uuid5(uuid.NAMESPACE_URL, inputs['deploy_zaqar_queue'])),
        'Content-Type': 'application/json',
    }
    url = inputs['deploy_zaqar_endpoint'].rstrip('/') + inputs['deploy_zaqar_paths']
    response = requests.post(url, headers=headers, timeout=SIGNAL_TIMEOUT, data=json.dumps(
        {'messages': [{'body': result, 'ttl': MESSAGE_TTL}]}))
    response.raise_for_status()


def deployments_from(config_files):
    for path in config_files:
        try:
            data = json.loads(pathlib.Path(path).read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            yield from data.get('deployments') or []


def main(argv):
    metadata_seen_at = time.time()
    workdir = pathlib.Path(argv[1])
    done_dir = workdir / 'deployed'
    done_dir.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format='%(asctime)s agent %(message)s')
    config_files = [f for f in os.environ.get('OS_CONFIG_FILES', '').split(':') if f]
    for deployment in deployments_from(config_files):
        marker = done_dir / deployment['id']
        if marker.exists() or deployment.get('group') == 'Heat::Ungrouped':
            continue
        # Marked before it runs, as heat-agents does: a crash never runs an action twice.
        marker.touch()
        inputs = {i['name']: i.get('value') for i in deployment.get('inputs', [])}
        LOG.info('running %s (%s) action %s', deployment.get('name'), deployment['id'],
                 inputs.get('deploy_action'))
        result = run_deployment(deployment, workdir)
        LOG.info('finished %s with status %s', deployment['id'], result['deploy_status_code'])
        try:
            send_signal(inputs, result, metadata_seen_at)
            LOG.info('signalled %s', deployment['id'])
        except Exception as exc:
            # One failed signal must not stop the other deployments in this metadata.
            LOG.error('could not signal %s: %s', deployment['id'], exc)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
