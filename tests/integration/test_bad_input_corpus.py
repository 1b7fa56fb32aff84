"""Bad input, over HTTP with real CSRF tokens, as the demo user: odd ids in every URL that
takes one and in the status poll, odd filters and page markers on every list, and wrong
values in every form (create and copy a config, deploy a config, run a component's action,
schedule it, change a schedule).

Each case must be answered clearly and harmlessly: never a server error (5xx), never a
message that blames a service that is fine ("could not be reached", "ask your cloud
administrator to check Heat"), but a 404 or 400, a form error, or a not-found message; and
nothing created: the demo project's Heat deployments and configs, its Swift containers and
its Mistral schedules (with what each holds) and rolling runs are counted before and after
every case (what a case created is reported by that case and removed, so that the next one
starts from the same state).

Three controls, one per form, submit the same base values without the bad one and must
create a run or a config: a form case then fails because of its bad value, not its base.
"""

import dataclasses
import re
import threading
import time
from urllib import parse
import uuid

from heatclient import client as heat_client
from heatclient import exc as heat_exc
import pytest

from devcloud import credentials
from devcloud.services import identity
from heat_deploy_runner import schedules as runner_schedules
from tests.integration import corpus

MARK = uuid.uuid4().hex[:10]
HUGE = '7' * 100_000                     # 100 KB
HUGE_TEXT = 'x' * 100_000
UNKNOWN = str(uuid.uuid4())

# Odd ids as a URL's path segment (percent-encoded where a browser would) and as a form
# value.
ODD_IDS = {
    'nul': ('%00', '\x00'),
    'control': ('a%01b%1Fc%7F', 'a\x01b\x1fc\x7f'),
    'id-4k': ('a' * 4096, 'a' * 4096),
    'id-300': ('f' * 300, 'f' * 300),
    'unicode': (parse.quote('ü€😀'), 'ü€😀'),
    'quotes': (parse.quote('\'"'), '\'"'),
    'dotdot': ('%2E%2E', '..'),
    'dotdot-slash': ('..%2F..%2Fetc%2Fpasswd', '../../etc/passwd'),
    'space': ('a%20b', 'a b'),
    'markup': (parse.quote('<b>x</b>'), '<b>x</b>'),
    'unknown-uuid': (UNKNOWN, UNKNOWN),
}
# Those tried in every URL (all of them go to the status poll).
URL_IDS = ('nul', 'control', 'id-4k', 'id-300', 'unicode', 'quotes', 'dotdot-slash', 'space',
           'unknown-uuid')

# What each URL with an id answers when the id names nothing: a page, or a server's page
# (Heat cannot tell a server that does not exist from one without deployments).
ID_URLS = {
    'deployment-detail': ('/project/deployments/{id}/', 'refused'),
    'deployment-rerun': ('/project/deployments/{id}/rerun/', 'refused'),
    'deployment-output': ('/project/deployments/{id}/outputs/deploy_stdout/', 'refused'),
    'config-detail': ('/project/configs/{id}/', 'refused'),
    'config-copy': ('/project/configs/{id}/copy/', 'refused'),
    'config-deploy': ('/project/configs/{id}/deploy/', 'refused'),
    'config-delete': ('/project/configs/{id}/delete/', 'refused'),
    'component-detail': ('/project/components/{id}/', 'refused'),
    'component-run': ('/project/components/{id}/run/', 'refused'),
    'schedule-change': ('/project/schedules/{id}/change/', 'refused'),
    'server-detail': ('/project/servers/{id}/', 'server'),
}

CONFIG_BASE = {'name': f'corpus-{MARK}', 'group': 'script', 'body_format': 'text',
               'config': '#!/bin/sh\necho corpus\n', 'inputs': '', 'outputs': '',
               'options': ''}
# The probe config's inputs: one of each type, s without a default.
PROBE_INPUTS = [
    {'name': 'n', 'type': 'Number', 'default': 1},
    {'name': 'b', 'type': 'Boolean', 'default': False},
    {'name': 'j', 'type': 'Json', 'default': {}},
    {'name': 'l', 'type': 'CommaDelimitedList', 'default': 'a'},
    {'name': 's', 'type': 'String'},
]
DEPLOY_BASE = {'server': '<db1>', 'action': 'CREATE', 'name': 'corpus',
               'transport': 'NO_SIGNAL', 'timeout': '10', 'input__n': '1',
               'input__b': 'false', 'input__j': '{}', 'input__l': 'a', 'input__s': 'text'}
