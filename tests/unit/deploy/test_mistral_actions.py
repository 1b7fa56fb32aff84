"""The rolling and follow workflows' actions on the in-memory Heat, Swift and Zaqar, with the
contexts Mistral gives them: one execution's id, the user's token or a trust."""

import datetime
import functools
import json
from unittest import mock

from keystoneauth1.identity import generic
from keystoneauth1 import loading
from mistral_lib import actions as mistral_actions
from oslo_config import cfg
import pytest
from zaqarclient.transport import errors as zaqar_errors

import heat_deploy_runner as runner
from heat_deploy_runner import archive
from heat_deploy_runner import derived
from heat_deploy_runner.derived import OPERATION_OPTION
from heat_deploy_runner import expiry
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner import notices
from heat_deploy_runner import operations
from heat_deploy_runner.run import Run
from heat_deploy_runner import secret_store
from heat_deploy_runner import session_clients
from heat_deploy_runner import settling
from heat_deploy_runner import tempurl
from heat_deploy_runner import workflows

EXECUTION_ID = '7d3a63a5-4a7e-4ad4-9d54-0b5b1f3a6c11'


@pytest.fixture
def context():
    return mock.Mock(**{'execution.workflow_execution_id': EXECUTION_ID,
                        'security.trust_id': None})


@pytest.fixture
def cloud(heat, swift, monkeypatch):
    clients = session_clients.Clients(
        heat, functools.partial(runner.transport_for, swift=swift), swift)
    monkeypatch.setattr(clients_mod, 'clients_for', lambda security, trust_id=None: clients)
    monkeypatch.setattr(actions, 'POLL_SECONDS', 0)
    # Each action's first run (test_mistral_reruns runs them again).
    monkeypatch.setattr(actions.service, 'action_attempts', lambda session, task_id: 1)
    return clients


@pytest.fixture
def notified_cloud(heat, swift, zaqar, monkeypatch):
    """The clients of a cloud with Zaqar in its catalog: notices are posted."""
    clients = session_clients.Clients(
        heat, functools.partial(runner.transport_for, swift=swift, zaqar=zaqar), swift, zaqar)
    monkeypatch.setattr(clients_mod, 'clients_for', lambda security, trust_id=None: clients)
    monkeypatch.setattr(actions, 'POLL_SECONDS', 0)
    # Each action's first run (test_mistral_reruns runs them again).
    monkeypatch.setattr(actions.service, 'action_attempts', lambda session, task_id: 1)
    return clients


@pytest.fixture
def component(heat):
    return heat.add_config(name='mysql', group='component', config={'configs': [
        {'actions': ['BACKUP'], 'tool': 'script', 'config': 'echo hi'}]})


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


def test_trigger_makes_the_batch_runs_carrying_the_execution_as_operation(
        cloud, context, heat, component):
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2'], 'alice',
                               '2026-11-24T10:00:00Z', name='mysql').run(context)
    assert made['failed_to_start'] == []
    runs = [heat.software_deployments.get(run_id) for run_id in made['deployment_ids']]
    assert [run.server_id for run in runs] == ['s1', 's2']
    assert {operations.operation_of_run(run) for run in runs} == {operations.Operation(
        EXECUTION_ID, 'alice', '2026-11-24T10:00:00Z', component, runner='mistral')}
    assert {heat.configs[run.config_id]['name'] for run in runs} == {'mysql-BACKUP'}


def test_a_try_again_keeps_which_try_its_runs_are_through_mistrals_json(
        cloud, context, heat, component):
    made = _as_mistral_sends_it(actions.StartAction(
        component, 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z', try_number=2,
        tries=3)).run(context)
    only = actions.StartAction(component, 'BACKUP', ['s2'], 'alice', '2026-11-24T10:00:00Z',
                               try_number=1, tries=1).run(context)

    [again] = [operations.operation_of_run(heat.software_deployments.get(run_id))
               for run_id in made['deployment_ids']]
    assert (again.try_number, again.tries, again.followed) == (2, 3, True)
    # An operation that tries each server once keeps the shape runs had before retries.
    [once] = [heat.deployments[run_id]['input_values'] for run_id in only['deployment_ids']]
    assert 'try' not in once[OPERATION_OPTION]


