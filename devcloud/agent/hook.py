"""The demo servers' deployment hook, called by os-collect-config when metadata changes.

It does what heat-agents' 55-heat-config and its script hook do on a real server: for each
deployment not yet run, mark it done, run the config entry whose `actions` contain the
deployment's `deploy_action` with the inputs as environment variables, read the declared
outputs from `$heat_outputs_path.<name>`, and send {deploy_stdout, deploy_stderr,
deploy_status_code, <outputs>} to the signal target: a Swift TempURL (TEMP_URL_SIGNAL), a Zaqar
queue as the stack's user (Heat's ZAQAR_SIGNAL), or a Zaqar queue through a pre-signed URL
(the dashboard's ZAQAR_SIGNED_URL_SIGNAL; README, "Writing a hook for Zaqar").

A result is never given up while its target may still take it. os-collect-config runs this
hook synchronously, one metadata change at a time, so the hook itself tries each result once;
a result that could not be delivered (Swift or Zaqar down, a 5xx, a connection error) is left
in the server's state directory for a delivery process, started in the background, which
tries again 1 s later, then 2, 4... at most MAX_RETRY_DELAY apart, logging each failed try,
until the target's expiry (the TempURL's temp_url_expires, the signed URL's
deploy_zaqar_expires) and never longer than MAX_DELIVERY_SECONDS. The agent meanwhile runs
other deployments as they come. A refusal that trying again cannot change (a 4xx: an expired
or revoked signature) ends the tries at once.

State, per server, in `<workdir>/state/<deployment id>.json` (mode 0600: it holds the signal
target's credentials, as os-collect-config's cache does): "running" from just before the
config runs, "sending" during the hook's own try, "undelivered" from then until the result is
delivered or given up; the file is removed then. The script's stdout and stderr go to
`<workdir>/runs/` as it runs. When the agent starts (`--start-agent`, which then becomes
os-collect-config), a run still "running" was cut short by the agent's stop: its script died
with the agent, so it is reported FAILED, saying so, with whatever it had printed, and never
run again; results "sending" or "undelivered" are delivered on.

Usage: python -m devcloud.agent.hook WORKDIR   (OS_CONFIG_FILES set by os-collect-config)
       python -m devcloud.agent.hook --start-agent WORKDIR -- os-collect-config ARGS...
       python -m devcloud.agent.hook --deliver WORKDIR
"""

import calendar
import contextlib
import datetime
import fcntl
import json
import logging
import os
import pathlib
import re
import subprocess
import sys
import time
from urllib import parse
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
# Between tries of an undelivered result: 1 s, doubling, at most 30 s.
FIRST_RETRY_DELAY = 1
MAX_RETRY_DELAY = 30
# Tries end at the signal target's expiry, and at the latest this long after the run ended:
# Heat's own stack TempURLs are valid until 2038, and ZAQAR_SIGNAL's have no expiry.
MAX_DELIVERY_SECONDS = 24 * 3600
# What an interrupted run reports as its status code; Heat makes the deployment's reason
# "deploy_status_code : Deployment exited with non-zero status code: <this>".
RESTARTED = 'unknown (the agent restarted while this run was executing)'

RUNNING = 'running'
# The hook's own first try: no other process touches the result meanwhile.
SENDING = 'sending'
UNDELIVERED = 'undelivered'


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


def output_files(workdir, deployment_id):
    """Where a run's stdout and stderr go while it runs: what it printed survives the agent."""
    base = workdir / 'runs' / deployment_id
    return base.with_suffix('.stdout'), base.with_suffix('.stderr')


def _read(path):
    try:
        return path.read_text(errors='replace')
    except OSError:
        return ''


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
    stdout_path, stderr_path = output_files(workdir, deployment['id'])
    stdout_path.parent.mkdir(parents=True, exist_ok=True)
    with open(stdout_path, 'wb') as stdout, open(stderr_path, 'wb') as stderr:
        try:
            done = subprocess.run([str(script_file)], cwd=workdir, env=env, stdout=stdout,
                                  stderr=stderr, timeout=SCRIPT_TIMEOUT)
            code, note = done.returncode, ''
        except subprocess.TimeoutExpired:
            code, note = 124, 'Timed out.\n'
    result = {'deploy_stdout': _read(stdout_path), 'deploy_stderr': _read(stderr_path) + note,
              'deploy_status_code': code}
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


# --- when a result must be given up ---

def _epoch(value):
    """Seconds since the epoch of a Unix time or an ISO 8601 time (UTC unless it says)."""
    value = str(value).strip()
    if value.isdigit():
        return int(value)
    when = datetime.datetime.fromisoformat(value.replace('Z', '+00:00'))
    if when.tzinfo is None:
        return calendar.timegm(when.timetuple())
    return when.timestamp()


