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

"""An action Mistral runs again, after its executor was lost mid-action (Mistral fails it once
its heartbeats stop, and the workflow's retry runs it once more): it makes no second run on
a server, and posts no second notice. Mistral's count of the task's action executions
(mistral.service.action_attempts) tells a run again from a first."""

import pytest

from heat_deploy_runner.following import notices
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import conclusion
from heat_deploy_runner.running import operations
from tests.unit.deploy.mistral.case import ended
from tests.unit.deploy.mistral.case import EXECUTION_ID


@pytest.fixture
def run_again(monkeypatch):
    monkeypatch.setattr(actions.service, 'action_attempts', lambda session, task_id: 2)


def _start(context, component, servers, try_number=1):
    return actions.StartAction(component, 'BACKUP', servers, 'alice', '2026-11-27T22:00:00Z',
                               try_number=try_number, tries=3).run(context)


def test_a_start_run_again_makes_only_the_runs_its_cut_short_try_did_not(
        cloud, context, heat, component, run_again):
    first = _start(context, component, ['s1'])
    # An earlier try of s2 is not this one.
    _start(context, component, ['s2'])

    again = _start(context, component, ['s1', 's2'], try_number=2)
    assert len(again['deployment_ids']) == 2
    again_s1 = _start(context, component, ['s1'])

    assert again_s1 == {'deployment_ids': first['deployment_ids'], 'failed_to_start': []}
    tries = sorted((row.server_id, operations.operation_of_run(row).try_number)
                   for row in heat.software_deployments.list())
    assert tries == [('s1', 1), ('s1', 2), ('s2', 1), ('s2', 2)]


def test_a_first_start_lists_nothing(cloud, context, heat, component):
    heat.fail('software_deployments.list', AssertionError('listed'))
    assert len(_start(context, component, ['s1', 's2'])['deployment_ids']) == 2


def test_a_conclusion_run_again_posts_its_notice_only_where_it_is_missing(
        notified_cloud, context, heat, zaqar, component, monkeypatch):
    notices.subscribe(zaqar, component, notices.ALWAYS, 'https://hooks.example.com/a')
    notices.subscribe(zaqar, EXECUTION_ID, notices.ALWAYS, 'https://hooks.example.com/b')
    ids = _start(context, component, ['s1'])['deployment_ids']
    ended(heat, ids[0], 'COMPLETE')
    conclude = conclusion.ConcludeAction(component, 'BACKUP', ids)
    first = conclude.run(context)
    # The cut-short try had posted to the operation's queue only.
    zaqar.queues[notices.queue_name(component, notices.ALWAYS)].clear()
    monkeypatch.setattr(actions.service, 'action_attempts', lambda session, task_id: 2)

    again = conclude.run(context)

    assert again['notified'] == first['notified']
    assert all(len(zaqar.bodies(name)) == 1 for name in first['notified'])
