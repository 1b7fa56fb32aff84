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

Controls, one per form, submit the same base values without the bad one and must create a
run or a config: a form case then fails because of its bad value, not its base.
"""

import contextlib
import re
import threading
import time

from heatclient import client as heat_client
from heatclient import exc as heat_exc
import pytest

from devcloud import credentials
from devcloud.services import identity
from heat_deploy_runner.scheduling import schedules as runner_schedules
from tests.integration.bad_input_cases import BY_LABEL
from tests.integration.bad_input_cases import Case
from tests.integration.bad_input_cases import CHANGE
from tests.integration.bad_input_cases import CONFIG_BASE
from tests.integration.bad_input_cases import CREATE
from tests.integration.bad_input_cases import DEPLOY
from tests.integration.bad_input_cases import DEPLOY_BASE
from tests.integration.bad_input_cases import form
from tests.integration.bad_input_cases import MARK
from tests.integration.bad_input_cases import NEVER
from tests.integration.bad_input_cases import PROBE_INPUTS
from tests.integration.bad_input_cases import ROTATE
from tests.integration.bad_input_cases import ROTATE_BASE
from tests.integration.bad_input_cases import RUN
from tests.integration.bad_input_cases import RUN_BASE
from tests.integration import corpus


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
            '<wordpress>': demo_resources['wordpress'],
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
    if case.says and not any(case.says in each for each in errors + [
            text for _level, text in toasts]):
        return f'it did not say "{case.says}"'
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


@pytest.mark.parametrize('label', list(BY_LABEL))
def test_bad_input_is_refused_clearly_and_creates_nothing(
        cloud, session, user, heat, swift, mistral, baseline, places, label):
    case = BY_LABEL[label]
    # Mistral's lists (three more calls, twice a case) are read around the forms only: the
    # GETs are counted in Heat and Swift, where any write of theirs would show.
    workflows = mistral if case.method == 'POST' else None
    before = corpus.state(heat, swift, workflows)

    with (corpus.catalog_without(cloud.layout, user, session.get_project_id(), case.without)
          if case.without else contextlib.nullcontext()):
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


def _created_by(user, heat, swift, path, data, places):
    before = corpus.state(heat, swift)
    response = _send(user, Case('control', 'POST', path, 'created', data), places)
    after = corpus.state(heat, swift)
    corpus.undo(heat, swift, before, after)
    return response, before.changes(after)


def test_control_the_create_forms_base_values_create_a_config(user, heat, swift, places):
    response, created = _created_by(user, heat, swift, CREATE, form(CONFIG_BASE), places)
    assert re.search(r'/project/configs/[0-9a-f-]{36}/$', response.url), \
        corpus.describe(response)
    assert len(created.get('configs', ([], []))[0]) == 1, created


def test_control_the_deploy_forms_base_values_start_a_run(user, heat, swift, places):
    response, created = _created_by(user, heat, swift, DEPLOY, form(DEPLOY_BASE), places)
    assert re.search(r'/project/deployments/[0-9a-f-]{36}/$', response.url), \
        corpus.describe(response)
    assert len(created.get('deployments', ([], []))[0]) == 1, created


def test_control_the_run_forms_base_values_start_a_run(user, heat, swift, places):
    response, created = _created_by(user, heat, swift, RUN, form(RUN_BASE), places)
    assert any('Started BACKUP on 1 server' in text for _level, text in
               corpus.alerts(response.text)), corpus.describe(response)
    assert len(created.get('deployments', ([], []))[0]) == 1, created


def test_control_a_secret_input_without_object_storage_starts_a_run_without_tries(
        cloud, session, user, heat, swift, places):
    # As the tries case, but a harmless action and no tries: run here, not by Mistral.
    with corpus.catalog_without(cloud.layout, user, session.get_project_id(), 'object-store'):
        response, created = _created_by(user, heat, swift, ROTATE,
                                        form(ROTATE_BASE, action='FLUSH_CACHE'), places)
    assert any('Started FLUSH_CACHE on 1 server' in text for _level, text in
               corpus.alerts(response.text)), corpus.describe(response)
    assert len(created.get('deployments', ([], []))[0]) == 1, created


def test_control_the_change_forms_base_values_change_the_schedule(
        user, heat, swift, mistral, places):
    before = corpus.state(heat, swift, mistral)
    response = _send(user, Case('control', 'POST', CHANGE, 'changed', form(
        RUN_BASE, repeat='0 4 1 1 *')), places)
    changed = before.changes(corpus.state(heat, swift, mistral))
    assert any('Changed the schedule of BACKUP.' in text for _level, text in
               corpus.alerts(response.text)), corpus.describe(response)
    # Its record and its trigger, each removed and made again with what it now holds.
    assert [len(each) for each in changed['schedules']] == [2, 2], changed
    assert set(changed) == {'schedules'}, changed