def target_expiry(inputs):
    """When the signal target stops taking results (seconds since the epoch), or None when
    it does not say."""
    transport = inputs.get('deploy_signal_transport')
    try:
        if transport == 'TEMP_URL_SIGNAL':
            query = parse.parse_qs(parse.urlsplit(inputs['deploy_signal_id']).query)
            return _epoch(query['temp_url_expires'][0])
        if transport == 'ZAQAR_SIGNED_URL_SIGNAL':
            return _epoch(inputs['deploy_zaqar_expires'])
    except (KeyError, IndexError, ValueError):
        pass
    return None


def delivery_deadline(inputs, ended_at):
    expiry = target_expiry(inputs)
    latest = ended_at + MAX_DELIVERY_SECONDS
    return latest if expiry is None else min(expiry, latest)


def describe(exc):
    """An error as the log shows it: a TempURL's signature is a credential, kept out."""
    return re.sub(r'(temp_url_sig=)[^&\s\'"]+', r'\1<masked>', str(exc) or repr(exc))


def worth_retrying(exc):
    """False for a refusal that will not change (an expired or wrong signature, a bad
    request); True for an outage (no connection, a timeout, a 5xx, 408, 429)."""
    response = getattr(exc, 'response', None)
    status = getattr(response, 'status_code', None)
    if isinstance(exc, requests.HTTPError) and status is not None:
        return status >= 500 or status in (408, 429)
    return True


# --- the per-server state ---

def state_dir(workdir):
    return workdir / 'state'


def save_state(workdir, entry):
    """Write a deployment's state atomically (a crash leaves the old file or the new one)."""
    folder = state_dir(workdir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f'{entry["id"]}.json'
    temporary = path.with_name(f'.{path.name}.{os.getpid()}')
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'w') as out:
        json.dump(entry, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def remove_state(workdir, deployment_id):
    with contextlib.suppress(FileNotFoundError):
        (state_dir(workdir) / f'{deployment_id}.json').unlink()


def load_states(workdir, phase=None):
    entries = []
    for path in sorted(state_dir(workdir).glob('*.json')):
        try:
            entry = json.loads(path.read_text())
        except (OSError, ValueError):
            # Written atomically: anything unreadable is not ours.
            continue
        if phase is None or entry.get('phase') == phase:
            entries.append(entry)
    return entries


def _signal_inputs(inputs):
    """The inputs that say where and how to send the result (deploy_*): no run inputs."""
    return {name: value for name, value in inputs.items() if name.startswith('deploy_')}


def begin(workdir, deployment, inputs, seen_at):
    entry = {'id': deployment['id'], 'name': deployment.get('name'),
             'action': inputs.get('deploy_action'), 'phase': RUNNING, 'started_at': time.time(),
             'seen_at': seen_at, 'inputs': _signal_inputs(inputs)}
    save_state(workdir, entry)
    return entry


def to_deliver(workdir, entry, result, phase=UNDELIVERED):
    now = time.time()
    entry.update(phase=phase, result=result, ended_at=now,
                 deadline=delivery_deadline(entry['inputs'], now), tries=0,
                 next_try=now, delay=FIRST_RETRY_DELAY)
    save_state(workdir, entry)
    return entry


def _when(epoch):
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%SZ')


def try_delivery(workdir, entry):
    """One try to send an undelivered result. True when nothing is left to do for it
    (delivered, or given up), False when it is to be tried again at entry['next_try']."""
    entry['tries'] += 1
    try:
        send_signal(entry['inputs'], entry['result'], entry.get('seen_at', 0))
    except Exception as exc:
        now = time.time()
        why = describe(exc)
        if not worth_retrying(exc):
            LOG.error('could not signal %s (try %d): %s; the target refuses it, giving up',
                      entry['id'], entry['tries'], why)
        elif now >= entry['deadline']:
            LOG.error('could not signal %s (try %d): %s; its signal target expired at %s, '
                      'giving up', entry['id'], entry['tries'], why, _when(entry['deadline']))
        else:
            delay = entry['delay']
            entry['phase'] = UNDELIVERED
            entry['next_try'] = min(now + delay, entry['deadline'])
            entry['delay'] = min(delay * 2, MAX_RETRY_DELAY)
            LOG.warning('could not signal %s (try %d): %s; trying again in %.3g s (until %s)',
                        entry['id'], entry['tries'], why, entry['next_try'] - now,
                        _when(entry['deadline']))
            save_state(workdir, entry)
            return False
    else:
        LOG.info('signalled %s%s', entry['id'],
                 f' (try {entry["tries"]})' if entry['tries'] > 1 else '')
    remove_state(workdir, entry['id'])
    return True


# --- the background delivery ---

@contextlib.contextmanager
def _delivery_lock(workdir):
    """True while this process is the server's one deliverer, False if another one is."""
    state_dir(workdir).mkdir(parents=True, exist_ok=True)
    with open(state_dir(workdir) / '.deliver.lock', 'a') as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def deliver_pending(workdir):
    """Try every undelivered result of this server until none is left. One process per server
    does it; a second one started meanwhile leaves at once, and the first looks for new
    results once more after letting go of its lock, so none is left behind."""
    while True:
        with _delivery_lock(workdir) as mine:
            if not mine:
                return
            while True:
                pending = load_states(workdir, UNDELIVERED)
                if not pending:
                    break
                now = time.time()
                for entry in pending:
                    if entry['next_try'] <= now:
                        try_delivery(workdir, entry)
                waiting = [e['next_try'] for e in load_states(workdir, UNDELIVERED)]
                if waiting:
                    # At most a second: a result the hook adds meanwhile is tried soon too.
                    time.sleep(min(max(min(waiting) - time.time(), 0.05), 1))
        if not load_states(workdir, UNDELIVERED):
            return


def start_deliverer(workdir):
    """Start deliver_pending in a process of its own that outlives this one (a double fork,
    so no process is left waiting for it). It stays in the agent's process group, so it stops
    with the agent."""
    child = os.fork()
    if child:
        os.waitpid(child, 0)
        return
    try:
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, '-m', 'devcloud.agent.hook', '--deliver',
                                      str(workdir)])
    finally:
        os._exit(0)


