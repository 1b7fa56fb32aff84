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

"""Scope: every page, download, form and action of the plugin, asked for with the demo
project's ids by a user of another project (`other`) and by the cloud admin working in its own
project (`admin`), answers "not found" (a 404, or a redirect with a not-found message; the
servers' pages, which Heat cannot tell, say that they list nothing), never the demo project's
data, and changes nothing in Heat or Swift. The demo user itself is the positive control: the
same addresses show it its data.

Each case is checked the same way: the demo project's deployments, configs and Swift
containers, the requester's own, and the status of the demo runs used as targets, before and
after, and what demo-db-1's agent runs (its resource metadata, where Heat writes every
deployment it finds for the server). A case that changed something is reported, what the
requester made is removed and the targets are made again, so that the next case starts from
the same state. The requester's own lists and Deploy form (of a config of its own) are asked
too: they answer 200 and show nothing of the demo project, and the form refuses a demo
server, by id or by name.
"""

import dataclasses

from heatclient import client as heat_client
import pytest
from swiftclient import client as swift_client

from devcloud import credentials
from devcloud.services import identity
from heat_deploy_runner.workflows.workflow_clients import WorkflowClients
from tests.integration import corpus
from tests.integration.scope_cases import BY_LABEL
from tests.integration.scope_cases import CASES
from tests.integration.scope_cases import POSITIVE
from tests.integration.scope_targets import Targets


@pytest.fixture(scope='module')
def targets(session, heat, swift, zaqar, mistral, find_transport, demo_resources):
    made = Targets(heat, swift, zaqar, find_transport, demo_resources, WorkflowClients(
        mistral, swift, session.get_project_id(), credentials.DEMO_USER))
    made.make_all()
    yield made
    made.delete_all()


@dataclasses.dataclass
class Requester:
    name: str
    user: corpus.User
    heat: object
    swift: object
    own_config: str = None


@pytest.fixture(scope='module')
def requesters(cloud):
    """The three users, logged in to the dashboard, with their own Heat and Swift clients and
    a config of their own project."""
    found = {}
    for name, password, session in (
            ('demo', credentials.DEMO_PASSWORD, identity.user_session(cloud.layout)),
            ('other', credentials.OTHER_PASSWORD, identity.user_session(
                cloud.layout, credentials.OTHER_USER, credentials.OTHER_PASSWORD,
                credentials.OTHER_PROJECT)),
            ('admin', credentials.ADMIN_PASSWORD, identity.admin_session(cloud.layout))):
        swift = swift_client.Connection(session=session, retries=1, timeout=30)
        try:
            swift.get_account()
        except Exception:
            swift = None
        heat = heat_client.Client('1', session=session, auth=session.auth)
        found[name] = Requester(
            name, corpus.User(cloud.layout.dashboard_url, name, password), heat, swift,
            # A config of the requester's own project, to deploy.
            heat.software_configs.create(
                name=f'own-{name}', group='script', config='#!/bin/sh\necho own\n',
                inputs=[{'name': 'scope_input', 'type': 'String', 'default': 'x'}],
                outputs=[], options={}).id)
    yield found
    for requester in found.values():
        requester.heat.software_configs.delete(requester.own_config)


SUCCESS_WORDS = ('Cancelled Run', 'Deleted Run', 'Started ',
                 'Created software config', 'Deleted software config')


def _snapshot(requester, targets):
    return (corpus.state(targets.heat, targets.swift),
            corpus.state(requester.heat, requester.swift), targets.agent_reads())


def _send(requester, case, ids):
    path, data = case.resolve(ids)
    return requester.user.request(case.method, path, data)


def _refusal(case, response, requested):
    """None when the response refuses the way a case of this kind must; else why not."""
    status = response.status_code
    if case.kind == 'list':
        return None if status == 200 else f'the requester\'s own page answered {status}'
    if status in (404, 403) or '/auth/login/' in response.url:
        return None
    if status >= 500:
        return f'server error {status}'
    page = response.text
    if case.kind == 'status':
        try:
            answer = response.json()
        except ValueError:
            return 'the status poll did not answer JSON'
        if status == 400:
            return None
        if answer.get('rows') or answer.get('running'):
            return 'the status poll answered with rows for the demo project\'s runs'
        if 'live' in answer or answer.get('lines'):
            return 'the status poll answered with the live output of the demo project\'s runs'
        if not set(requested) <= set(answer.get('gone') or ()):
            return 'the status poll did not report the runs as gone'
        return None
    if status != 200:
        return f'unexpected status {status}'
    successes = [text for level, text in corpus.alerts(page)
                 if level == 'success' or any(word in text for word in SUCCESS_WORDS)]
    if successes:
        return f'it reported success: {successes}'
    if case.kind == 'own-form':
        return None if corpus.form_errors(page) else 'the form took the demo project\'s server'
    if case.kind == 'table':
        # Horizon sends an action on a row it does not list back to the list.
        return None if response.history else 'the table action did not answer'
    if response.history and corpus.says_not_found(response):
        return None
    if case.kind == 'server' and (
            'Heat lists no deployments on this server' in page
            or 'Heat sends this server no deployments' in page):
        return None
    return 'it answered 200 with a page, not "not found"'


