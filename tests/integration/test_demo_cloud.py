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

"""The local cloud's demo stack reaches CREATE_COMPLETE through the servers' real agents."""

import os
import pathlib

import pytest

from devcloud import cloud as cloud_mod
from devcloud import demo
from devcloud import layout as layout_mod
from devcloud import servers


def test_demo_stack_completes_through_the_agents(demo_stack):
    assert demo_stack.stack_status == 'CREATE_COMPLETE'


def test_stack_deployments_carry_the_agents_real_outputs(heat, demo_resources):
    # The stack's own deployments, whatever other tests ran on the same servers.
    db = heat.software_deployments.get(demo_resources['mysql_deployment_1'])
    assert db.status == 'COMPLETE'
    assert db.output_values['deploy_status_code'] == 0
    assert 'Initialised mysql data directory' in db.output_values['deploy_stdout']
    assert db.output_values['dsn'] == f'mysql://{demo_resources["db_server_1"]}/demo'

    web = heat.software_deployments.get(demo_resources['wordpress_deployment'])
    assert web.status == 'COMPLETE'
    # wordpress ran with mysql's output as its input.
    assert (f'wordpress installed against mysql://{demo_resources["db_server_1"]}/demo'
            in web.output_values['deploy_stdout'])


def test_stack_outputs_come_from_the_servers(heat, demo_stack, demo_resources):
    outputs = {o['output_key']: o['output_value']
               for o in heat.stacks.get(demo_stack.id).outputs}
    assert outputs['wordpress_url'] == f'http://{demo_resources["web_server"]}/'


def test_a_second_cloud_on_the_same_data_says_one_is_running(cloud):
    second = cloud_mod.Cloud(cloud.layout)
    with pytest.raises(cloud_mod.AlreadyRunning) as refused:
        second.start()
    assert f'already running from {cloud.layout.data_dir}' in str(refused.value)
    assert str(os.getpid()) in str(refused.value)
    assert second.sup.processes == []


def test_every_server_runs_the_stock_agent_chain(cloud):
    agents = {name.removeprefix('agent-') for name in cloud.services()
              if name.startswith('agent-')}
    assert agents == {'demo-db-1', 'demo-db-2', 'demo-web-1', 'demo-mon-1'}
    for name in agents:
        process = cloud.sup.running(f'agent-{name}')
        argv = pathlib.Path(f'/proc/{process.pid}/cmdline').read_bytes().split(b'\0')
        assert argv[1].endswith(b'/os-collect-config'), (name, argv)
        assert any(arg.startswith(b'os-refresh-config --lockfile') for arg in argv), argv
        environment = pathlib.Path(f'/proc/{process.pid}/environ').read_bytes().split(b'\0')
        assert b'HEAT_CONFIG_NOTIFY=heat-deploy-notify' in environment
        # Every file of the chain is heat-agents' own, unmodified, but the script hook of the
        # servers that carry heat-deploy-script-hook, linked as an operator links it.
        root = servers.root(cloud.layout, name)
        live_hook = name in demo.LIVE_HOOK_SERVERS
        for target, source in servers.image_files(root, servers.elements_dir(),
                                                  live_hook).items():
            assert target.read_bytes() == source.read_bytes(), target
        script = servers.hook_path(root, 'script')
        assert script.is_symlink() == live_hook, name
        if live_hook:
            assert script.resolve() == pathlib.Path(
                layout_mod.venv_bin(servers.LIVE_HOOK)).resolve()
    assert set() < demo.LIVE_HOOK_SERVERS < agents