RUN_BASE = {'action': 'BACKUP', 'servers': ['<db1>'], 'transport': 'NO_SIGNAL',
            'timeout': '10', 'input__backup_dir': 'corpus', 'input__retention_days': '1',
            'input__compress': 'false', 'input__tables': 'users', 'input__labels': '{}',
            'input__pause_seconds': '0', 'input__backup_file': '', 'input__log_lines': '0'}

CREATE = '/project/configs/create/'
DEPLOY = '/project/configs/<probe>/deploy/'
RUN = '/project/components/<component>/run/'
CHANGE = '/project/schedules/<schedule>/change/'
# A schedule of the base run that never fires in a test run, for the Change form's cases.
NEVER = '0 3 1 1 *'


@dataclasses.dataclass(frozen=True)
class Case:
    label: str
    method: str
    path: str
    expect: str                      # refused, list, status, server
    data: tuple = ()                 # (name, value) pairs
    files: tuple = ()                # (field, file name, bytes)


def _form(base, **changes):
    """The base values with some changed; a value of None leaves the field out."""
    values = dict(base)
    for name, value in changes.items():
        if value is None:
            values.pop(name, None)
        else:
            values[name] = value
    return tuple(values.items())


def _cases():
    cases = []

    # --- odd ids in every URL that takes one (GET) ---
    for url_label, (template, expect) in ID_URLS.items():
        for id_label in URL_IDS:
            cases.append(Case(f'url-{url_label}-{id_label}', 'GET',
                              template.format(id=ODD_IDS[id_label][0]), expect))
    for id_label in ('nul', 'quotes', 'id-300', 'unknown-uuid'):
        segment = ODD_IDS[id_label][0]
        cases.append(Case(f'url-server-reveal-{id_label}', 'GET',
                          f'/project/servers/{segment}/metadata/reveal/', 'server'))
    cases.append(Case('url-deployment-detail-markup', 'GET',
                      f'/project/deployments/{ODD_IDS["markup"][0]}/', 'refused'))
    cases.append(Case('url-config-detail-dotdot', 'GET',
                      f'/project/configs/{ODD_IDS["dotdot"][0]}/', 'refused'))
    # ...and posted to every form that takes one.
    for id_label in ('nul', 'quotes', 'id-300', 'unknown-uuid'):
        segment = ODD_IDS[id_label][0]
        cases += [
            Case(f'post-config-copy-{id_label}', 'POST', f'/project/configs/{segment}/copy/',
                 'refused', _form(CONFIG_BASE)),
            Case(f'post-config-deploy-{id_label}', 'POST',
                 f'/project/configs/{segment}/deploy/', 'refused', _form(DEPLOY_BASE)),
            Case(f'post-config-delete-{id_label}', 'POST',
                 f'/project/configs/{segment}/delete/', 'refused'),
            Case(f'post-component-run-{id_label}', 'POST',
                 f'/project/components/{segment}/run/', 'refused', _form(RUN_BASE)),
        ]
    # Odd output names of a real run.
    for label, name in (('nul', '%00'), ('dotdot', '..%2F..%2Fsettings'), ('long', 'o' * 3000),
                        ('unknown', 'no_such_output')):
        cases.append(Case(f'url-output-name-{label}', 'GET',
                          f'/project/deployments/<stack_run>/outputs/{name}/', 'refused'))

    # --- the status poll ---
    for id_label, (_segment, raw) in ODD_IDS.items():
        cases.append(Case(f'status-post-{id_label}', 'POST', '/project/deployments/status/',
                          'status', (('id', raw),)))
    cases += [
        Case('status-post-huge-id', 'POST', '/project/deployments/status/', 'status',
             (('id', HUGE_TEXT),)),
        # More than a page holds (MAX_IDS): none of them a deployment's id.
        Case('status-post-300-ids', 'POST', '/project/deployments/status/', 'status',
             tuple(('id', f'no-such-run-{number}') for number in range(300))),
        Case('status-post-no-id', 'POST', '/project/deployments/status/', 'status'),
        Case('status-post-empty-id', 'POST', '/project/deployments/status/', 'status',
             (('id', ''),)),
        Case('status-get-nul', 'GET', '/project/deployments/status/?id=%00', 'status'),
        Case('status-get-mixed', 'GET',
             f'/project/deployments/status/?id=<stack_run>&id=%27%22&id={UNKNOWN}', 'status'),
    ]

    # --- odd filters and page markers on the lists ---
    filters = [
        ('deployments', 'status', '\x00'), ('deployments', 'status', HUGE_TEXT),
        ('deployments', 'action', 'ü€😀'), ('deployments', 'server', '\'"<b>'),
        ('deployments', 'server', ''), ('deployments', 'bogus', 'x'),
        ('configs', 'name', '\x00'), ('configs', 'name', HUGE_TEXT),
        ('configs', 'group', 'ü€😀'), ('configs', 'name', '%_*'), ('configs', 'bogus', 'x'),
    ]
    for number, (table, field, value) in enumerate(filters, start=1):
        cases.append(Case(f'filter-{table}-{field}-{number}', 'POST', f'/project/{table}/',
                          'list', ((f'{table}__filter__q_field', field),
                                   (f'{table}__filter__q', value))))
    for label, query in (('nul', '%00'), ('unknown', UNKNOWN), ('long', 'm' * 3000),
                         ('quotes', '%27%22')):
        cases.append(Case(f'list-deployments-marker-{label}', 'GET',
                          f'/project/deployments/?marker={query}', 'list'))
        cases.append(Case(f'list-configs-marker-{label}', 'GET',
                          f'/project/configs/?marker={query}', 'list'))
    cases += [
        Case('list-deployments-prev-marker-nul', 'GET',
             '/project/deployments/?prev_marker=%00', 'list'),
        Case('list-servers-junk-query', 'GET', '/project/servers/?marker=%00&tab=%00', 'list'),
        Case('list-components-junk-query', 'GET', '/project/components/?marker=%00&page=-1',
             'list'),
    ]

    # --- the config create form ---
    def create(label, **changes):
        cases.append(Case(f'create-{label}', 'POST', CREATE, 'refused',
                          _form(CONFIG_BASE, **changes)))

    create('inputs-bad-yaml', inputs='- name: [unclosed')
    create('inputs-not-a-list', inputs='name: x')
    create('inputs-entry-without-name', inputs='- type: String')
    create('inputs-unknown-type', inputs='- name: a\n  type: Strang')
    create('inputs-number-default-text', inputs='- name: a\n  type: Number\n  default: seven')
    create('inputs-boolean-default-bad', inputs='- name: a\n  type: Boolean\n  default: maybe')
    create('inputs-json-default-bad', inputs='- name: a\n  type: Json\n  default: "{x"')
    create('inputs-name-nul-escape', inputs='- name: "a\\u0000b"')
    create('inputs-name-control-escape', inputs='- name: "a\\u0007b"')
    create('inputs-name-newline-escape', inputs='- name: "a\\nb"')
    create('inputs-name-equals', inputs='- name: "a=b"')
    create('inputs-name-twice', inputs='- name: a\n- name: a')
    create('inputs-unknown-key', inputs='- name: a\n  colour: red')
    create('inputs-replace-on-change-bad', inputs='- name: a\n  replace_on_change: sometimes')
    create('inputs-huge-garbage', inputs='- name: [' + HUGE_TEXT)
    create('inputs-yaml-tag', inputs='- name: !!python/object/apply:os.system ["true"]')
    create('outputs-bad-yaml', outputs='{')
    create('outputs-unknown-key', outputs='- name: r\n  colour: red')
    create('outputs-error-output-bad', outputs='- name: r\n  error_output: maybe')
    create('outputs-name-nul-escape', outputs='- name: "r\\u0000"')
    create('outputs-name-control-escape', outputs='- name: "r\\u001b[31m"')
    # What the stock script hook could never execute ("Exec format error").
    create('script-without-shebang', config='echo corpus\n')
    create('script-shebang-not-first', config='\n#!/bin/sh\necho corpus\n')
    create('component-script-without-shebang', group='component', body_format='data',
           config='configs:\n  - actions: [BACKUP]\n    tool: script\n    config: echo hi\n')
    create('options-bad-yaml', options='[1, 2')
    create('options-a-list', options='- a\n- b')
    create('name-empty', name='')
    create('name-nul', name='a\x00b')
    create('name-control', name='a\x1b[31mb')
    create('name-huge', name=HUGE_TEXT)
    create('group-empty', group='')
    create('group-huge', group=HUGE_TEXT)
    create('body-format-unknown', body_format='xml')
    create('body-nul', config='echo a\x00b')
    create('body-data-bad-yaml', body_format='data', config='a: [')
    create('body-data-a-list', body_format='data', config='- a\n- b')
    create('component-body-text', group='component', config='echo not a component')
    cases.append(Case('create-definition-not-yaml', 'POST', CREATE, 'refused',
                      _form(CONFIG_BASE, config=''),
                      (('definition_file', 'def.yaml', b'inputs: [\n'),)))
    cases.append(Case('create-definition-unknown-keys', 'POST', CREATE, 'refused',
                      _form(CONFIG_BASE, config=''),
                      (('definition_file', 'def.yaml', b'colour: red\n'),)))
    cases.append(Case('create-definition-not-utf8', 'POST', CREATE, 'refused',
                      _form(CONFIG_BASE, config=''),
                      (('definition_file', 'def.yaml', b'\xff\xfe\x00bad'),)))
    cases.append(Case('create-definition-and-typed-inputs', 'POST', CREATE, 'refused',
                      _form(CONFIG_BASE, config='', inputs='- name: a'),
                      (('definition_file', 'def.yaml', b'inputs:\n  - name: b\n'),)))
    cases.append(Case('create-config-file-not-utf8', 'POST', CREATE, 'refused',
                      _form(CONFIG_BASE, config=''),
                      (('config_file', 'body.sh', b'\xff\xfe\xfd'),)))
    # The copy form is the create form filled in: a few of the same through it.
    for label, changes in (('inputs-bad-yaml', {'inputs': '- name: [unclosed'}),
                           ('inputs-name-nul-escape', {'inputs': '- name: "a\\u0000b"'}),
                           ('name-huge', {'name': HUGE_TEXT})):
        cases.append(Case(f'copy-{label}', 'POST', '/project/configs/<probe>/copy/',
                          'refused', _form(CONFIG_BASE, **changes)))

    # --- the Deploy form ---
    def deploy(label, **changes):
        cases.append(Case(f'deploy-{label}', 'POST', DEPLOY, 'refused',
                          _form(DEPLOY_BASE, **changes)))

    deploy('server-made-up', server=str(uuid.uuid4()))
    deploy('server-of-another-project', server='<foreign>')
    deploy('server-empty', server='')
    deploy('server-huge', server=HUGE_TEXT)
    deploy('server-nul', server='a\x00b')
    deploy('server-quotes', server='\'"')
    deploy('action-empty', action='')
    deploy('action-spaces', action='   ')
    deploy('action-huge', action=HUGE_TEXT)
    deploy('action-nul', action='CRE\x00ATE')
    deploy('name-empty', name='')
    deploy('name-huge', name=HUGE_TEXT)
    deploy('timeout-text', timeout='abc')
    deploy('timeout-zero', timeout='0')
    deploy('timeout-negative', timeout='-1')
    deploy('timeout-huge', timeout=HUGE)
    deploy('transport-unknown', transport='BOGUS')
    deploy('transport-zaqar-signal', transport='ZAQAR_SIGNAL')
    deploy('number-text', input__n='seven')
    deploy('number-infinite', input__n='1e999')
    deploy('number-nan', input__n='NaN')
    deploy('number-huge', input__n=HUGE)
    deploy('boolean-bad', input__b='maybe')
    deploy('json-invalid', input__j='{not json')
    deploy('json-scalar', input__j='123')
    deploy('json-huge-garbage', input__j='{' + HUGE_TEXT)
    deploy('string-required-missing', input__s=None)
    deploy('string-required-empty', input__s='')
    deploy('string-nul', input__s='a\x00b')

    # --- the Run Action form ---
    def run(label, **changes):
        cases.append(Case(f'run-{label}', 'POST', RUN, 'refused', _form(RUN_BASE, **changes)))

    run('server-not-of-the-component', servers=['<web>'])
    run('server-made-up', servers=[str(uuid.uuid4())])
    run('server-of-another-project', servers=['<foreign>'])
    run('servers-empty', servers=None)
    run('action-unknown', action='DROP_TABLES')
    run('action-empty', action='')
    run('lifecycle-action-unconfirmed', action='CREATE')
    run('number-text', input__retention_days='seven')
    run('number-huge', input__retention_days=HUGE)
    run('number-infinite', input__retention_days='inf')
    run('boolean-bad', input__compress='maybe')
    run('json-invalid', input__labels='{not json')
    run('json-string', input__labels='"a string"')
    run('timeout-text', timeout='abc')
    run('timeout-over-a-week', timeout=str(7 * 24 * 60 + 1))
    run('transport-unknown', transport='BOGUS')
    run('string-nul', input__backup_dir='a\x00b')
    # Batches (the cloud has Mistral): nothing may reach the workflow service.
    run('batch-zero', batch_size='0')
    run('batch-negative', batch_size='-1')
    run('batch-text', batch_size='two')
    run('batch-fraction', batch_size='1.5')
    run('batch-huge', batch_size=HUGE)
    run('batch-failures-negative', batch_size='1', max_failures='-1')
    run('batch-failures-huge', batch_size='1', max_failures=HUGE)
    run('batch-with-a-bad-input', batch_size='1', input__retention_days='seven')
    # Schedules: nothing may reach the workflow service either.
    run('schedule-pattern-words', repeat='every night')
    run('schedule-pattern-six-fields', repeat='0 2 * * * *')
    run('schedule-pattern-out-of-range', repeat='61 2 * * *')
    run('schedule-pattern-nul', repeat='0 2\x00 * * *')
    run('schedule-pattern-huge', repeat=HUGE_TEXT)
    run('schedule-pattern-angular', repeat='{$ 7*7 $} * * * *')
    run('schedule-once-words', once_at='tomorrow')
    run('schedule-once-past', once_at='2000-01-01 00:00')
    run('schedule-once-and-repeat', repeat=NEVER, once_at='2999-01-01 00:00')
    run('schedule-with-a-bad-input', repeat=NEVER, input__retention_days='seven')

    # --- the Change Schedule form: the schedule stays as it was ---
    def change(label, **changes):
        cases.append(Case(f'change-{label}', 'POST', CHANGE, 'refused',
                          _form(RUN_BASE, **dict({'repeat': NEVER}, **changes))))

    change('no-pattern-nor-time', repeat='')
    change('pattern-words', repeat='every night')
    change('once-past', repeat='', once_at='2000-01-01 00:00')
    change('servers-empty', servers=None)
    change('server-made-up', servers=[str(uuid.uuid4())])
    change('server-of-another-project', servers=['<foreign>'])
    change('action-unknown', action='DROP_TABLES')
    change('number-text', input__retention_days='seven')
    change('batch-negative', batch_size='-1')
    for id_label in ('quotes', 'unknown-uuid'):
        cases.append(Case(f'post-schedule-change-{id_label}', 'POST',
                          f'/project/schedules/{ODD_IDS[id_label][0]}/change/', 'refused',
                          _form(RUN_BASE, repeat=NEVER)))
    cases.append(Case('post-schedule-change-not-made', 'POST',
                      f'/project/schedules/hdd-{UNKNOWN}/change/', 'refused',
                      _form(RUN_BASE, repeat=NEVER)))
    return cases


