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

"""What a server's stock hooks receive of a Run Action's inputs: every declared type, defaults and
overrides, empty, non-ASCII, quotes and newlines, on the stock `script` hook (environment
variables: text) and the stock `ansible` hook (a variables file: typed values). Each action
hands back every value it received as an output, and the test compares them with what the user
typed into the form."""

import json
import uuid

import pytest

import heat_deploy_runner as runner
from tests.integration import corpus
from tests.integration import dashboard
from tests.integration import waiting

NAMES = ('text', 'count', 'ratio', 'flag', 'names', 'doc', 'empty')
INPUTS = [
    {'name': 'text', 'type': 'String', 'default': 'plain'},
    {'name': 'count', 'type': 'Number', 'default': 2},
    {'name': 'ratio', 'type': 'Number'},
    {'name': 'flag', 'type': 'Boolean', 'default': True},
    {'name': 'names', 'type': 'CommaDelimitedList', 'default': 'a,b'},
    {'name': 'doc', 'type': 'Json', 'default': {'k': 'v'}},
    {'name': 'empty', 'type': 'String', 'default': ''},
]
# Each value as the script's environment has it, written to the output of its name.
ECHO_SCRIPT = '#!/bin/sh\n' + ''.join(
    f'printf \'%s\' "${name}" > "$heat_outputs_path.{name}"\n' for name in NAMES)
ECHO_PLAYBOOK = """\
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: hand back every variable the hook gave, typed
      copy:
        dest: "{{ heat_outputs_path }}.received"
        content: "{{ {%s} | to_json }}"
""" % ', '.join(f"'{name}': {name}" for name in NAMES)

# The defaults as the form shows them; ratio has none, and the form wants a value for it.
DEFAULTS = {'text': 'plain', 'count': '2', 'ratio': '1', 'flag': 'on', 'names': 'a,b',
            'doc': '{"k": "v"}', 'empty': ''}
TYPED = {'text': 'Grüße "double" \'single\' $HOME `date`\nsecond line', 'count': '-3',
         'ratio': '2.5', 'flag': None, 'names': 'x,ÿ z,w', 'doc': '{"ü": [1, "two"]}',
         'empty': ''}


@pytest.fixture(scope='module')
def echo_component(heat, find_transport, demo_resources):
    component = heat.software_configs.create(
        name=f'echo-{uuid.uuid4().hex[:8]}', group='component', inputs=INPUTS,
        outputs=[{'name': name} for name in NAMES] + [{'name': 'received'}],
        config={'configs': [
            {'actions': ['ECHO'], 'tool': 'script', 'config': ECHO_SCRIPT},
            {'actions': ['ECHO_TYPED'], 'tool': 'ansible', 'config': ECHO_PLAYBOOK}]})
    # Run once on the servers, as a stack would have: Run Action offers the servers a
    # component is on.
    placed = runner.start(
        heat, find_transport, runner.RunRequest(
            config_id=component.id, action='ECHO', name=component.name,
            server_ids=[demo_resources['db_server_1'], demo_resources['db_server_2']],
            transport='NO_SIGNAL')).created
    yield component
    for run in placed:
        runner.delete(heat, run.id, find_transport)
    heat.software_configs.delete(component.id)


def _run(user, heat, find_transport, component, server, action, typed):
    """Run Action through the form with the fields as typed (a Boolean ticked or not); the
    finished deployment."""
    fields = {f'input__{name}': value for name, value in typed.items() if value is not None}
    before = {d.id for d in heat.software_deployments.list(server_id=server)}
    response = user.post(f'/project/components/{component.id}/run/', {
        'action': action, 'servers': [server], 'transport': 'TEMP_URL_SIGNAL',
        'timeout': '10', **fields})
    assert '/project/deployments/operations/' in response.url, (
        dashboard.messages(response.text), corpus.form_errors(response.text))
    [run] = [d for d in heat.software_deployments.list(server_id=server)
             if d.id not in before]
    try:
        done = waiting.finished(heat, run.id, timeout=90)
    finally:
        runner.delete(heat, run.id, find_transport)
    assert done.status == 'COMPLETE', (done.status_reason,
                                       done.output_values.get('deploy_stderr'))
    return done.output_values


def _as_the_script_sees_it(typed):
    seen = dict(typed, flag='true' if typed['flag'] else 'false')
    seen['doc'] = json.dumps(json.loads(typed['doc']), ensure_ascii=False)
    return seen


@pytest.mark.parametrize('typed', [DEFAULTS, TYPED], ids=['defaults', 'typed'])
def test_the_script_hook_gets_each_value_as_text_as_typed(user, heat, find_transport,
                                                          demo_resources, echo_component,
                                                          typed):
    outputs = _run(user, heat, find_transport, echo_component, demo_resources['db_server_1'],
                   'ECHO', typed)

    assert {name: outputs[name] for name in NAMES} == _as_the_script_sees_it(typed)


@pytest.mark.parametrize('typed', [DEFAULTS, TYPED], ids=['defaults', 'typed'])
def test_the_ansible_hook_gets_each_value_of_its_type(user, heat, find_transport,
                                                      demo_resources, echo_component, typed):
    outputs = _run(user, heat, find_transport, echo_component, demo_resources['db_server_2'],
                   'ECHO_TYPED', typed)

    assert json.loads(outputs['received']) == {
        'text': typed['text'], 'count': int(typed['count']), 'ratio': float(typed['ratio']),
        'flag': typed['flag'] is not None, 'names': typed['names'].split(','),
        'doc': json.loads(typed['doc']), 'empty': ''}
