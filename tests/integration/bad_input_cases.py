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

"""The bad input test_bad_input_corpus.py sends (CASES, more than 100): odd ids in every URL
that takes one and in the status poll, odd filters and page markers on every list, wrong
values in every form, each with the form's base values and the placeholders (<db1>,
<probe>, <schedule>...) the test fills in."""

import dataclasses
from urllib import parse
import uuid

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
# The wordpress component's ROTATE_KEYS, whose key_secret is a secret input.
ROTATE_BASE = {'action': 'ROTATE_KEYS', 'servers': ['<web>'], 'transport': 'NO_SIGNAL',
               'timeout': '10', 'input__db_dsn': 'corpus', 'input__cache_size_mb': '64',
               'input__pause_seconds': '0', 'input__key_secret': f'corpus-{MARK}'}
CREATE = '/project/configs/create/'
DEPLOY = '/project/configs/<probe>/deploy/'
RUN = '/project/components/<component>/run/'
ROTATE = '/project/components/<wordpress>/run/'
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
    without: str = ''                # a service type the user's catalog lacks for the case
    says: str = ''                   # what the answer must say


def form(base, **changes):
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
                 'refused', form(CONFIG_BASE)),
            Case(f'post-config-deploy-{id_label}', 'POST',
                 f'/project/configs/{segment}/deploy/', 'refused', form(DEPLOY_BASE)),
            Case(f'post-config-delete-{id_label}', 'POST',
                 f'/project/configs/{segment}/delete/', 'refused'),
            Case(f'post-component-run-{id_label}', 'POST',
                 f'/project/components/{segment}/run/', 'refused', form(RUN_BASE)),
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
                          form(CONFIG_BASE, **changes)))

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
                      form(CONFIG_BASE, config=''),
                      (('definition_file', 'def.yaml', b'inputs: [\n'),)))
    cases.append(Case('create-definition-unknown-keys', 'POST', CREATE, 'refused',
                      form(CONFIG_BASE, config=''),
                      (('definition_file', 'def.yaml', b'colour: red\n'),)))
    cases.append(Case('create-definition-not-utf8', 'POST', CREATE, 'refused',
                      form(CONFIG_BASE, config=''),
                      (('definition_file', 'def.yaml', b'\xff\xfe\x00bad'),)))
    cases.append(Case('create-definition-and-typed-inputs', 'POST', CREATE, 'refused',
                      form(CONFIG_BASE, config='', inputs='- name: a'),
                      (('definition_file', 'def.yaml', b'inputs:\n  - name: b\n'),)))
    cases.append(Case('create-config-file-not-utf8', 'POST', CREATE, 'refused',
                      form(CONFIG_BASE, config=''),
                      (('config_file', 'body.sh', b'\xff\xfe\xfd'),)))
    # The copy form is the create form filled in: a few of the same through it.
    for label, changes in (('inputs-bad-yaml', {'inputs': '- name: [unclosed'}),
                           ('inputs-name-nul-escape', {'inputs': '- name: "a\\u0000b"'}),
                           ('name-huge', {'name': HUGE_TEXT})):
        cases.append(Case(f'copy-{label}', 'POST', '/project/configs/<probe>/copy/',
                          'refused', form(CONFIG_BASE, **changes)))

    # --- the Deploy form ---
    def deploy(label, **changes):
        cases.append(Case(f'deploy-{label}', 'POST', DEPLOY, 'refused',
                          form(DEPLOY_BASE, **changes)))

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
        cases.append(Case(f'run-{label}', 'POST', RUN, 'refused', form(RUN_BASE, **changes)))

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
    # Without Object Storage, the workflow service would hold a secret input in the clear:
    # refused, as the command line refuses it (secret_store.needs_object_storage).
    cases.append(Case(
        'run-tries-with-a-secret-without-object-storage', 'POST', ROTATE, 'refused',
        form(ROTATE_BASE, retries='2'), without='object-store', says=(
            'A secret input of a run in batches, with tries or on a schedule is kept in '
            'Object Storage, which is not in your service catalog (the workflow service '
            'would keep it in the clear). Run it now without batches or tries, or leave '
            'key_secret empty.')))

    # --- the Change Schedule form: the schedule stays as it was ---
    def change(label, **changes):
        cases.append(Case(f'change-{label}', 'POST', CHANGE, 'refused',
                          form(RUN_BASE, **dict({'repeat': NEVER}, **changes))))

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
                          form(RUN_BASE, repeat=NEVER)))
    cases.append(Case('post-schedule-change-not-made', 'POST',
                      f'/project/schedules/hdd-{UNKNOWN}/change/', 'refused',
                      form(RUN_BASE, repeat=NEVER)))
    return cases


CASES = _cases()
BY_LABEL = {case.label: case for case in CASES}
assert len(BY_LABEL) == len(CASES), 'case labels must be unique'
assert len(CASES) >= 100
