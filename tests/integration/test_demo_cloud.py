"""The local cloud's demo stack reaches CREATE_COMPLETE through the servers' real agents."""

import os

import pytest

from devcloud import cloud as cloud_mod


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
