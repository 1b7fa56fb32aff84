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

"""The rolling workflow's plan, as Mistral runs it on the in-memory cloud: its batches, a
deleted component, and a firing's servers still running an earlier run left out, once
settled."""

import datetime

import heat_deploy_runner as runner
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.running import expiry
from heat_deploy_runner.running import settling


def test_batches_keep_the_order_and_size_zero_is_one_batch():
    assert actions.batches_of(['a', 'b', 'c'], 2) == [['a', 'b'], ['c']]
    assert actions.batches_of(['a', 'b', 'c'], 0) == [['a', 'b', 'c']]
    assert actions.batches_of(['a'], 5) == [['a']]


def test_plan_names_a_deleted_component_and_plans_nothing(cloud, context):
    plan = actions.PlanAction('gone', ['s1'], batch_size=1).run(context)
    assert plan['batches'] == []
    assert plan['problem'] == 'The component gone no longer exists.'


def test_a_schedules_plan_leaves_out_busy_servers(cloud, context, heat, component):
    heat.software_deployments.create(config_id=component, server_id='busy',
                                     status='IN_PROGRESS')
    heat.software_deployments.create(config_id=component, server_id='idle', status='COMPLETE')
    plan = actions.PlanAction(component, ['busy', 'idle'], 1, skip_busy=True).run(context)
    assert plan['batches'] == [['idle']] and plan['skipped'] == ['busy']
    assert plan['problem'] is None
    # Started by hand, the operator's choice stands.
    assert actions.PlanAction(component, ['busy', 'idle'], 1).run(context)['batches'] == [
        ['busy'], ['idle']]


def test_a_firing_settles_a_run_its_follower_left_before_calling_its_server_busy(
        cloud, context, heat, component, monkeypatch):
    # Heat's listing keeps a run IN_PROGRESS until someone settles it: a run past its
    # deadline that nobody followed must not keep every later firing off its server.
    [lost] = runner.start(heat, cloud.find_transport, runner.RunRequest(
        config_id=component, action='BACKUP', server_ids=['s1'])).created
    overdue = expiry.is_overdue

    def past_deadline(run, now=None):
        return overdue(run, datetime.datetime(2999, 1, 1))
    monkeypatch.setattr(expiry, 'is_overdue', past_deadline)
    monkeypatch.setattr(settling, 'is_overdue', past_deadline)

    plan = actions.PlanAction(component, ['s1'], 1, skip_busy=True).run(context)

    assert plan['batches'] == [['s1']] and plan['skipped'] == []
    assert heat.deployments[lost.id]['status'] == 'FAILED'


def test_a_firing_with_every_server_busy_says_so(cloud, context, heat, component):
    heat.software_deployments.create(config_id=component, server_id='busy',
                                     status='IN_PROGRESS')
    plan = actions.PlanAction(component, ['busy'], 1, skip_busy=True).run(context)
    assert plan['batches'] == []
    assert plan['problem'] == ('Skipped: every server is still running an earlier run '
                               '(busy).')
