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

"""The fixtures of the tests of the actions Mistral runs (heat_deploy_runner.mistral): the
in-memory cloud as their clients, the context Mistral gives them (one execution's id, the
user's token), a component."""

import functools
from unittest import mock

import pytest

import heat_deploy_runner as runner
from heat_deploy_runner.mistral import actions
from heat_deploy_runner.mistral import clients as clients_mod
from heat_deploy_runner.mistral import conclusion
from heat_deploy_runner.mistral import ended_runs as ended_runs_mod
from heat_deploy_runner.mistral import following
from heat_deploy_runner.mistral import kept as kept_mod
from heat_deploy_runner.mistral import kept_configs as kept_configs_mod
from heat_deploy_runner import session_clients
from tests.unit.deploy.mistral.case import EXECUTION_ID


@pytest.fixture(autouse=True)
def kept_configs(monkeypatch):
    """The configs the actions keep across calls, for one test: the in-memory clouds of two
    tests may give two configs one id."""
    kept = kept_configs_mod.KeptConfigs()
    monkeypatch.setattr(kept_mod, 'CONFIGS', kept)
    return kept


@pytest.fixture(autouse=True)
def ended_runs(monkeypatch):
    """The runs a wait saw ended, for one test: runs of two tests' clouds may share an id."""
    kept = ended_runs_mod.EndedRuns()
    monkeypatch.setattr(kept_mod, 'ENDED', kept)
    return kept


@pytest.fixture
def context():
    return mock.Mock(**{'execution.workflow_execution_id': EXECUTION_ID,
                        'security.trust_id': None})


@pytest.fixture
def cloud(heat, swift, monkeypatch):
    clients = session_clients.Clients(
        heat, functools.partial(runner.transport_for, swift=swift), swift)
    monkeypatch.setattr(clients_mod, 'clients_for', lambda security, trust_id=None: clients)
    monkeypatch.setattr(following, 'POLL_SECONDS', 0)
    # Each action's first run (test_reruns runs them again).
    monkeypatch.setattr(actions.service, 'action_attempts', lambda session, task_id: 1)
    return clients


@pytest.fixture
def notified_cloud(heat, swift, zaqar, monkeypatch):
    """The clients of a cloud with Zaqar in its catalog: notices are posted."""
    clients = session_clients.Clients(
        heat, functools.partial(runner.transport_for, swift=swift, zaqar=zaqar), swift, zaqar)
    monkeypatch.setattr(clients_mod, 'clients_for', lambda security, trust_id=None: clients)
    monkeypatch.setattr(following, 'POLL_SECONDS', 0)
    monkeypatch.setattr(conclusion, 'NOTICE_RETRY_SECONDS', (0, 0))
    # Each action's first run (test_reruns runs them again).
    monkeypatch.setattr(actions.service, 'action_attempts', lambda session, task_id: 1)
    return clients


@pytest.fixture
def component(heat):
    return heat.add_config(name='mysql', group='component', config={'configs': [
        {'actions': ['BACKUP'], 'tool': 'script', 'config': 'echo hi'}]})