def _leaks(response, secrets, carried):
    shown = [response.text, response.url] + [
        r.headers.get('Location', '') for r in response.history]
    shown = '\n'.join(shown)
    return sorted({what for text, what in secrets.items()
                   if text and text not in carried and corpus.appears(text, shown)})


@pytest.mark.parametrize('requester_name', ['other', 'admin'])
@pytest.mark.parametrize('label', [case.label for case in CASES])
def test_another_project_gets_nothing(requesters, targets, requester_name, label):
    case, requester = BY_LABEL[label], requesters[requester_name]
    secrets = targets.secrets()
    ids = dict(targets.ids, own_config=requester.own_config)
    before = _snapshot(requester, targets)

    response = _send(requester, case, ids)

    after = _snapshot(requester, targets)
    problems = []
    requested = [each for each in ids.values() if each in case.resolve(ids)[0]
                 or each in repr(case.resolve(ids)[1])]
    refusal = _refusal(case, response, requested)
    if refusal:
        problems.append(refusal)
    leaks = _leaks(response, secrets, case.carried_ids(ids))
    if leaks:
        problems.append(f'it shows {leaks}')
    demo_changes = before[0].changes(after[0])
    own_changes = before[1].changes(after[1])
    damaged = targets.damaged()
    if demo_changes:
        problems.append(f'the demo project changed: {demo_changes}')
    if own_changes:
        problems.append(f'{requester_name}\'s own project changed: {own_changes}')
    if before[2] != after[2]:
        problems.append(f'what demo-db-1\'s agent runs changed: added '
                        f'{sorted(after[2] - before[2])}, removed {sorted(before[2] - after[2])}')
    if damaged:
        problems.append(f'demo targets changed or gone: {damaged}')
    if own_changes:
        corpus.undo(requester.heat, requester.swift, before[1], after[1])
    if demo_changes:
        corpus.undo(targets.heat, targets.swift, before[0], after[0])
    if damaged:
        targets.repair(f'after {requester_name}-{label}', damaged)
    assert not problems, f'{"; ".join(problems)} -- {corpus.describe(response)}'


@pytest.mark.parametrize('label', [label for label, _expected in POSITIVE])
def test_the_demo_user_sees_its_own_data(requesters, targets, label):
    """The control: the same addresses, asked by the demo user, answer 200 with the data."""
    case, demo = BY_LABEL[label], requesters['demo']
    expected = dict(POSITIVE)[label](targets)
    before = corpus.state(targets.heat, targets.swift)

    response = _send(demo, case, dict(targets.ids))
    if label == 'mon-reveal-form-post' and response.status_code == 404:
        # A dashboard without the reveal form shows the secrets on ?reveal=1.
        response = _send(demo, BY_LABEL['mon-metadata-reveal'], dict(targets.ids))

    assert response.status_code == 200, corpus.describe(response)
    missing = [text[:80] for text in expected if not corpus.appears(text, response.text)]
    assert not missing, f'missing {missing} -- {corpus.describe(response)}'
    assert before.changes(corpus.state(targets.heat, targets.swift)) == {}
    if case.kind == 'status':
        # Each is drawn again, or still running and quiet (a poll a moment ago looked at it).
        answer = response.json()
        assert set(answer['rows']) | set(answer['running']) >= {targets.ids['run'],
                                                                targets.ids['running']}


@pytest.mark.parametrize('label', ['environment-change-get', 'environment-table-pause',
                                   'environment-table-delete'])
def test_the_demo_user_takes_no_other_mistral_environment_for_a_schedule(
        requesters, targets, label):
    """A Mistral environment of the demo project not named as a schedule is none (the
    runner's schedules.record_get, the panel's read as the command line's): refused to the
    demo user too, and left as it was."""
    case = BY_LABEL[label]

    response = _send(requesters['demo'], case, dict(targets.ids))

    refusal = _refusal(case, response, [targets.ids['environment']])
    assert refusal is None, f'{refusal} -- {corpus.describe(response)}'
    assert targets.damaged() == []


def test_the_targets_still_exist_as_the_demo_user_made_them(targets):
    """Run last in the module: the demo config and runs are still there, unchanged (a case
    that removed or changed one failed, and they were made again after it)."""
    assert targets.damaged() == []
    assert targets.heat.software_configs.get(targets.ids['component'])
    assert targets.heat.software_deployments.get(targets.ids['run']).status == 'COMPLETE'
