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

"""bench.fleet_agents plays the fleet's agents (a result PUT once to each new run's TempURL,
none while held, none for another server's run), posts Run Action's form as a browser does,
and bench.report renders the figure against its goals."""

from unittest import mock

from bench import agent_result
from bench import fleet_agents
from bench import fleet_scale
from bench import report
from heat_deploy_runner.configs import derived
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling import tempurl
from heat_deploy_runner import start
from heat_deploy_runner import transport_for
from tests.unit.deploy.fakes import FakeHeat
from tests.unit.deploy.fakes import FakeSwift


def _started(heat, swift, servers):
    source = heat.add_config(**fleet_scale.COMPONENT)
    transport = transport_for('TEMP_URL_SIGNAL', swift=swift)
    return start(heat, lambda name: transport, RunRequest(
        config_id=source, action=fleet_scale.ACTION, server_ids=servers)).created


def test_the_agents_answer_each_new_run_of_the_fleet_once_and_none_while_held():
    heat, swift = FakeHeat(), FakeSwift(account_headers={'x-account-meta-temp-url-key': 'k'})
    fleet_run, other_run = _started(heat, swift, (fleet_scale.FLEET[0], 'not-the-fleets'))
    agents = fleet_agents.FleetAgents(heat, fleet_scale.FLEET)
    with mock.patch.object(agent_result.requests, 'put') as put:
        agents.holding.set()
        agents._cycle()
        assert put.call_count == 0
        agents.holding.clear()
        agents._cycle()
        agents._cycle()

    [(url,), kwargs] = put.call_args
    assert put.call_count == 1
    assert url == derived.derived_input_values(fleet_run.config)[tempurl.SIGNAL_ID]
    assert '"deploy_status_code": 0' in kwargs['data']
    assert set(agents.put_at) == {fleet_run.id} and other_run.id not in agents.put_at


def test_the_agents_answer_the_chosen_runs_only_until_told_to_answer_all():
    heat, swift = FakeHeat(), FakeSwift(account_headers={'x-account-meta-temp-url-key': 'k'})
    first, second = _started(heat, swift, tuple(fleet_scale.FLEET[:2]))
    agents = fleet_agents.FleetAgents(heat, fleet_scale.FLEET)
    with mock.patch.object(agent_result.requests, 'put'):
        agents.answer([first])
        heat.calls.clear()
        agents._cycle()
        answered_first = set(agents.put_at)
        # Runs it was told of are answered without Heat's listing, their configs read before.
        assert heat.calls == []
        agents.answer([])
        agents._cycle()
        assert set(agents.put_at) == answered_first
        agents.answer(None)
        agents._cycle()

    assert answered_first == {first.id}
    assert set(agents.put_at) == {first.id, second.id}


def test_the_form_is_posted_as_run_action_posts_it_and_its_answer_names_the_operation():
    assert fleet_scale.run_action_form(['s1', 's2'])['servers'] == ['s1', 's2']
    assert fleet_scale.operation_of(
        'http://h/project/deployments/operations/6c5b4a39/') == '6c5b4a39'
    assert fleet_scale.operation_of('http://h/project/components/') is None


def _size(servers, submit, **more):
    return dict({'servers': servers, 'submit_seconds': submit, 'all_made_seconds': submit * 2,
                 'made': servers, 'operation': 'op', 'outcome_after_last_result_seconds': 4.0},
                **more)


def test_the_report_reads_the_figures_against_their_goals():
    results = {'machine': {'nproc': 2, 'cpu_model': 'x', 'ram_gb': 8, 'python': '3.11',
                           'date': 'today', 'load_average_at_start': [1.0]},
               'fleets': {'views': 8, 'failures': [], 'agent_failures': [],
                          'heat_alone': {'runs': 180, 'threads': 8, 'puts_seconds': 2.1,
                                         'p95_seconds': 2.0, 'median_seconds': 1.2,
                                         'max_seconds': 2.2, 'all_seconds': 4.4},
                          'sizes': {
                   '1': _size(1, 0.2), '10': _size(10, 0.5), '100': _size(100, 0.9),
                   '200': _size(200, 1.8, poll={'running': 200, 'median_seconds': 0.8},
                                page={'seconds': 0.4, 'rows': 20, 'status': 200},
                                outcome_after_last_result_seconds=12.5,
                                outcome_samples=[12.5, 13.0, 9.1],
                                signal_to_screen={'runs': 540, 'median_seconds': 1.1,
                                                  'p95_seconds': 2.6, 'max_seconds': 3.0},
                                burst_all_shown_seconds=6.1,
                                burst_all_shown_samples=[6.1, 5.2, 7.0],
                                signal_to_screen_few={'runs': 60, 'median_seconds': 0.9,
                                                      'p95_seconds': 1.6, 'max_seconds': 1.8},
                                page_requests={'seconds': 15, 'requests': 12,
                                               'status_polls': 10, 'others': ['/header/', 'x'],
                                               'once_at_load': ['/header/'],
                                               'status_codes': [200],
                                               'status_seconds': [0.5, 0.7, 0.6],
                                               'per_interval': 1.1},
                                follower_alone={'seconds': 50, 'running': 200, 'total': 400,
                                                'per_run_hour': 144.0, 'others': 0,
                                                'by_kind': {'GET software_configs/{id}': 200,
                                                            'GET software_deployments/{id}':
                                                            200}})}}}

    table = report.markdown(results)

    assert '10 servers: 0.500 s | 3.60 | 200 within 3 x 10 | **no** |' in table
    assert 'median 0.800 s of 8 polls; the page itself 0.400 s, 20 rows drawn' in table
    assert ('200 running runs, 20 of them answering first (the page polling every 1.5 s) | '
            'p95 1.60 s, median 0.90 s, slowest 1.80 s of 60 runs | - | - | p95 within 2.5 s | '
            'yes |') in table
    assert ('| the other 180 answering at once, faster than Heat applies results: from the '
            'first result PUT to the last run shown ended (median of rounds: 6.1, 5.2, 7.0) | '
            '6.1 s; signal to screen p95 2.60 s, median 1.10 s, slowest 3.00 s of 540 runs | '
            'Heat alone, the same 180 results PUT at the moments of the page\'s median burst '
            '(2.1 s) and each run shown from 8 threads until applied, no page, no follower: '
            'p95 2.00 s, median 1.20 s, all applied 4.4 s after the first PUT | 1.39 | '
            'all shown within 1.5 s of Heat alone\'s | **no** |') in table
    results['fleets']['heat_alone']['all_seconds'] = 4.6
    assert '| 1.33 | all shown within 1.5 s of Heat alone\'s | yes |' in report.markdown(results)
    assert ('| 12.5 s (rounds: 12.5, 13.0, 9.1; 1: 4.0 s, 10: 4.0 s) | - | - | within 10 s '
            '| **no** |') in table
    assert ('| 12 (10 status polls, HTTP 200, median 0.60 s; /header/ once at load): 1.10 per '
            '1.5 s | - | - | '
            'at most 1 per 1.5 s | **no** |'
            in table)
    assert ('| 400: 144 per run-hour (GET software_configs/{id} 200, '
            'GET software_deployments/{id} 200) |') in table


