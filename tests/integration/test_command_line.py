"""The `openstack software component ...` and `software run ...` commands, run as an operator
runs them: a process of their own, logged in through the OS_* variables, against the real local
cloud."""

import json
import os
import subprocess

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud.services import identity
from tests.integration import waiting


def _openstack(cloud, *argv, username=credentials.DEMO_USER,
               password=credentials.DEMO_PASSWORD, project=credentials.DEMO_PROJECT):
    env = dict(os.environ, **identity.cli_environment(cloud.layout, username, password,
                                                      project))
    return subprocess.run([layout_mod.venv_bin('openstack'), *argv], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _json(done):
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_components_are_listed_as_the_panel_lists_them(cloud, demo_resources):
    listed = {each['Name']: each for each in _json(
        _openstack(cloud, 'software', 'component', 'list', '-f', 'json'))}

    mysql = listed['mysql']
    assert mysql['ID'] == demo_resources['mysql']
    assert mysql['Stack'] == 'demo'
    assert 'BACKUP' in mysql['Custom Actions'] and 'CREATE' in mysql['Lifecycle Actions']
    assert mysql['Servers'] == 2


def test_a_component_is_shown_by_its_name_with_its_inputs_and_servers(cloud, demo_resources):
    shown = _json(_openstack(cloud, 'software', 'component', 'show', 'mysql', '-f', 'json'))

    assert shown['id'] == demo_resources['mysql']
    assert 'retention_days' in {each['name'] for each in shown['inputs']}
    assert {each['server'] for each in shown['servers']} == {
        demo_resources['db_server_1'], demo_resources['db_server_2']}


def test_an_unknown_component_is_one_sentence_and_a_failure(cloud):
    done = _openstack(cloud, 'software', 'component', 'show', 'no-such-component')

    assert done.returncode != 0
    assert 'No software component no-such-component in this project.' in done.stderr
    assert 'Traceback' not in done.stderr


def test_another_project_sees_none_of_the_demo_projects_components(cloud, demo_resources):
    listed = _json(_openstack(cloud, 'software', 'component', 'list', '-f', 'json',
                              username=credentials.OTHER_USER,
                              password=credentials.OTHER_PASSWORD,
                              project=credentials.OTHER_PROJECT))

    assert demo_resources['mysql'] not in {each['ID'] for each in listed}


def test_a_run_is_shown_with_its_outcome_and_outputs_to_its_project_only(
        cloud, heat, start_run):
    run, _config = start_run('mysql', 'BACKUP', 'db_server_1', backup_dir='from-the-cli',
                             pause_seconds=0)
    waiting.finished(heat, run.id)

    shown = _json(_openstack(cloud, 'software', 'run', 'show', run.id, '-f', 'json'))
    outputs = _json(_openstack(cloud, 'software', 'run', 'output', run.id, '--all',
                               '-f', 'json'))
    foreign = _openstack(cloud, 'software', 'run', 'show', run.id,
                         username=credentials.OTHER_USER, password=credentials.OTHER_PASSWORD,
                         project=credentials.OTHER_PROJECT)

    assert (shown['name'], shown['status'], shown['exit_code']) == (
        'mysql-BACKUP', 'COMPLETE', 0)
    assert shown['inputs']['backup_dir'] == 'from-the-cli'
    assert outputs['deploy_stdout'] == heat.software_deployments.get(
        run.id).output_values['deploy_stdout']
    assert foreign.returncode != 0
    assert f'No run {run.id} in this project.' in foreign.stderr
