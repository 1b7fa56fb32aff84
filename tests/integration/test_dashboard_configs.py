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

"""A user creates, deploys, copies and deletes software configs in the dashboard, on the
real local cloud."""

import re
import uuid

from heatclient import exc as heat_exc
import pytest

from tests.integration import dashboard
from tests.integration import waiting

# The servers' stock hook-script runs group "script" configs with the inputs as environment
# variables and reads each declared output from $heat_outputs_path.<name>.
DEFINITION = """\
config: |
  #!/bin/sh
  echo "greeting is $greeting"
  printf '%s, world' "$greeting" > "$heat_outputs_path.result"
inputs:
  - name: greeting
    type: String
    default: hello
    description: What to say
outputs:
  - name: result
    description: What the script wrote
"""


def _create(user, name):
    """Create a config from the definition file through the form; its id."""
    response = user.post('/project/configs/create/', {
        'name': name, 'group': 'script', 'body_format': 'text', 'config': '',
        'inputs': '', 'outputs': '', 'options': ''},
        files={'definition_file': ('definition.yaml', DEFINITION)})
    found = re.search(r'/project/configs/([0-9a-f-]{36})/$', response.url)
    assert found, dashboard.messages(response.text)
    return found.group(1)


def _deploy(user, config_id, server, transport, name, **inputs):
    """Deploy the config through the form; the new deployment's id."""
    response = user.post(f'/project/configs/{config_id}/deploy/', {
        'server': server, 'action': 'CREATE', 'name': name, 'transport': transport,
        'timeout': '10', **{f'input__{key}': value for key, value in inputs.items()}})
    found = re.search(r'/project/deployments/([0-9a-f-]{36})/$', response.url)
    assert found, dashboard.messages(response.text)
    return found.group(1)


@pytest.fixture(scope='module')
def hello(user):
    return _create(user, f'hello-{uuid.uuid4().hex[:8]}')


def test_a_config_made_from_a_definition_file_is_in_heat_and_on_its_page(user, heat, hello):
    config = heat.software_configs.get(hello)

    assert config.group == 'script'
    assert config.config.startswith('#!/bin/sh\necho "greeting is $greeting"')
    assert [(i['name'], i['type'], i['default']) for i in config.inputs] == [
        ('greeting', 'String', 'hello')]
    assert [o['name'] for o in config.outputs] == ['result']
    page = user.get(f'/project/configs/{hello}/').text
    assert f'openstack software config show {hello}' in page
    assert 'What to say' in page
    listed = user.post('/project/configs/', {'configs__filter__q_field': 'name',
                                             'configs__filter__q': config.name}).text
    assert f'/project/configs/{hello}/' in listed


def test_a_temp_url_run_completes_with_the_scripts_output(user, heat, hello, demo_resources):
    run = _deploy(user, hello, demo_resources['db_server_1'], 'TEMP_URL_SIGNAL', 'hello',
                  greeting='bonjour')

    done = waiting.finished(heat, run)

    assert done.status == 'COMPLETE'
    assert heat.software_configs.get(done.config_id).name == 'hello-CREATE'
    outputs = user.get(f'/project/deployments/{run}/?tab=deployment_details__outputs').text
    assert 'greeting is bonjour' in outputs
    assert 'bonjour, world' in outputs
    assert f'openstack software run output --all {run}' in outputs
    download = user.get(f'/project/deployments/{run}/outputs/result/')
    assert download.text == 'bonjour, world'


def test_a_no_signal_run_is_complete_at_once(user, heat, hello, demo_resources):
    run = _deploy(user, hello, demo_resources['db_server_1'], 'NO_SIGNAL', 'quiet')

    deployment = heat.software_deployments.get(run)

    assert deployment.status == 'COMPLETE'
    assert heat.software_configs.get(deployment.config_id).name == 'quiet-CREATE'


def test_bad_input_creates_nothing(user, heat, hello):
    before = {d.id for d in heat.software_deployments.list()}

    response = user.post(f'/project/configs/{hello}/deploy/', {
        'server': 'x' * 37, 'action': 'CREATE', 'name': 'hello',
        'transport': 'NO_SIGNAL', 'timeout': '10', 'input__greeting': 'hi'})

    assert 'has-error' in response.text
    assert {d.id for d in heat.software_deployments.list()} == before


def test_a_config_in_use_is_kept_with_a_clear_message_until_its_deployment_goes(
        user, heat, demo_resources):
    config_id = _create(user, 'in-use')
    # As a stack's deployment does: straight from the config, no derived copy.
    deployment = heat.software_deployments.create(
        config_id=config_id, server_id=demo_resources['db_server_2'], action='CREATE',
        status='COMPLETE', status_reason='made by the test')

    refused = user.post(f'/project/configs/{config_id}/delete/', {})

    assert '1 deployment uses this config' in refused.text
    assert heat.software_configs.get(config_id).id == config_id
    heat.software_deployments.delete(deployment.id)
    deleted = user.post(f'/project/configs/{config_id}/delete/', {})
    assert deleted.url.endswith('/project/configs/')
    assert any('Deleted software config' in m for m in dashboard.messages(deleted.text))
    with pytest.raises(heat_exc.HTTPNotFound):
        heat.software_configs.get(config_id)


def test_a_runs_derived_config_points_to_its_run(user, heat, hello, demo_resources):
    run = _deploy(user, hello, demo_resources['db_server_2'], 'NO_SIGNAL', 'derived')
    derived = heat.software_deployments.get(run).config_id

    refused = user.post(f'/project/configs/{derived}/delete/', {})

    # By the run's name and its server's, not their ids.
    assert 'This config was made for the run derived-CREATE on demo-db-2' in refused.text
    assert heat.software_configs.get(derived).id == derived


def test_a_copy_is_a_new_config_with_the_changes(user, heat, hello):
    form = user.get(f'/project/configs/{hello}/copy/').text
    assert 'greeting' in form and 'openstack software config create' in form

    response = user.post(f'/project/configs/{hello}/copy/', {
        'name': 'hello-copy', 'group': 'script', 'body_format': 'text',
        'config': '#!/bin/sh\necho copied\n',
        'inputs': '- name: greeting\n  default: salut\n', 'outputs': '', 'options': ''})

    copy_id = re.search(r'/project/configs/([0-9a-f-]{36})/$', response.url).group(1)
    assert copy_id != hello
    assert heat.software_configs.get(copy_id).inputs[0]['default'] == 'salut'
    assert heat.software_configs.get(hello).inputs[0]['default'] == 'hello'


def test_the_metadata_shows_its_secrets_only_when_asked(user, heat, demo_resources):
    server = demo_resources['db_server_1']
    signatures = re.findall(r'temp_url_sig=([0-9a-f]{20,})',
                            repr(heat.software_deployments.metadata(server_id=server)))

    asked = user.get(f'/project/servers/{server}/?tab=server_details__metadata&reveal=1').text
    confirm = user.get(f'/project/servers/{server}/metadata/reveal/').text
    page = user.post(f'/project/servers/{server}/metadata/reveal/', {}).text

    assert signatures
    for masked in (asked, confirm):
        assert not any(signature in masked for signature in signatures)
    assert 'Secrets are shown' in page
    assert all(signature in page for signature in signatures)
