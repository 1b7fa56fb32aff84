"""The `openstack software ...` commands that do what a page or form does.

Shown beside every form and on every detail page, so that an operator can
repeat or script what they see. Every word is shell-quoted (shlex), so a
command pasted into a POSIX shell passes exactly these values, whatever they
hold. Heat's own (config, deployment) take python-heatclient 5.3's option
names (heatclient/osc/v1/software_config.py and software_deployment.py);
component, run and operation are this distribution's (osc/).
"""

from collections.abc import Iterable, Mapping
import shlex

from heat_deploy_runner.run_request import DEFAULT_TIMEOUT_MINUTES
from heat_deploy_runner.run_request import DEFAULT_TRANSPORT

DEFINITION_FILE = 'definition.yaml'
BODY_FILE = 'config'


def _command(*words: str) -> str:
    return shlex.join(('openstack', 'software') + words)


def config_show(config_id: str) -> str:
    return _command('config', 'show', config_id)


def config_delete(config_id: str) -> str:
    return _command('config', 'delete', config_id)


def _how_it_runs(input_texts, transport, timeout_minutes):
    """The inputs as typed (the command checks and converts them as the form does), and a
    transport and timeout unless they are the default."""
    words = []
    for name, text in input_texts.items():
        words += ['--input', f'{name}={text}']
    if transport and transport != DEFAULT_TRANSPORT:
        words += ['--transport', transport]
    if str(timeout_minutes or '') not in ('', str(DEFAULT_TIMEOUT_MINUTES)):
        words += ['--timeout', str(timeout_minutes)]
    return words


def run_action(*, component: str, action: str, server_ids: Iterable[str],
               input_texts: Mapping[str, str], transport: str = DEFAULT_TRANSPORT,
               timeout_minutes=DEFAULT_TIMEOUT_MINUTES, batch_size=None,
               max_failures=None, lifecycle: bool = False, repeat: str = '',
               once_at: str = '', schedule: str = '') -> str:
    """The Run Action form's submit: `component run`, or with ``repeat`` or ``once_at``
    `schedule create`, or `schedule change SCHEDULE` for the form that changes one; failures
    allowed left out where it is the default."""
    if schedule:
        words = ['schedule', 'change', schedule]
    elif repeat or once_at:
        words = ['schedule', 'create']
    else:
        words = ['component', 'run']
    words += [component, action]
    for server_id in server_ids:
        words += ['--server', server_id]
    words += _how_it_runs(input_texts, transport, timeout_minutes)
    if batch_size:
        words += ['--batch-size', str(batch_size)]
        if str(max_failures or '0') != '0':
            words += ['--max-failures', str(max_failures)]
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


def deployment_metadata_show(server_id: str) -> str:
    return _command('deployment', 'metadata', 'show', server_id)


def run_create(*, config_id: str, server_id: str, action: str, name: str,
               input_texts: Mapping[str, str], transport: str = DEFAULT_TRANSPORT,
               timeout_minutes=DEFAULT_TIMEOUT_MINUTES) -> str:
    """The Deploy form's submit: one run of a config on one server, ``name`` what it is
    named after (the config's own name by default)."""
    words = ['run', 'create', '--config', config_id, '--server', server_id,
             '--action', action, '--name', name]
    return _command(*words, *_how_it_runs(input_texts, transport, timeout_minutes))


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
