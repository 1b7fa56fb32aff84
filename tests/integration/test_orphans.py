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

"""Run Action while heat-engine is stopped: the form says nothing was started, and nothing is
made behind the user's back.

Heat's API holds the derived config's create for its RPC timeout (60 s here, Heat's default)
while the request waits in RabbitMQ; the dashboard stops waiting after 10 s. An engine back
within the RPC timeout makes the config all the same, with no run to use it (here the
engine is back about 12 s after the form gave up). The start, left unanswered, handed Mistral
the sweep of its operation, which deletes it orphans.SWEEP_AFTER (2 minutes) later: about
3 minutes in all.
"""

import json

import pytest

from heat_deploy_runner.configs import derived
from heat_deploy_runner.pruning import orphans
from heat_deploy_runner.signalling import tempurl
from heat_deploy_runner import workflows
from tests.integration import dashboard
from tests.integration import test_outages
from tests.integration import waiting

pytestmark = pytest.mark.second_cloud

NAME = 'mysql-BACKUP'


def _runless(heat):
    """{id: config} of the configs named as Run Action names BACKUP's on mysql that carry
    the operation that started them, and that no deployment uses."""
    used = {each.config_id for each in heat.software_deployments.list()}
    found = {}
    for row in heat.software_configs.list():
        if row.name != NAME or row.id in used:
            continue
        config = derived.config_or_none(heat, row.id)
        if config and derived.OPERATION_OPTION in (derived.as_dict(config)['options'] or {}):
            found[row.id] = derived.as_dict(config)
    return found


def _sweeps(mistral, since):
    """The sweep executions made since ``since`` (ids)."""
    return [each for each in mistral.executions.list(workflow_name=workflows.SWEEP_WORKFLOW)
            if each.id not in since]


def test_run_action_while_heat_engine_is_stopped_leaves_no_config_behind(
        cloud, user, heat, mistral, swift, demo_resources):
    # Other modules' outages may have left some.
    before = set(_runless(heat))
    sweeps_before = {each.id for each in _sweeps(mistral, ())}
    form = f'/project/components/{demo_resources["mysql"]}/run/'
    # Read while Heat answers: the form keeps the component, and the post's first call to
    # Heat is the create.
    assert user.get(form).status_code == 200

    with test_outages.stopped(cloud, 'heat-engine'):
        response = user.post(form, {
            'action': 'BACKUP', 'servers': [demo_resources['db_server_1']],
            'transport': 'TEMP_URL_SIGNAL', 'timeout': '30', 'input__backup_dir': 'orphans',
            'input__retention_days': '5', 'input__tables': 'users', 'input__labels': '{}',
            'input__pause_seconds': '0', 'input__backup_file': ''})
    said = ' '.join(dashboard.messages(response.text))
    assert 'Unable to start BACKUP' in said and 'Nothing was started.' in said, said

    # Heat made it all the same, with no run to use it.
    [orphan] = waiting.wait_for(
        'heat-engine to make the config it was asked for',
        lambda: [config for config_id, config in _runless(heat).items()
                 if config_id not in before], timeout=120, interval=2)
    container, _object = tempurl.signal_location(derived.derived_input_values(orphan))

    # The sweep the start handed Mistral removes it, with the place for its result.
    [sweep] = _sweeps(mistral, sweeps_before)
    bound = orphans.SWEEP_AFTER.total_seconds() + 120
    ended = waiting.wait_for('the sweep to end', lambda: (
        lambda found: found if found.state in ('SUCCESS', 'ERROR') else None)(
            mistral.executions.get(sweep.id)), timeout=bound, interval=5)
    assert ended.state == 'SUCCESS', ended.state_info
    assert json.loads(ended.output) == {'swept': [orphan['id']], 'left': []}
    assert orphan['id'] not in _runless(heat)
    assert container not in [each['name'] for each in swift.get_account()[1]]
