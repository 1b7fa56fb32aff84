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

"""The Mistral workflows of heat-deploy-runner, by name, with their definitions.

A definition never changes once released: a changed one gets a new name (rolling_v2), so cron
triggers made for the old one keep running what they were made for.
"""

from importlib import resources

from heat_deploy_runner.running.run_request import RunRequest

ROLLING_WORKFLOW = 'heat_deploy.rolling_v6'
# Every rolling workflow released: triggers made for an older one keep firing it.
ROLLING_WORKFLOWS = ('heat_deploy.rolling_v1', 'heat_deploy.rolling_v2',
                     'heat_deploy.rolling_v3', 'heat_deploy.rolling_v4', 'heat_deploy.rolling_v5',
                     ROLLING_WORKFLOW)
# An operation started at once, followed to its end (followers.py).
FOLLOW_WORKFLOW = 'heat_deploy.follow_v3'
# Every follow workflow released: executions of an older one still running end as it says.
FOLLOW_WORKFLOWS = ('heat_deploy.follow_v1', 'heat_deploy.follow_v2', FOLLOW_WORKFLOW)
# The workflows whose execution's id is an operation's.
OPERATION_WORKFLOWS = ROLLING_WORKFLOWS + FOLLOW_WORKFLOWS
# Retention's pruning (retention.py), fired by a project's retention schedule.
RETENTION_WORKFLOW = 'heat_deploy.retention_v1'
# The sweep of what Heat made for a start that had given up waiting for it (orphans.py).
SWEEP_WORKFLOW = 'heat_deploy.sweep_v1'
# The states of a Mistral execution that has not ended.
RUNNING_STATES = ('IDLE', 'RUNNING', 'PAUSED')


def definition(name):
    """The workflow's YAML definition, as workflows.create takes it."""
    filename = name.split('.', 1)[1] + '.yaml'
    return resources.files(__name__).joinpath(filename).read_text(encoding='utf-8')


def ensure(mistral, project_id, name=ROLLING_WORKFLOW):
    """The id of the project's own copy of the workflow, made unless it has one
    (python-mistralclient v2).

    Private to the project: its users need no admin to have it, and a project's cron triggers
    keep the copy they were made for. By id, as Mistral shows an admin every project's
    private workflows, so that a name alone could mean another project's.
    """
    for found in mistral.workflows.list(name=name):
        if found.project_id == project_id:
            return found.id
    [made] = mistral.workflows.create(definition(name), scope='private')
    return made.id


def trigger_of(name, record):
    """The name of the cron trigger the schedule ``name`` (its record ``record``) fires
    through: the record's ``trigger``, else, for a schedule never made again, its own."""
    return record.get('trigger') or name


def schedule_input(record, name, owner):
    """The rolling workflow's input for a firing of the schedule ``name`` whose record (as
    the dashboard's Schedules keep it in a Mistral environment) is ``record``, acting for
    ``owner``: leaving out servers still running an earlier run. It carries the trigger it
    fires through, to release it."""
    return dict(RunRequest.from_record(record).workflow_input(owner, record.get('secret_ref')),
                skip_busy=True, schedule=name, trigger=trigger_of(name, record),
                server_names=record.get('server_names') or {}, link=record.get('link'))