CASES = _cases()
_BY_LABEL = {case.label: case for case in CASES}
assert len(_BY_LABEL) == len(CASES), 'case labels must be unique'
assert len(CASES) >= 100


# --- fixtures ---

@pytest.fixture(scope='module')
def user(cloud):
    return corpus.User(cloud.layout.dashboard_url, credentials.DEMO_USER,
                       credentials.DEMO_PASSWORD)


class _ForeignServer:
    """A server of the `other` project's own stack (OS::Heat::DeployedServer), made in the
    background while the first cases run."""

    TEMPLATE = {'heat_template_version': '2018-08-31', 'resources': {'server': {
        'type': 'OS::Heat::DeployedServer',
        'properties': {'name': f'corpus-other-{MARK}',
                       'software_config_transport': 'POLL_SERVER_HEAT'}}}}

    def __init__(self, cloud):
        session = identity.user_session(cloud.layout, credentials.OTHER_USER,
                                        credentials.OTHER_PASSWORD, credentials.OTHER_PROJECT)
        self.heat = heat_client.Client('1', session=session, auth=session.auth)
        self.stack_id = None
        self.server_id = None
        self.error = None
        self.thread = threading.Thread(target=self._make, daemon=True)
        self.thread.start()

    def _make(self):
        try:
            self.stack_id = self.heat.stacks.create(
                stack_name=f'corpus-other-{MARK}', template=self.TEMPLATE)['stack']['id']
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                stack = self.heat.stacks.get(self.stack_id)
                if stack.stack_status != 'CREATE_IN_PROGRESS':
                    break
                time.sleep(0.5)
            assert stack.stack_status == 'CREATE_COMPLETE', stack.stack_status_reason
            [resource] = self.heat.resources.list(self.stack_id)
            self.server_id = resource.physical_resource_id
        except Exception as error:     # reported by the case that needs it
            self.error = error

    def id(self):
        self.thread.join(150)
        assert self.server_id, f'the other project\'s server could not be made: {self.error}'
        return self.server_id

    def delete(self):
        self.thread.join(150)
        if self.stack_id:
            try:
                self.heat.stacks.delete(self.stack_id)
            except heat_exc.HTTPException:
                pass