def test_each_figure_is_the_median_of_its_rounds():
    rounds = [{'submit_seconds': seconds, 'all_made_seconds': seconds + 10, 'made': made,
               'operation': f'op{made}', 'outcome_after_last_result_seconds': lag,
               'burst_all_shown_seconds': lag - 1,
               'polls': [0.5, 0.7], 'page': {'status': 200, 'seconds': seconds, 'rows': 20}}
              for seconds, made, lag in ((0.06, 200, 9.0), (1.7, 199, 12.0), (0.9, 200, 8.0))]

    found = fleet_scale.summary(200, rounds)

    assert (found['submit_seconds'], found['all_made_seconds']) == (0.9, 10.9)
    assert found['submit_samples'] == [0.06, 1.7, 0.9]
    assert (found['made'], found['outcome_after_last_result_seconds']) == (199, 9.0)
    assert found['poll']['median_seconds'] == 0.6 and found['page']['seconds'] == 0.9
    assert found['burst_all_shown_seconds'] == 8.0
    assert found['burst_all_shown_samples'] == [8.0, 11.0, 7.0]


def test_heat_alone_is_given_the_burst_of_the_round_with_the_median_drain():
    rounds = [{'burst_all_shown_seconds': drained, 'burst_put_offsets': [0, drained / 2]}
              for drained in (9.0, 7.0, 8.0)] + [{}]

    assert fleet_scale._median_burst(rounds) == [0, 4.0]
    assert fleet_scale._median_burst([{}]) == []


class _Page:
    """Horizon's status poll: each run ends on the poll numbered in ``ends_on``."""

    def __init__(self, ends_on):
        self.ends_on = ends_on
        self.sent = []

    def post(self, path, data):
        self.sent.append(data)
        number = len(self.sent)
        asked = data['id'] + data['elsewhere']
        reply = mock.Mock(status_code=200)
        running = [each for each in asked
                   if self.ends_on[each] != 'gone' and self.ends_on[each] > number]
        # As StatusView answers: every shown run's status (a dict), the running ones listed.
        reply.json.return_value = {
            'statuses': {each: {'status': 'IN_PROGRESS' if each in running else 'COMPLETE'}
                         for each in asked if self.ends_on[each] != 'gone'},
            'running': running,
            'gone': [each for each in asked if self.ends_on[each] == 'gone']}
        return reply


def test_the_page_is_watched_until_it_has_shown_every_run_ended(monkeypatch):
    monkeypatch.setattr(fleet_scale, 'POLL_SECONDS', 0)
    ids = [f'r{i}' for i in range(25)]
    page = _Page(dict({each: 1 for each in ids[:5]}, r5='gone', **{
        each: 3 for each in ids[6:]}))
    fleet = object.__new__(fleet_scale._Fleet)
    fleet.dashboard, fleet.failures = page, []

    seen = fleet.watched(ids)

    assert set(seen) == set(ids) and not fleet.failures
    assert seen['r0'] < seen['r6'] and seen['r5'] == seen['r0']
    # As the page sends them: the rows still running only, 20 drawn and the rest elsewhere.
    assert [len(sent['id']) + len(sent['elsewhere']) for sent in page.sent] == [25, 19, 19]
    assert [len(sent['id']) for sent in page.sent] == [20, 19, 19]
    # Told to wait for some only, it stops once they are shown ended.
    page.sent.clear()
    assert set(fleet.watched(ids, wanted=ids[:5])) == set(ids[:6])
    assert len(page.sent) == 1
