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

"""A schedule's firing and the trigger it fires through: a firing of a trigger its schedule
no longer fires through (paused, changed or deleted while an earlier firing ran) runs
nothing, and the rolling workflow's release deletes that trigger, and the secret inputs the
schedule no longer keeps, once no firing of it runs. Mistral's own API (mistral.service) is
the seam: what it answers is the test's."""

import json

import pytest

from heat_deploy_runner.mistral import actions
from heat_deploy_runner.workflows import secret_store
from tests.unit.deploy.mistral.case import EXECUTION_ID


class _Schedules:
    """What a firing's plan and release read and do in Mistral (mistral.service), for a
    schedule ``hdd-1`` whose record is ``record`` (None: deleted)."""

    def __init__(self, record, running=()):
        self.record = record
        self.running = list(running)
        self.deleted = []

    def environment(self, session, name):
        return self.record if name == 'hdd-1' else None

    def running_operations(self, session):
        return self.running

    def cron_trigger_delete(self, session, name):
        self.deleted.append(name)


@pytest.fixture
def mistral_service(monkeypatch):
    def serve(record, running=()):
        made = _Schedules(record, running)
        for name in ('environment', 'running_operations', 'cron_trigger_delete'):
            monkeypatch.setattr(actions.service, name, getattr(made, name))
        return made
    return serve


@pytest.mark.parametrize('record', [None, {'paused': True}, {'trigger': 'hdd-1.new'}])
def test_a_firing_of_a_trigger_its_schedule_no_longer_fires_through_runs_nothing(
        cloud, context, component, mistral_service, record):
    mistral_service(record)
    plan = actions.PlanAction(component, ['s1'], 1, skip_busy=True, schedule='hdd-1',
                              trigger='hdd-1').run(context)
    assert (plan['batches'], plan['retired']) == ([], True)
    assert plan['problem'].startswith('Skipped: the schedule was paused, changed or deleted')
    # Its own trigger fires as it should.
    mistral_service({'paused': False})
    assert actions.PlanAction(component, ['s1'], 1, schedule='hdd-1',
                              trigger='hdd-1').run(context)['batches'] == [['s1']]


def test_a_firing_keeps_the_trigger_its_schedule_fires_through(
        cloud, context, mistral_service):
    service = mistral_service({'paused': False, 'secret_ref': 'hdd-1/a'})
    assert actions.ReleaseAction('hdd-1', 'hdd-1', 'hdd-1/a').run(context) == {
        'released': False}
    assert service.deleted == []
    # Nor has an operation started by hand any trigger to release.
    assert actions.ReleaseAction().run(context) == {'released': False}


def test_a_paused_schedules_last_firing_releases_its_trigger_and_keeps_its_secrets(
        cloud, context, swift, mistral_service):
    context.security.project_id = 'project-1'
    secret_store.put(swift, 'hdd-1/a', {'db_password': 'x'})
    other_firing = ('ex-2', 'project-1', json.dumps({'trigger': 'hdd-1'}))
    service = mistral_service({'paused': True, 'secret_ref': 'hdd-1/a'}, running=[
        (EXECUTION_ID, 'project-1', json.dumps({'trigger': 'hdd-1'})), other_firing,
        # Listed to an admin: another project's.
        ('ex-3', 'project-2', json.dumps({'trigger': 'hdd-1'}))])

    assert actions.ReleaseAction('hdd-1', 'hdd-1', 'hdd-1/a').run(context) == {
        'released': False}
    service.running.remove(other_firing)
    assert actions.ReleaseAction('hdd-1', 'hdd-1', 'hdd-1/a').run(context) == {
        'released': True}

    assert service.deleted == ['hdd-1']
    # Resumed, the schedule still reads them.
    assert secret_store.get(swift, 'hdd-1/a') == {'db_password': 'x'}


@pytest.mark.parametrize('record', [None, {'trigger': 'hdd-1.new', 'secret_ref': 'hdd-1/b'}])
def test_a_deleted_or_changed_schedules_last_firing_releases_its_trigger_and_secrets(
        cloud, context, swift, mistral_service, record):
    secret_store.put(swift, 'hdd-1/a', {'db_password': 'x'})
    service = mistral_service(record)

    actions.ReleaseAction('hdd-1', 'hdd-1', 'hdd-1/a').run(context)

    assert service.deleted == ['hdd-1']
    assert 'hdd-1/a' not in swift.containers.get(secret_store.CONTAINER, {})