@pytest.fixture(scope='module')
def foreign(cloud):
    made = _ForeignServer(cloud)
    yield made
    made.delete()


@pytest.fixture(scope='module')
def probe(heat):
    """A config with one input of each type, for the Deploy form's cases."""
    config = heat.software_configs.create(
        name=f'corpus-probe-{MARK}', group='script', config='#!/bin/sh\necho probe\n',
        inputs=PROBE_INPUTS, outputs=[], options={})
    yield config.id
    heat.software_configs.delete(config.id)


@pytest.fixture(scope='module')
def schedule(user, mistral, demo_resources):
    """A schedule of the base run, made through Run Action, for the Change form's cases."""
    marker = f'corpus-schedule-{MARK}'
    response = user.post(RUN.replace('<component>', demo_resources['mysql']), dict(
        RUN_BASE, servers=[demo_resources['db_server_1']], repeat=NEVER,
        input__backup_dir=marker))
    assert response.status_code == 200, corpus.describe(response)
    [name] = [each.name for each in mistral.environments.list()
              if each.variables.get('input_values', {}).get('backup_dir') == marker]
    yield name
    # Changed by the cases, it fires through a trigger of another name (schedules).
    mistral.cron_triggers.delete(runner_schedules.trigger_of(
        name, mistral.environments.get(name).variables))
    mistral.environments.delete(name)


