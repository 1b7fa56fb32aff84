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

"""heat-agents' script hook (hook-script, 13.0.0), sending the script's output while it runs.

What a template sees is hook-script's: the config as JSON on standard input; each input in
the script's environment as hook-script puts it (a dict or list as JSON, any other value as
it is, so a number or a boolean fails in the same TypeError before the script runs); the
script written to HEAT_SCRIPT_WORKING/<id> (executed: it needs its #!) and run there, with
heat_outputs_path set to HEAT_SCRIPT_OUTPUTS/<id> and each output read from
``$heat_outputs_path.<name>``; the same log lines on standard error, and the same
deploy_stdout, deploy_stderr, deploy_status_code JSON on standard output. A config without
live inputs sends nothing.

With live inputs (live_target), the output written so far is also sent, while the script
runs, to the run's live target, never to its signal target, a snapshot at a time that takes
the place of the one before:

- a Swift PUT TempURL of one object (``deploy_live_url``): each send PUTs the snapshot
  there, its Content-Type carrying the snapshot's last line;
- or a Zaqar queue (``deploy_live_zaqar_queue``, ``_paths``, ``_methods``, ``_expires``,
  ``_signature``, with ``deploy_zaqar_endpoint`` and ``deploy_zaqar_project_id``): each send
  posts one message through the pre-signed URL, its body the snapshot, then deletes the
  message before.

Each snapshot is JSON: ``{"seq": n, "final": false, "status_code": null, "stdout": text,
"stderr": text, "stdout_bytes": size, "stderr_bytes": size}``: the end of each stream so far
(at most 64 KiB) and its whole size (live_output says each field precisely); the values of
the inputs ``deploy_live_secrets`` names (a JSON list) are masked. At most one send a second
while the script runs, and the last (``final``, with the exit status) as soon as it exits,
waited for two seconds at most; a target that fails or is slow never fails the run nor
delays it more (live_sender).

Usage (as 55-heat-config runs a hook): heat-deploy-script-hook < config.json
"""

import json
import logging
import os
import selectors
import subprocess
import sys

from heat_deploy_notify import live_sender
from heat_deploy_notify import live_target

READ_SIZE = 65536


def prepare_dir(path):
    if not os.path.isdir(path):
        os.makedirs(path, 0o700)


def _logger():
    log = logging.getLogger('heat-config')
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter(
            '[%(asctime)s] (%(name)s) [%(levelname)s] %(message)s'))
    log.addHandler(handler)
    log.setLevel('DEBUG')
    return log


def _environment(config, log):
    """The script's environment, as hook-script makes it (values that are no text included:
    the script's start fails on them)."""
    env = os.environ.copy()
    for each in config['inputs']:
        name = each['name']
        value = each.get('value', '')
        if isinstance(value, dict) or isinstance(value, list):
            env[name] = json.dumps(value)
        else:
            env[name] = value
        log.info('%s=%s' % (name, env[name]))
    return env


def _live(config, env, log):
    """The sender of the run's live output, started; None when it has no live target."""
    try:
        values = {each['name']: env[each['name']] for each in config['inputs']}
        target = live_target.target(values)
        secrets = None if target is None else live_target.secret_values(values)
        if secrets is None:
            return None
        return live_sender.LiveSender(target, secrets).start()
    except Exception as error:
        # The script runs already: whatever live output cannot be, the run goes on.
        log.warning('Live output not sent: %r', error)
        return None


def _captured(process, live):
    """The script's whole stdout and stderr, read as it writes them (as communicate() reads
    them) and each read handed to ``live`` as well."""
    output = {process.stdout: [], process.stderr: []}
    names = {process.stdout: 'stdout', process.stderr: 'stderr'}
    with selectors.DefaultSelector() as selector:
        for pipe in output:
            selector.register(pipe, selectors.EVENT_READ)
        while selector.get_map():
            for key, _events in selector.select():
                data = os.read(key.fd, READ_SIZE)
                if not data:
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    continue
                output[key.fileobj].append(data)
                if live is not None:
                    live.add(names[key.fileobj], data)
    process.wait()
    return b''.join(output[process.stdout]), b''.join(output[process.stderr])


def main(argv=sys.argv):
    log = _logger()
    working_dir = os.environ.get('HEAT_SCRIPT_WORKING',
                                 '/var/lib/heat-config/heat-config-script')
    outputs_dir = os.environ.get('HEAT_SCRIPT_OUTPUTS',
                                 '/var/run/heat-config/heat-config-script')

    prepare_dir(outputs_dir)
    prepare_dir(working_dir)
    os.chdir(working_dir)

    c = json.load(sys.stdin)

    env = _environment(c, log)

    fn = os.path.join(working_dir, c['id'])
    heat_outputs_path = os.path.join(outputs_dir, c['id'])
    env['heat_outputs_path'] = heat_outputs_path

    # As hook-script: no O_TRUNC, the mode only when the file is new.
    with os.fdopen(os.open(fn, os.O_CREAT | os.O_WRONLY, 0o700), 'w') as f:
        f.write(c.get('config', ''))

    log.debug('Running %s' % fn)
    subproc = subprocess.Popen([fn], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    live = _live(c, env, log)
    stdout, stderr = _captured(subproc, live)
    if live is not None:
        live.finish(subproc.returncode)

    log.info(stdout)
    log.debug(stderr)

    if subproc.returncode:
        log.error("Error running %s. [%s]\n" % (fn, subproc.returncode))
    else:
        log.info('Completed %s' % fn)

    response = {}

    for output in c.get('outputs') or []:
        output_name = output['name']
        try:
            with open('%s.%s' % (heat_outputs_path, output_name)) as out:
                response[output_name] = out.read()
        except IOError:
            pass

    response.update({
        'deploy_stdout': stdout.decode('utf-8', 'replace'),
        'deploy_stderr': stderr.decode('utf-8', 'replace'),
        'deploy_status_code': subproc.returncode,
    })

    json.dump(response, sys.stdout)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
