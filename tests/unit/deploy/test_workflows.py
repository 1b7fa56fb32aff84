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

"""Every workflow the package ships, read as Mistral reads it: what Mistral would only report
once an execution reaches the task (an action it does not have, an input its class does not
take, a variable nothing sets, a task that does not exist) is found here."""

import importlib
from importlib import resources
import inspect
import pathlib
import re
import tomllib

import pytest
import yaml

from heat_deploy_runner import workflows

PYPROJECT = pathlib.Path(__file__).parents[3] / 'runner' / 'pyproject.toml'
FILES = sorted(each.name for each in resources.files(workflows).iterdir()
               if each.name.endswith('.yaml'))
# Mistral's own actions a workflow may name, and the engine commands a transition may give.
STD_ACTIONS = {'std.noop'}
ENGINE_COMMANDS = {'fail', 'succeed', 'pause', 'noop'}
# The keys of a direct workflow's task Mistral takes (mistral/lang/v2/tasks.py).
TASK_KEYS = {'action', 'workflow', 'input', 'publish', 'publish-on-error', 'retry',
             'wait-before', 'wait-after', 'timeout', 'pause-before', 'concurrency',
             'on-success', 'on-error', 'on-complete', 'join', 'with-items', 'keep-result',
             'safe-rerun', 'target', 'description', 'tags'}
# `$.name` in a YAQL expression: a variable of the workflow's context.
VARIABLE = re.compile(r'\$\.([A-Za-z_]\w*)')


def _registered():
    """{action name: class} of the package's mistral.actions entry points."""
    points = tomllib.loads(PYPROJECT.read_text())['project']['entry-points']['mistral.actions']
    found = {}
    for name, target in points.items():
        module, attribute = target.split(':')
        found[name] = getattr(importlib.import_module(module), attribute)
    return found


def _workflow(filename):
    document = yaml.safe_load(resources.files(workflows).joinpath(filename).read_text())
    assert str(document.pop('version')) == '2.0'
    [(name, workflow)] = document.items()
    return name, workflow


def _name_of(each):
    return next(iter(each)) if isinstance(each, dict) else each


def _strings(tree):
    if isinstance(tree, dict):
        return [text for key, value in tree.items() for text in _strings(key) + _strings(value)]
    if isinstance(tree, list):
        return [text for value in tree for text in _strings(value)]
    return [tree] if isinstance(tree, str) else []


def _transitions(task):
    for key in ('on-success', 'on-error', 'on-complete'):
        for each in task.get(key) or []:
            yield _name_of(each).split('(', 1)[0].strip()


def test_each_workflow_defines_the_name_it_is_listed_by():
    # workflows.ensure finds the project's copy by this name: another would make a copy a call.
    named = {workflows.ROLLING_WORKFLOW, workflows.FOLLOW_WORKFLOW,
             workflows.RETENTION_WORKFLOW, workflows.SWEEP_WORKFLOW,
             *workflows.OPERATION_WORKFLOWS}

    for name in named:
        assert set(yaml.safe_load(workflows.definition(name))) == {'version', name}
    assert {_workflow(filename)[0] for filename in FILES} == named


@pytest.mark.parametrize('filename', FILES)
def test_each_task_names_an_action_the_package_registers_with_inputs_its_class_takes(
        filename):
    registered = _registered()
    _name, workflow = _workflow(filename)

    for task_name, task in workflow['tasks'].items():
        assert set(task) <= TASK_KEYS, (task_name, set(task) - TASK_KEYS)
        action = task['action']
        if action in STD_ACTIONS:
            continue
        assert action in registered, (task_name, action)
        parameters = inspect.signature(registered[action]).parameters
        given = set(task.get('input') or {})
        required = {name for name, each in parameters.items()
                    if each.default is inspect.Parameter.empty}
        assert given <= set(parameters), (task_name, given - set(parameters))
        assert required <= given, (task_name, required - given)


@pytest.mark.parametrize('filename', FILES)
def test_each_variable_used_is_an_input_a_var_or_published(filename):
    _name, workflow = _workflow(filename)
    tasks = workflow['tasks'].values()
    known = ({_name_of(each) for each in workflow.get('input') or []}
             | set(workflow.get('vars') or {})
             | {name for task in tasks for key in ('publish', 'publish-on-error')
                for name in task.get(key) or {}})

    used = {name for text in _strings(workflow) for name in VARIABLE.findall(text)}

    assert used <= known, used - known


@pytest.mark.parametrize('filename', FILES)
def test_each_transition_goes_to_a_task_or_an_engine_command(filename):
    _name, workflow = _workflow(filename)
    tasks = workflow['tasks']

    targets = {target for task in tasks.values() for target in _transitions(task)}

    assert targets <= set(tasks) | ENGINE_COMMANDS, targets - set(tasks) - ENGINE_COMMANDS
    # Every task but the first is reached from another.
    assert set(list(tasks)[1:]) <= targets


def test_every_registered_action_is_used_by_a_shipped_workflow():
    used = {task['action'] for filename in FILES
            for task in _workflow(filename)[1]['tasks'].values()}

    assert set(_registered()) <= used, set(_registered()) - used


@pytest.mark.parametrize('filename', [each for each in FILES
                                      if 'heat_deploy.entrust' in _strings(_workflow(each)[1])])
def test_every_action_after_the_operations_trust_is_made_acts_through_it(filename):
    # One left out would act with the starter's token, and stop when it ends.
    _name, workflow = _workflow(filename)
    registered = _registered()

    for task_name, task in workflow['tasks'].items():
        action = registered.get(task['action'])
        if action and 'trust_id' in inspect.signature(action).parameters:
            assert (task.get('input') or {}).get('trust_id') == '<% $.trust_id %>', task_name
    # The operation's trust goes on every way out: an error, and the end.
    assert workflow['task-defaults']['on-error'] == ['release']
    assert not any('on-error' in task for name, task in workflow['tasks'].items()
                   if name != 'release')
    assert [name for name, task in workflow['tasks'].items()
            if set(_transitions(task)) <= ENGINE_COMMANDS] == ['release']


@pytest.mark.parametrize('filename', [each for each in FILES
                                      if 'missed' in (_workflow(each)[1].get('vars') or {})])
def test_every_task_is_run_again_when_mistral_failed_it_for_a_lost_executor(filename):
    # Mistral delivers an action at most once: without this, a lost executor ends the
    # operation with its servers not run.
    _name, workflow = _workflow(filename)
    assert workflow['vars']['missed'] == "Heartbeat wasn't received."

    for task_name, task in workflow['tasks'].items():
        retry = task.get('retry') or {}
        assert retry.get('count', 0) >= 1, task_name
        again = (retry.get('break-on') == '<% task().result != $.missed %>'
                 or 'true => task().result = $.missed' in retry.get('continue-on', ''))
        assert again, task_name
