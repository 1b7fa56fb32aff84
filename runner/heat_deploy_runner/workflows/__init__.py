"""The Mistral workflows of heat-deploy-runner, by name, with their definitions.

A definition never changes once released: a changed one gets a new name (rolling_v2), so cron
triggers made for the old one keep running what they were made for.
"""

from importlib import resources

ROLLING = 'heat_deploy.rolling_v1'


def definition(name):
    """The workflow's YAML definition, as workflows.create takes it."""
    filename = name.split('.', 1)[1] + '.yaml'
    return resources.files(__name__).joinpath(filename).read_text(encoding='utf-8')


def ensure(mistral, project_id, name=ROLLING):
    """The id of the project's own copy of the workflow, made unless it has one
    (python-mistralclient v2).

    Private to the project: its users need no admin to have it, and a project's cron triggers
    keep the copy they were made for. By id, as Mistral shows an admin every project's
    private workflows, so that a name alone could mean another project's.
    """
    for found in mistral.workflows.list(name=name):
        if found.project_id == project_id:
            return found.id
    [made] = mistral.workflows.create(definition(name), scope='private')
    return made.id


def schedule_input(record, name, owner):
    """The rolling workflow's input for a firing of the schedule ``name`` whose record (as
    the dashboard's Schedules keep it in a Mistral environment) is ``record``, acting for
    ``owner``: leaving out servers still running an earlier run."""
    made = {
        'config_id': record['component_id'], 'name': record['run_name'],
        'action_name': record['action'], 'server_ids': record['server_ids'],
        'started_by': owner, 'input_values': record.get('input_values') or {},
        'transport': record['transport'], 'timeout_minutes': record['timeout_minutes'],
        'batch_size': record.get('batch_size') or 0,
        'max_failures': record.get('max_failures') or 0, 'skip_busy': True, 'schedule': name,
    }
    # Only with secrets: a workflow copy made before secret_ref would refuse the input.
    if record.get('secret_ref'):
        made['secret_ref'] = record['secret_ref']
    return made