# --- when the agent starts ---

def recover(workdir):
    """What the agent was doing when it stopped: runs cut short are reported FAILED, and
    results not yet delivered are delivered on. Returns how many of each."""
    interrupted = 0
    for entry in load_states(workdir, RUNNING):
        interrupted += 1
        stdout_path, stderr_path = output_files(workdir, entry['id'])
        started = _when(entry['started_at'])
        explanation = (f'The agent restarted while this run was executing (it started at '
                       f'{started}, the agent again at {_when(time.time())}). The run was '
                       f'stopped with the agent and not run again: what it changed before it '
                       f'stopped is left as it was.\n')
        LOG.warning('%s (%s) action %s was executing when the agent stopped; reporting it '
                    'FAILED', entry.get('name'), entry['id'], entry.get('action'))
        to_deliver(workdir, entry, {
            'deploy_stdout': _read(stdout_path),
            'deploy_stderr': _read(stderr_path) + explanation,
            'deploy_status_code': RESTARTED})
        # It is never run again, even if it was marked done only after its state was saved.
        (workdir / 'deployed' / entry['id']).touch()
    for entry in load_states(workdir, SENDING):
        # The hook stopped while it sent this result: it may not have arrived.
        entry.update(phase=UNDELIVERED, next_try=time.time())
        save_state(workdir, entry)
    undelivered = len(load_states(workdir, UNDELIVERED))
    if undelivered:
        LOG.info('%d result(s) to deliver from before the agent started', undelivered)
    return interrupted, undelivered


def start_agent(workdir, command):
    (workdir / 'deployed').mkdir(parents=True, exist_ok=True)
    try:
        _, undelivered = recover(workdir)
        if undelivered:
            start_deliverer(workdir)
    except Exception:
        # Whatever was left behind, the server's agent must run.
        LOG.exception('could not settle what the agent was doing when it stopped')
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)


# --- the hook ---

def deployments_from(config_files):
    for path in config_files:
        try:
            data = json.loads(pathlib.Path(path).read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            yield from data.get('deployments') or []


def run_hook(workdir):
    metadata_seen_at = time.time()
    done_dir = workdir / 'deployed'
    done_dir.mkdir(parents=True, exist_ok=True)
    config_files = [f for f in os.environ.get('OS_CONFIG_FILES', '').split(':') if f]
    for deployment in deployments_from(config_files):
        marker = done_dir / deployment['id']
        if marker.exists() or deployment.get('group') == 'Heat::Ungrouped':
            continue
        inputs = {i['name']: i.get('value') for i in deployment.get('inputs', [])}
        entry = begin(workdir, deployment, inputs, metadata_seen_at)
        # Marked before it runs, as heat-agents does: a crash never runs an action twice.
        marker.touch()
        LOG.info('running %s (%s) action %s', deployment.get('name'), deployment['id'],
                 inputs.get('deploy_action'))
        result = run_deployment(deployment, workdir)
        LOG.info('finished %s with status %s', deployment['id'], result['deploy_status_code'])
        # One failed signal must not stop the other deployments in this metadata: it is
        # left to the background delivery.
        try_delivery(workdir, to_deliver(workdir, entry, result, SENDING))
    if load_states(workdir, UNDELIVERED):
        start_deliverer(workdir)
    return 0


def main(argv):
    logging.basicConfig(level=logging.INFO, format='%(asctime)s agent %(message)s')
    if argv[1:2] == ['--start-agent']:
        workdir, separator, *command = argv[2:]
        if separator != '--' or not command:
            raise SystemExit(f'usage: {argv[0]} --start-agent WORKDIR -- COMMAND...')
        start_agent(pathlib.Path(workdir), command)
    if argv[1:2] == ['--deliver']:
        deliver_pending(pathlib.Path(argv[2]))
        return 0
    return run_hook(pathlib.Path(argv[1]))


if __name__ == '__main__':
    sys.exit(main(sys.argv))