def test_trigger_reads_the_secret_inputs_from_the_store_mistral_never_holds(
        cloud, context, heat, swift, component):
    secret_store.put(swift, 'hdd-1', {'db_password': 'hunter2'})
    made = actions.StartAction(component, 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z',
                               input_values={'backup_dir': 'b'},
                               secret_ref='hdd-1').run(context)
    [run] = [heat.software_deployments.get(run_id) for run_id in made['deployment_ids']]
    given = {each['name']: each.get('value') for each in heat.configs[run.config_id]['inputs']}
    assert (given['db_password'], given['backup_dir']) == ('hunter2', 'b')


def test_trigger_with_its_secrets_gone_starts_nothing(cloud, context, heat, swift, component):
    refused = actions.StartAction(component, 'BACKUP', ['s1'], 'alice',
                                  '2026-11-24T10:00:00Z', secret_ref='hdd-1').run(context)
    assert isinstance(refused, mistral_actions.Result)
    assert 'heat-deploy-secrets/hdd-1' in refused.error
    assert heat.deployments == {}


def test_trigger_refuses_bad_input_as_an_action_error_and_makes_nothing(
        cloud, context, heat, component):
    refused = actions.StartAction(component, ' ', ['s1'], 'alice',
                                  '2026-11-24T10:00:00Z').run(context)
    assert isinstance(refused, mistral_actions.Result)
    assert refused.error == 'Choose an action to run.'
    assert heat.deployments == {}


def test_a_server_that_could_not_start_is_counted_not_raised(cloud, context, heat, component):
    heat.fail('software_deployments.create', RuntimeError('boom'),
              when=lambda **kwargs: kwargs['server_id'] == 's2')
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    assert len(made['deployment_ids']) == 1
    assert made['failed_to_start'] == [[
        's2', 'Could not start BACKUP on server s2: its deployment could not be created.']]


def _as_mistral_sends_it(action):
    """The action as Mistral's executor gets it: its attributes, through JSON."""
    sent = json.loads(json.dumps(vars(action)))
    received = object.__new__(type(action))
    received.__dict__.update(sent)
    return received


def test_trigger_works_as_mistrals_executor_receives_it(cloud, context, heat, component):
    made = _as_mistral_sends_it(actions.StartAction(
        component, 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z', name='mysql',
        input_values={'retention_days': 3})).run(context)

    [run] = [heat.software_deployments.get(run_id) for run_id in made['deployment_ids']]
    assert heat.configs[run.config_id]['name'] == 'mysql-BACKUP'