@pytest.fixture(scope='module')
def places(probe, demo_resources, foreign, schedule):
    """What the cases' <placeholders> stand for."""
    return {'<probe>': probe, '<component>': demo_resources['mysql'],
            '<db1>': demo_resources['db_server_1'], '<web>': demo_resources['web_server'],
            '<stack_run>': demo_resources['mysql_deployment_1'], '<foreign>': foreign.id,
            '<schedule>': schedule}


@pytest.fixture(scope='module')
def baseline(heat, swift, probe, foreign):
    """The demo project before the first case; every case must leave it so."""
    before = corpus.state(heat, swift)
    yield before
    after = corpus.state(heat, swift)
    corpus.undo(heat, swift, before, after)


def _resolve(text, places):
    for placeholder, value in places.items():
        if placeholder in text:
            text = text.replace(placeholder, value() if callable(value) else value)
    return text


def _send(user, case, places):
    path = _resolve(case.path, places)
    data = [(name, _resolve(each, places)) for name, value in case.data
            for each in (value if isinstance(value, list) else [value])]
    if case.method == 'GET':
        return user.get(path)
    files = {field: (name, content) for field, name, content in case.files}
    return user.checked(user.http.post(user.url(path), data=data + [
        ('csrfmiddlewaretoken', user.http.cookies['csrftoken'])], files=files or None,
        headers={'Referer': user.url(path)}, timeout=60))


