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

"""The Schedules panel follows Mistral's policy, as this cloud narrows it: a project's readers
may look at its schedules but not make, change or delete them (devcloud.services.mistral.POLICY,
given to Horizon as an operator gives it). The panel offers such a user nothing Mistral would
refuse, and refuses what they post anyway, changing nothing."""

import uuid

from keystoneclient.v3 import client as ks_client
from mistralclient.api import base as mistral_base
from mistralclient.api import client as mistral_client
import pytest

from devcloud import credentials
from devcloud.services import identity
from tests.integration import corpus
from tests.integration import dashboard
from tests.integration import test_schedules

READER_PASSWORD = 'reader-password'


@pytest.fixture(scope='module')
def reader_name(cloud):
    """A member of the demo project with the reader role only."""
    keystone = ks_client.Client(session=identity.admin_session(cloud.layout))
    name = f'reader-{uuid.uuid4().hex[:8]}'
    made = keystone.users.create(name, domain='default', password=READER_PASSWORD)
    [project] = keystone.projects.list(name=credentials.DEMO_PROJECT, domain='default')
    [role] = keystone.roles.list(name='reader')
    keystone.roles.grant(role, user=made, project=project)
    yield name
    keystone.users.delete(made)


def test_a_reader_is_offered_no_change_to_a_schedule_and_is_refused_one(
        cloud, user, mistral, demo_resources, made_schedules, reader_name):
    server = demo_resources['db_server_1']
    made = user.post(f'/project/components/{demo_resources["mysql"]}/run/', dict(
        test_schedules.NEVER, servers=[server], input__backup_dir='for-readers'))
    assert 'Scheduled BACKUP on 1 server.' in dashboard.messages(made.text)
    [name] = [each.name for each in mistral.environments.list()
              if each.variables.get('input_values', {}).get('backup_dir') == 'for-readers']
    made_schedules.append(name)

    reader = corpus.User(cloud.layout.dashboard_url, reader_name, READER_PASSWORD)
    page = reader.get('/project/schedules/')
    assert page.status_code == 200 and name in page.text
    for action in ('pause', 'resume', 'delete'):
        assert f'schedules__{action}__{name}' not in page.text, action
    assert f'/project/schedules/{name}/change/' not in page.text
    # Nor does Run Action offer to repeat a run.
    form = reader.get(f'/project/components/{demo_resources["mysql"]}/run/')
    assert 'name="repeat"' not in form.text

    for action in ('pause', 'delete'):
        refused = reader.post('/project/schedules/', {'action': f'schedules__{action}__{name}'})
        assert refused.status_code == 200
        assert any(f'you are not allowed to {action}' in each.lower()
                   for each in dashboard.messages(refused.text)), action
    changed = reader.post(f'/project/schedules/{name}/change/', dict(
        test_schedules.NEVER, servers=[server], repeat='0 4 1 1 *'))
    assert changed.status_code < 500

    # Mistral itself refuses the reader what the panel did not offer.
    session = identity.user_session(cloud.layout, reader_name, READER_PASSWORD)
    reader_mistral = mistral_client.client(
        mistral_url=session.get_endpoint(service_type='workflowv2', interface='public'),
        session=session)
    with pytest.raises(mistral_base.APIException) as refusal:
        reader_mistral.cron_triggers.delete(name)
    assert refusal.value.error_code == 403

    assert name in {each.name for each in mistral.cron_triggers.list()}
    record = mistral.environments.get(name).variables
    assert (record['paused'], record['pattern']) == (False, '0 3 1 1 *')
