"""The local cloud's demo stack reaches CREATE_COMPLETE through the servers' real agents."""


def test_demo_stack_completes_through_the_agents(demo_stack):
    assert demo_stack.stack_status == 'CREATE_COMPLETE'


def test_stack_deployments_carry_the_agents_real_outputs(heat, demo_resources):
    deployments = {d.server_id: d for d in heat.software_deployments.list()}
    db = deployments[demo_resources['db_server_1']]
    assert db.status == 'COMPLETE'
    assert db.output_values['deploy_status_code'] == 0
    assert 'Initialised mysql data directory' in db.output_values['deploy_stdout']
    assert db.output_values['dsn'] == f'mysql://{demo_resources["db_server_1"]}/demo'

    web = deployments[demo_resources['web_server']]
    assert web.status == 'COMPLETE'
    # wordpress ran with mysql's output as its input.
    assert (f'wordpress installed against mysql://{demo_resources["db_server_1"]}/demo'
            in web.output_values['deploy_stdout'])


def test_stack_outputs_come_from_the_servers(heat, demo_stack, demo_resources):
    outputs = {o['output_key']: o['output_value']
               for o in heat.stacks.get(demo_stack.id).outputs}
    assert outputs['wordpress_url'] == f'http://{demo_resources["web_server"]}/'