def _verdict(case, response):
    """Why the response is not a clear, harmless answer to bad input; None when it is."""
    status, page = response.status_code, response.text
    if status >= 500:
        return f'server error {status}'
    if corpus.blames_a_service(response):
        return 'it blames a service that is fine'
    if 'Traceback (most recent call last)' in page:
        return 'it shows a traceback'
    if status in (400, 404, 413, 414, 431) or (status == 403 and case.expect == 'status'):
        return None
    if status != 200:
        return f'unexpected status {status}'
    if case.expect == 'list':
        return None
    if case.expect == 'status':
        try:
            answer = response.json()
        except ValueError:
            return 'the status poll did not answer JSON'
        if answer.get('rows') and '<stack_run>' not in case.path:
            return f'rows for ids that name nothing: {sorted(answer["rows"])[:3]}'
        return None
    errors = corpus.form_errors(page)
    toasts = corpus.alerts(page)
    if errors or any(level == 'danger' for level, _text in toasts):
        return None
    if response.history and corpus.says_not_found(response):
        return None
    if case.expect == 'server' and (
            'Heat lists no deployments on this server' in page
            or 'Heat sends this server no deployments' in page):
        return None
    if any(level == 'success' for level, _text in toasts):
        return 'it accepted the bad value'
    return 'no error shown'


