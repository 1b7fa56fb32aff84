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

"""The `openstack software ...` commands that do what a page or form does.

Shown beside every form and on every detail page, so that an operator can
repeat or script what they see. Every word is shell-quoted (shlex), so a
command pasted into a POSIX shell passes exactly these values, whatever they
hold. Heat's own (config, deployment) take python-heatclient 5.3's option
names (heatclient/osc/v1/software_config.py and software_deployment.py);
component, run and operation are this distribution's (osc/).
"""

from collections.abc import Mapping
import shlex

from heat_deploy_runner.running.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.running.run_request import DEFAULT_TRANSPORT
from heat_deploy_runner.running.run_request import RunRequest

DEFINITION_FILE = 'definition.yaml'
BODY_FILE = 'config'


def _command(*words: str) -> str:
    return shlex.join(('openstack', 'software') + words)


def config_show(config_id: str) -> str:
    return _command('config', 'show', config_id)


def config_delete(config_id: str) -> str:
    return _command('config', 'delete', config_id)


def _given(value) -> bool:
    """Whether a value of the request is other than its empty default (0)."""
    return str(value or '').strip() not in ('', '0')


def _how_it_runs(request: RunRequest, input_texts: Mapping[str, str]) -> list[str]:
    """The inputs as typed (the command checks and converts them as the form does), and the
    request's every option that is not its default."""
    words = []
    for name, text in input_texts.items():
        words += ['--input', f'{name}={text}']
    if request.transport and request.transport != DEFAULT_TRANSPORT:
        words += ['--transport', request.transport]
    if request.live:
        words.append('--live')
    if str(request.timeout_minutes or '') not in ('', str(DEFAULT_TIMEOUT_MINUTES)):
        words += ['--timeout', str(request.timeout_minutes)]
    if _given(request.batch_size):
        words += ['--batch-size', str(request.batch_size)]
        if _given(request.max_failures):
            words += ['--max-failures', str(request.max_failures)]
    if _given(request.retries):
        words += ['--retries', str(request.retries)]
        if _given(request.retry_delay):
            words += ['--retry-delay', str(request.retry_delay)]
    return words


def _server_word(server_id: str, names: Mapping[str, str]) -> str:
    """A server by its name where no other server has it (the command line takes either)."""
    name = names.get(server_id)
    return name if name and list(names.values()).count(name) == 1 else server_id


def run_action(request: RunRequest, *, component: str, input_texts: Mapping[str, str],
               lifecycle: bool = False, repeat: str = '', once_at: str = '',
               schedule: str = '', server_names: Mapping[str, str] | None = None,
               every_server: bool = False) -> str:
    """What the Run Action form submits (``request``, its inputs as typed): `component run`,
    or with ``repeat`` or ``once_at`` `schedule create`, or `schedule change SCHEDULE` for
    the form that changes one. ``server_names``: {id: name} of the project's servers;
    ``every_server``: the request's servers are all the component's."""
    run_now = not (schedule or repeat or once_at)
    if schedule:
        words = ['schedule', 'change', schedule]
    elif not run_now:
        words = ['schedule', 'create']
    else:
        words = ['component', 'run']
    words += [component, request.action]
    if every_server:
        words.append('--all-servers')
    else:
        for server_id in request.server_ids:
            words += ['--server', _server_word(server_id, server_names or {})]
    if run_now and request.leave_out_busy:
        # A schedule's firings leave them out always.
        words.append('--leave-out-busy')
    words += _how_it_runs(request, input_texts)
    if lifecycle:
        words.append('--confirm-lifecycle')
    if repeat:
        words += ['--repeat', repeat]
    elif once_at:
        words += ['--once-at', once_at]
    return _command(*words)


def run_show(run_id: str) -> str:
    return _command('run', 'show', run_id)


def run_output(run_id: str) -> str:
    return _command('run', 'output', '--all', run_id)


def operation_show(operation_id: str) -> str:
    return _command('operation', 'show', operation_id)


def operation_results(operation_id: str, grep: str = '', status: str = '') -> str:
    words = ['operation', 'results', operation_id]
    if grep:
        words += ['--grep', grep]
    if status:
        words += ['--status', status]
    return _command(*words)


def run_diff(run_id: str, other_id: str = '', output: str = 'deploy_stdout') -> str:
    words = ['run', 'diff', run_id] + ([other_id] if other_id else [])
    if output != 'deploy_stdout':
        words += ['--output', output]
    return _command(*words)


def deployment_metadata_show(server_id: str) -> str:
    return _command('deployment', 'metadata', 'show', server_id)


def run_create(request: RunRequest, *, input_texts: Mapping[str, str]) -> str:
    """What the Deploy form submits: one run of a config on one server, named after the
    request's name (the config's own by default)."""
    [server_id] = request.server_ids
    words = ['run', 'create', '--config', request.config_id, '--server', server_id,
             '--action', request.action, '--name', request.name or '']
    return _command(*words, *_how_it_runs(request, input_texts))


def run_delete(run_id: str) -> str:
    return _command('run', 'delete', run_id)


def _here_document(path: str, text: str) -> str:
    """Shell lines writing ``text`` to ``path`` as it is (a quoted
    delimiter: no expansion), with a final newline."""
    lines = text.split('\n')
    delimiter = 'EOF'
    while delimiter in lines:
        delimiter += '_'
    if not text.endswith('\n'):
        text += '\n'
    return f"cat > {path} <<'{delimiter}'\n{text}{delimiter}"


def config_create(*, name: str, group: str, definition: str = '',
                  body: str = '') -> str:
    """Shell lines that write the files, then create the config.

    ``definition``: YAML with inputs, outputs and options; ``body``: the
    config as text. In heatclient 5.3 the help texts of the two file
    options are swapped: --definition-file is the one read as YAML for
    inputs, outputs and options, --config-file the body, stored as text.
    """
    lines = []
    words = ['config', 'create', '--group', group]
    if definition:
        lines.append(_here_document(DEFINITION_FILE, definition))
        words += ['--definition-file', DEFINITION_FILE]
    if body:
        lines.append(_here_document(BODY_FILE, body))
        words += ['--config-file', BODY_FILE]
    lines.append(_command(*words, name))
    return '\n'.join(lines)
