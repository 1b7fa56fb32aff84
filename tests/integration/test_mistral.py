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

"""Mistral in the local cloud: in the catalog as workflowv2, behind Keystone, running a
project member's workflow with its engine and executor."""

import uuid

from tests.integration import waiting

ECHO = '''
version: '2.0'
{name}:
  tasks:
    echo:
      action: std.echo output="hello from {name}"
      publish: {{said: <% task().result %>}}
  output: {{said: <% $.said %>}}
'''


def test_a_project_member_runs_a_workflow_through_keystone(mistral):
    name = f'echo_{uuid.uuid4().hex[:8]}'
    mistral.workflows.create(ECHO.format(name=name), scope='private')
    try:
        started = mistral.executions.create(name)
        done = waiting.wait_for('the echo workflow to finish',
                                lambda: _finished(mistral, started.id))
        assert done.state == 'SUCCESS', done.state_info
        assert '"said": "hello from ' + name in done.output
    finally:
        for execution in mistral.executions.list(workflow_name=name):
            mistral.executions.delete(execution.id)
        mistral.workflows.delete(name)


def _finished(mistral, execution_id):
    execution = mistral.executions.get(execution_id)
    return execution if execution.state in ('SUCCESS', 'ERROR') else None