@pytest.mark.parametrize('label', list(_BY_LABEL))
def test_bad_input_is_refused_clearly_and_creates_nothing(
        user, heat, swift, mistral, baseline, places, label):
    case = _BY_LABEL[label]
    # Mistral's lists (three more calls, twice a case) are read around the forms only: the
    # GETs are counted in Heat and Swift, where any write of theirs would show.
    workflows = mistral if case.method == 'POST' else None
    before = corpus.state(heat, swift, workflows)

    response = _send(user, case, places)

    after = corpus.state(heat, swift, workflows)
    problems = []
    verdict = _verdict(case, response)
    if verdict:
        problems.append(verdict)
    created = before.changes(after)
    if created:
        problems.append(f'it created, changed or removed {created}')
        corpus.undo(heat, swift, before, after, workflows)
    assert not problems, f'{"; ".join(problems)} -- {corpus.describe(response)}'


# --- the controls: the base values alone go through ---

def _created_by(user, heat, swift, path, data, places):
    before = corpus.state(heat, swift)
    response = _send(user, Case('control', 'POST', path, 'created', data), places)
    after = corpus.state(heat, swift)
    corpus.undo(heat, swift, before, after)
    return response, before.changes(after)


def test_control_the_create_forms_base_values_create_a_config(user, heat, swift, places):
    response, created = _created_by(user, heat, swift, CREATE, _form(CONFIG_BASE), places)
    assert re.search(r'/project/configs/[0-9a-f-]{36}/$', response.url), \
        corpus.describe(response)
    assert len(created.get('configs', ([], []))[0]) == 1, created


def test_control_the_deploy_forms_base_values_start_a_run(user, heat, swift, places):
    response, created = _created_by(user, heat, swift, DEPLOY, _form(DEPLOY_BASE), places)
    assert re.search(r'/project/deployments/[0-9a-f-]{36}/$', response.url), \
        corpus.describe(response)
    assert len(created.get('deployments', ([], []))[0]) == 1, created


def test_control_the_run_forms_base_values_start_a_run(user, heat, swift, places):
    response, created = _created_by(user, heat, swift, RUN, _form(RUN_BASE), places)
    assert any('Started BACKUP on 1 server' in text for _level, text in
               corpus.alerts(response.text)), corpus.describe(response)
    assert len(created.get('deployments', ([], []))[0]) == 1, created


def test_control_the_change_forms_base_values_change_the_schedule(
        user, heat, swift, mistral, places):
    before = corpus.state(heat, swift, mistral)
    response = _send(user, Case('control', 'POST', CHANGE, 'changed', _form(
        RUN_BASE, repeat='0 4 1 1 *')), places)
    changed = before.changes(corpus.state(heat, swift, mistral))
    assert any('Changed the schedule of BACKUP.' in text for _level, text in
               corpus.alerts(response.text)), corpus.describe(response)
    # Its record and its trigger, each removed and made again with what it now holds.
    assert [len(each) for each in changed['schedules']] == [2, 2], changed
    assert set(changed) == {'schedules'}, changed