@pytest.mark.parametrize('action', [
    actions.PlanAction('c1', ['s1'], batch_size=1, skip_busy=True),
    actions.StartAction('c1', 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z'),
    actions.StartAction('c1', 'BACKUP', ['s1'], 'alice', '2026-11-24T10:00:00Z',
                        try_number=2, tries=3),
    actions.WaitAction(['d1']),
    actions.JudgeAction(['s1'], 0, [['s1']], 1),
    actions.ConcludeAction('c1', 'BACKUP', ['d1'], refused=[['s2', 'why']],
                           not_started=['s3'], schedule='hdd-1', server_names={'s1': 'db'},
                           link='https://dash/{operation}')])
def test_every_action_travels_as_json(action):
    assert vars(_as_mistral_sends_it(action)) == vars(action)


def test_wait_returns_done_with_the_failed_servers(cloud, context, heat, component):
    ids = [heat.software_deployments.create(config_id=component, server_id=server,
                                            status=status).id
           for server, status in (('s1', 'COMPLETE'), ('s2', 'FAILED'))]
    assert actions.WaitAction(ids).run(context) == {
        'done': True, 'failed': ['s2'], 'cancelled': [], 'retryable': ['s2']}


def test_wait_gives_the_workflow_back_control_while_runs_go_on(
        cloud, context, heat, component, monkeypatch):
    monkeypatch.setattr(actions, 'WAIT_SECONDS', 0)
    run = heat.software_deployments.create(config_id=component, server_id='s1',
                                           status='IN_PROGRESS')
    assert actions.WaitAction([run.id]).run(context) == {
        'done': False, 'failed': [], 'cancelled': [], 'retryable': []}


def test_wait_reads_heat_again_once_the_servers_result_has_arrived(
        cloud, context, heat, swift, component, monkeypatch):
    made = actions.StartAction(component, 'BACKUP', ['s1'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    [run_id] = made['deployment_ids']
    derived_id = heat.deployments[run_id]['config_id']
    signal = tempurl.signal_location(derived.derived_input_values(heat.configs[derived_id]))
    looks = []
    head = swift.head_object

    def head_object(container, name, headers=None):
        looks.append(name)
        if len(looks) == 3:
            # The server PUTs its result to its TempURL.
            swift.put_object(container, name, '{"deploy_status_code": 0}')
        return head(container, name)
    monkeypatch.setattr(swift, 'head_object', head_object)
    read = heat.software_deployments.get

    def show(deployment_id):
        # Heat's show applies the result waiting in Swift.
        if swift.containers[signal[0]].get(signal[1]):
            heat.deployments[run_id]['status'] = 'COMPLETE'
        return read(deployment_id)
    monkeypatch.setattr(heat.software_deployments, 'get', show)

    assert actions.WaitAction([run_id]).run(context)['done']

    # Heat is read once at the start, then once the result is there.
    assert len(looks) == 3
    assert heat.deployments[run_id]['status'] == 'COMPLETE'
    assert [call[1] for call in heat.called('software_configs.get')].count((derived_id,)) == 1


def test_a_run_is_looked_at_less_often_as_it_ages_and_on_time_for_its_deadline():
    now = datetime.datetime(2026, 11, 27, 23, 0, tzinfo=datetime.timezone.utc)

    def running(age_seconds, deadline_in=3600):
        signal = ('https://swift.example.com/v1/AUTH_p/c/o?temp_url_expires='
                  f'{int((now + datetime.timedelta(seconds=deadline_in)).timestamp())}')
        return Run('r', 's1', 'c', status='IN_PROGRESS',
                   creation_time=(now - datetime.timedelta(seconds=age_seconds)).isoformat(),
                   config={'inputs': [{'name': 'deploy_signal_id', 'value': signal},
                                      {'name': 'deploy_signal_transport',
                                       'value': 'TEMP_URL_SIGNAL'}]})

    with mock.patch.object(actions, 'POLL_SECONDS', 1.5):
        assert actions._pause([running(5)], now) == 1.5
        assert actions._pause([running(60)], now) == 6
        assert actions._pause([running(3000)], now) == actions.MAX_POLL_SECONDS
        # The youngest sets the pace; a deadline nearer than the pace, the wake.
        assert actions._pause([running(3000), running(20)], now) == 2
        assert actions._pause([running(3000, deadline_in=4)], now) == 4


def test_wait_tells_cancelled_servers_from_those_to_try_again(cloud, context, heat, component):
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2', 's3'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    first, second, third = made['deployment_ids']
    runner.cancel(heat, first, 'bob', cloud.find_transport)
    heat.deployments[second].update(status='FAILED', status_reason='Deployment exited 1')
    heat.deployments[third].update(status='COMPLETE')

    assert actions.WaitAction(made['deployment_ids']).run(context) == {
        'done': True, 'failed': ['s1', 's2'], 'cancelled': ['s1'], 'retryable': ['s2']}


def test_wait_takes_a_run_deleted_meanwhile_as_ended(cloud, context, heat, component):
    made = actions.StartAction(component, 'BACKUP', ['s1', 's2'], 'alice',
                               '2026-11-24T10:00:00Z').run(context)
    gone, ended = made['deployment_ids']
    runner.delete(heat, gone, cloud.find_transport)
    heat.deployments[ended].update(status='FAILED', status_reason='Deployment exited 1')

    assert actions.WaitAction([gone, ended]).run(context) == {
        'done': True, 'failed': ['s2'], 'cancelled': [], 'retryable': ['s2']}


@pytest.mark.parametrize('failed, allowed, next_batch, reason', [
    (['s1'], 1, 1, None),
    (['s1'], 0, 1, 'Stopped: servers failed: 1, more than the 0 allowed; not started: 2.'),
    (['s1', 's2'], 1, 3, 'Servers failed: 2, more than the 1 allowed.'),
    ([], 0, 3, None),
])
def test_judge_stops_once_more_servers_failed_than_allowed(failed, allowed, next_batch,
                                                           reason, context):
    batches = [['s1'], ['s2'], ['s3']]
    assert actions.JudgeAction(failed, allowed, batches, next_batch).run(context) == {
        'stop': reason}


SCHEDULE = 'hdd-6e7f8a9b-0c1d-4e2f-9a3b-4c5d6e7f8a9b'
SECRET = 'hunter2-of-the-db'


def _ended(heat, run_id, status, code=0, stderr='', reason='Outputs received'):
    heat.deployments[run_id].update(status=status, status_reason=reason, output_values={
        'deploy_stdout': '', 'deploy_stderr': stderr, 'deploy_status_code': code})


def _tried(context, component, servers, try_number, tries=2, **request):
    return actions.StartAction(component, 'BACKUP', servers, 'alice', '2026-11-24T10:00:00Z',
                               name='mysql', try_number=try_number, tries=tries,
                               **request).run(context)['deployment_ids']


def test_conclude_records_the_outcome_of_each_servers_last_try(
        cloud, context, heat, component):
    first = _tried(context, component, ['s1', 's2'], 1)
    _ended(heat, first[0], 'COMPLETE')
    _ended(heat, first[1], 'FAILED', 1, reason='Deployment exited 1')
    again = _tried(context, component, ['s2'], 2)
    _ended(heat, again[0], 'FAILED', 3, 'no space left\n', 'Deployment exited 3')

    kept = actions.ConcludeAction(component, 'BACKUP', first + again,
                                  refused=[['s3', 'quota reached']],
                                  not_started=['s4']).run(context)

    assert (kept['servers'], kept['counts']) == (4, {'COMPLETE': 1, 'FAILED': 1})
    assert kept['failed'] == [{'server_id': 's2', 'status': 'FAILED', 'exit_code': 3,
                               'reason': 'Deployment exited 3', 'stderr': 'no space left',
                               'tries': 2}]
    assert (kept['refused'], kept['not_started'], kept['gone']) == (
        [['s3', 'quota reached']], ['s4'], [])
    # No Zaqar in the catalog: nothing posted, nothing said failed.
    assert 'notified' not in kept and 'notice_failed' not in kept
    # The workflow publishes it as the execution's output: JSON.
    assert json.loads(json.dumps(kept)) == kept


def test_conclude_counts_a_run_deleted_meanwhile_as_gone(cloud, context, heat, component):
    kept_id, gone_id = _tried(context, component, ['s1', 's2'], 1, tries=1)
    _ended(heat, kept_id, 'COMPLETE')
    runner.delete(heat, gone_id, cloud.find_transport)

    kept = actions.ConcludeAction(component, 'BACKUP', [kept_id, gone_id]).run(context)

    assert (kept['servers'], kept['gone']) == (1, [gone_id])


def test_conclude_posts_its_notice_to_the_subscribed_queues_only(
        notified_cloud, context, heat, zaqar, component):
    notices.subscribe(zaqar, component, notices.ON_FAILURE, 'https://hooks.example.com/a')
    notices.subscribe(zaqar, SCHEDULE, notices.ALWAYS, 'mailto:ops@example.com')
    # Told only of successes of this operation: a failure posts there too (always).
    notices.subscribe(zaqar, EXECUTION_ID, notices.ALWAYS, 'https://hooks.example.com/b')
    # Another component's subscribers hear nothing.
    notices.subscribe(zaqar, 'other-component', notices.ALWAYS, 'https://hooks.example.com/c')
    ids = _tried(context, component, ['s1', 's2'], 1, tries=1)
    _ended(heat, ids[0], 'COMPLETE')
    _ended(heat, ids[1], 'FAILED', 1, reason='Deployment exited 1')

    kept = actions.ConcludeAction(component, 'BACKUP', ids, schedule=SCHEDULE,
                                  server_names={'s2': 'db-2'},
                                  link='https://dash/ops/{operation}/').run(context)

    told = [notices.queue_name(EXECUTION_ID, 'always'),
            notices.queue_name(component, 'failure'), notices.queue_name(SCHEDULE, 'always')]
    assert kept['notified'] == told
    assert sorted(zaqar.queues) == sorted(told)
    [message] = zaqar.bodies(told[0])
    assert all(zaqar.bodies(name) == [message] for name in told)
    assert message['summary'] == 'BACKUP of mysql: 1 of 2 servers failed (db-2).'
    assert (message['operation'], message['schedule'], message['link']) == (
        EXECUTION_ID, SCHEDULE, f'https://dash/ops/{EXECUTION_ID}/')


def test_no_secret_input_of_the_runs_is_in_their_notice_or_outcome(
        notified_cloud, context, heat, swift, zaqar, component):
    notices.subscribe(zaqar, component, notices.ALWAYS, 'https://hooks.example.com/a')
    secret_store.put(swift, 'hdd-1', {'db_password': SECRET})
    [run_id] = _tried(context, component, ['s1'], 1, tries=1, secret_ref='hdd-1')
    signal_url = runner.derived_input_values(
        heat.configs[heat.deployments[run_id]['config_id']])['deploy_signal_id']
    _ended(heat, run_id, 'FAILED', 1, f'mysqldump -p{SECRET}: access denied\n{signal_url}\n',
           f'Deployment exited 1: password {SECRET} refused')

    kept = actions.ConcludeAction(component, 'BACKUP', [run_id]).run(context)

    [posted] = zaqar.bodies(notices.queue_name(component, 'always'))
    sent = json.dumps([posted, kept])
    assert SECRET not in sent and signal_url not in sent
    assert posted['failed_servers'][0]['stderr'].startswith('mysqldump -p********: ')


@pytest.mark.parametrize('failing', ['queue.post', 'subscriptions'])
def test_a_notice_that_could_not_be_posted_is_recorded_not_raised(
        notified_cloud, context, heat, zaqar, component, failing):
    notices.subscribe(zaqar, component, notices.ALWAYS, 'https://hooks.example.com/a')
    [run_id] = _tried(context, component, ['s1'], 1, tries=1)
    _ended(heat, run_id, 'COMPLETE')
    zaqar.fail(failing, zaqar_errors.ServiceUnavailableError('Zaqar is down'))

    kept = actions.ConcludeAction(component, 'BACKUP', [run_id]).run(context)

    assert kept['counts'] == {'COMPLETE': 1}
    assert 'Zaqar is down' in kept['notice_failed'] and 'notified' not in kept


def test_an_execution_started_through_the_api_uses_the_users_token_as_it_is():
    security = mock.Mock(trust_id=None, auth_token='the-token', service_catalog={
        'expires_at': '2999-01-01T00:00:00.000000Z', 'methods': ['password'],
        'project': {'id': 'p1', 'name': 'demo', 'domain': {'id': 'default'}},
        'user': {'id': 'u1', 'name': 'demo', 'domain': {'id': 'default'}},
        'catalog': [{'type': 'orchestration', 'name': 'heat', 'endpoints': [
            {'interface': 'public', 'region': 'RegionOne', 'region_id': 'RegionOne',
             'url': 'http://heat.example.com/v1/p1'}]}]})
    with mock.patch('keystoneauth1.session.Session.request') as request:
        session = clients_mod.session_for(security)
        assert session.get_token() == 'the-token'
        assert session.get_endpoint(service_type='orchestration',
                                    interface='public') == 'http://heat.example.com/v1/p1'
        assert session_clients.endpoint(session, 'messaging') is None
    request.assert_not_called()


class _Workflows:
    """python-mistralclient's workflows manager, as an admin sees it: every project's."""

    def __init__(self, *existing):
        self.existing = list(existing)
        self.made = []

    def list(self, name=None):
        return [each for each in self.existing if each.name == name]

    def create(self, definition, scope='private'):
        made = mock.Mock(id=f'made-{len(self.made)}', project_id='mine', scope=scope)
        made.name = workflows.ROLLING_WORKFLOW
        self.made.append(definition)
        return [made]


def _workflow(workflow_id, project_id):
    found = mock.Mock(id=workflow_id, project_id=project_id)
    found.name = workflows.ROLLING_WORKFLOW
    return found


def test_the_projects_own_copy_of_the_workflow_is_used_and_made_only_once():
    client = mock.Mock(workflows=_Workflows(_workflow('theirs', 'other-project')))
    assert workflows.ensure(client, 'mine') == 'made-0'
    assert client.workflows.made == [workflows.definition(workflows.ROLLING_WORKFLOW)]
    client.workflows.existing.append(_workflow('made-0', 'mine'))
    assert workflows.ensure(client, 'mine') == 'made-0'
    assert len(client.workflows.made) == 1


MISTRAL_CONF = '''
[keystone_authtoken]
auth_type = password
auth_url = http://keystone.example.com/v3
username = mistral
password = secret
project_name = service
user_domain_name = Default
project_domain_name = Default
'''


def test_a_cron_firing_works_through_its_trust_as_mistrals_service_user(tmp_path):
    conf_file = tmp_path / 'mistral.conf'
    conf_file.write_text(MISTRAL_CONF)
    conf = cfg.ConfigOpts()
    loading.register_auth_conf_options(conf, 'keystone_authtoken')
    conf(args=[], default_config_files=[str(conf_file)])
    security = mock.Mock(trust_id='trust-1', auth_token='fixed-token-of-the-firing')

    with mock.patch('keystoneauth1.session.Session.request') as request:
        session = clients_mod._trust_session(security.trust_id, conf)
    request.assert_not_called()

    assert isinstance(session.auth, generic.Password)
    scope = session.auth.get_cache_id_elements()
    assert (scope['trust_id'], scope['username']) == ('trust-1', 'mistral')
    # Keystone refuses a trust together with another scope.
    assert not any(scope[key] for key in ('project_id', 'project_name', 'project_domain_id',
                                          'project_domain_name', 'domain_id', 'domain_name'))


def test_prune_archives_and_deletes_the_runs_past_the_bound_of_the_firing_project(
        cloud, context, heat, swift, component):
    context.security.project_id = 'project-1'
    kept = operations.Operation('op-1', 'alice', '2026-01-01T00:00:00Z', source=component)
    old, new = (runner.start(heat, cloud.find_transport, runner.RunRequest(
        config_id=component, action='BACKUP', server_ids=['s1']), kept).created[0]
        for _ in range(2))
    heat.deployments[old.id].update(creation_time='2026-01-01T00:00:00Z', status='COMPLETE')
    heat.deployments[new.id].update(status='COMPLETE')

    result = actions.PruneAction(1, '7', 2000).run(context)

    assert result == {'pruned': [old.id], 'left': []}
    assert list(heat.deployments) == [new.id]
    assert archive.get(swift, old.id).archived
    # Mistral hands the action to its executor as its attributes, in JSON.
    assert json.loads(json.dumps(vars(actions.PruneAction(1, 7, 2000))))
