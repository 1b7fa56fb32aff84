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

"""Rolling cost: the overhead of an operation run by Mistral (heat_deploy.rolling_v1) over the
same runs started from Run Action's form.

The same work every way: BACKUP of the demo's mysql component on both demo db servers, with
TEMP_URL_SIGNAL, run by their real agents.

- form: heat_deploy_runner.start as the form calls it, then the run page's polls (each
  deployment shown every 1.5 s, which makes Heat read the result from Swift) until both runs
  are COMPLETE: what a user of the form waits.
- mistral: an execution of the workflow with batch_size 0 (both servers in one batch), until
  the execution is SUCCESS and both of its runs COMPLETE. Polled every 0.5 s, for precision:
  its own wait action already polls the runs every 1.5 s.
- mistral_one_at_a_time: the same with batch_size 1, for information (two form runs one
  after the other would take about twice the form's time).

Interleaved round by round (one warm-up round first), each round's runs deleted afterwards
(not timed) so the servers' metadata stays as short as it began, and so for later figures.
"""

import functools
import time

from mistralclient.api import client as mistral_client

from devcloud import credentials
import heat_deploy_runner as runner
from heat_deploy_runner import workflows

from bench import measure
from bench import trigger_cost

ROUNDS = 5
WARMUP = 1
INPUTS = dict(trigger_cost.INPUTS, pause_seconds=0)
TRANSPORT = 'TEMP_URL_SIGNAL'
PAGE_POLL_SECONDS = 1.5
PRECISE_POLL_SECONDS = 0.5
TIMEOUT_SECONDS = 180
# After a round's runs are deleted, each agent sees its metadata change and runs its hook
# once more: let that pass before the next contender starts.
SETTLE_SECONDS = 3
FINISHED = ('SUCCESS', 'ERROR', 'CANCELLED')


def mistral(session):
    """The demo user's Mistral v2 client, at the catalog's workflowv2 endpoint."""
    return mistral_client.client(
        mistral_url=session.get_endpoint(service_type='workflowv2', interface='public'),
        session=session)


class _Contenders:
    def __init__(self, heat, swift, mistral_api, workflow_id, config_id, server_ids):
        self.heat = heat
        self.swift = swift
        self.mistral = mistral_api
        self.workflow_id = workflow_id
        self.config_id = config_id
        self.server_ids = server_ids
        self.failures = []

    def _until_complete(self, run_ids, interval, what):
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while True:
            statuses = [self.heat.software_deployments.get(run_id).status
                        for run_id in run_ids]
            if all(status == 'COMPLETE' for status in statuses):
                return
            if 'FAILED' in statuses or time.monotonic() > deadline:
                self.failures.append(f'{what}: runs {statuses}')
                return
            time.sleep(interval)

    def by_form(self):
        made = runner.start(
            self.heat, functools.partial(runner.transport_for, swift=self.swift),
            runner.RunRequest(config_id=self.config_id, action='BACKUP', name='mysql',
                              server_ids=self.server_ids, input_values=INPUTS,
                              transport=TRANSPORT),
            operation=runner.Operation.new(credentials.DEMO_USER, self.config_id))
        self.failures.extend(f'form: {server}: {message}' for server, message in made.failures)
        run_ids = [run.id for run in made.created]
        self._until_complete(run_ids, PAGE_POLL_SECONDS, 'form')
        return run_ids

    def _runs_of(self, execution_id):
        return [run.id for server_id in self.server_ids
                for run in self.heat.software_deployments.list(server_id=server_id)
                if getattr(runner.operation_of_run(run), 'id', None) == execution_id]

    def by_mistral(self, batch_size):
        execution = self.mistral.executions.create(self.workflow_id, workflow_input={
            'config_id': self.config_id, 'name': 'mysql', 'action_name': 'BACKUP',
            'server_ids': self.server_ids, 'started_by': credentials.DEMO_USER,
            'input_values': INPUTS, 'transport': TRANSPORT, 'batch_size': batch_size,
            'max_failures': 0})
        what = f'mistral batch_size {batch_size}'
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while execution.state not in FINISHED and time.monotonic() < deadline:
            time.sleep(PRECISE_POLL_SECONDS)
            execution = self.mistral.executions.get(execution.id)
        run_ids = self._runs_of(execution.id)
        if execution.state != 'SUCCESS':
            self.failures.append(f'{what}: execution {execution.state} '
                                 f'{execution.state_info}')
        elif len(run_ids) != len(self.server_ids):
            self.failures.append(f'{what}: {len(run_ids)} runs found')
        else:
            self._until_complete(run_ids, PRECISE_POLL_SECONDS, what)
        return run_ids


def run_rounds(heat, swift, work):
    """({name: [seconds, ...]}, cleanup leftovers) of the contenders ``work`` (each starts
    its runs, waits for them and returns their ids), taking turns round by round; each
    contender's runs deleted after it (not timed)."""
    find_transport = functools.partial(runner.transport_for, swift=swift)
    samples = {name: [] for name in work}
    left = []
    for round_number in range(WARMUP + ROUNDS):
        for name, contender in work.items():
            started = time.perf_counter()
            run_ids = contender()
            seconds = time.perf_counter() - started
            if round_number >= WARMUP:
                samples[name].append(seconds)
            for run_id in run_ids:
                left.extend(runner.delete(heat, run_id, find_transport))
            time.sleep(SETTLE_SECONDS)
    return samples, left


def measure_rolling(heat, swift, session, config_id, server_ids):
    mistral_api = mistral(session)
    workflow_id = workflows.ensure(mistral_api, session.get_project_id())
    contenders = _Contenders(heat, swift, mistral_api, workflow_id, config_id, server_ids)
    work = {'form': contenders.by_form,
            'mistral': functools.partial(contenders.by_mistral, 0),
            'mistral_one_at_a_time': functools.partial(contenders.by_mistral, 1)}
    samples, left = run_rounds(heat, swift, work)
    return {
        'samples': {name: measure.rounded(values) for name, values in samples.items()},
        'medians': {name: round(measure.median(values), 4) for name, values in samples.items()},
        'mistral_over_form': measure.ratio(samples['mistral'], samples['form']),
        'one_at_a_time_over_form': measure.ratio(samples['mistral_one_at_a_time'],
                                                 samples['form']),
        'servers': len(server_ids),
        'failures': contenders.failures,
        'cleanup_leftovers': [str(message) for message in left],
    }
