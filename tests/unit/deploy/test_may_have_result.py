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

"""Whether running deployments may have a result: a cheap look before asking Heat, one look
for a submit's runs where their results arrive in one place."""

import functools

import pytest
import requests

from heat_deploy_runner import derived_input_values
from heat_deploy_runner import may_have_results
from heat_deploy_runner import NotAnswering
from heat_deploy_runner import RunRequest
from heat_deploy_runner.signalling.tempurl import signal_location
from heat_deploy_runner import start
from heat_deploy_runner import transport_for


def _run_configs(heat, find, transport_name, servers=('s1',), name='mysql'):
    """{run id: its derived config} of one submit on ``servers``."""
    source_id = heat.add_config(name=name)
    started = start(heat, find, RunRequest(
        config_id=source_id, action='BACKUP', server_ids=list(servers),
        transport=transport_name))
    return {run.id: heat.configs[run.config_id] for run in started.created}


def _send(swift, config):
    container, object_name = signal_location(derived_input_values(config))
    swift.containers[container][object_name] = b'{"deploy_status_code": 0}'


def test_a_temp_url_run_is_asked_with_a_head_of_its_object(heat, swift):
    find = functools.partial(transport_for, swift=swift)
    [(run_id, config)] = _run_configs(heat, find, 'TEMP_URL_SIGNAL').items()
    swift.calls.clear()

    assert may_have_results({run_id: config}, find) == set()
    _send(swift, config)
    assert may_have_results({run_id: config}, find) == {run_id}
    assert len(swift.called('head_object')) == 2
    assert not swift.called('get_container')


def test_a_submits_runs_share_a_container_and_one_listing_tells_of_them_all(heat, swift):
    find = functools.partial(transport_for, swift=swift)
    runs = _run_configs(heat, find, 'TEMP_URL_SIGNAL', servers=[f's{i}' for i in range(5)])
    assert len({signal_location(derived_input_values(config))[0]
                for config in runs.values()}) == 1
    assert len(swift.containers) == 1

    sent = sorted(runs)[:2]
    for run_id in sent:
        _send(swift, runs[run_id])
    swift.calls.clear()
    assert may_have_results(runs, find) == set(sent)
    assert len(swift.called('get_container')) == 1
    assert not swift.called('head_object')


def test_runs_of_two_submits_are_looked_at_one_listing_a_submit_side_by_side(heat, swift):
    find = functools.partial(transport_for, swift=swift)
    first = _run_configs(heat, find, 'TEMP_URL_SIGNAL', servers=['s1', 's2'], name='one')
    second = _run_configs(heat, find, 'TEMP_URL_SIGNAL', servers=['s1', 's2'], name='two')
    mapped = []

    def map_(look, places):
        places = list(places)
        mapped.append(len(places))
        return map(look, places)
    _send(swift, next(iter(second.values())))
    swift.calls.clear()
    assert may_have_results({**first, **second}, find, map_) == {next(iter(second))}
    assert mapped == [2]
    assert len(swift.called('get_container')) == 2


def test_a_run_missing_from_its_listing_or_a_listing_that_fails_is_left_to_heat(heat, swift):
    find = functools.partial(transport_for, swift=swift)
    runs = _run_configs(heat, find, 'TEMP_URL_SIGNAL', servers=['s1', 's2'])
    gone, kept = sorted(runs)
    container, object_name = signal_location(derived_input_values(runs[gone]))
    del swift.containers[container][object_name]
    assert may_have_results(runs, find) == {gone}

    swift.fail('get_container', RuntimeError('busy'))
    assert may_have_results(runs, find) == set(runs)


def test_object_storage_not_answering_a_listing_is_said(heat, swift):

    find = functools.partial(transport_for, swift=swift)
    runs = _run_configs(heat, find, 'TEMP_URL_SIGNAL', servers=['s1', 's2'])
    swift.fail('get_container', requests.exceptions.ConnectTimeout('connect timed out'))
    with pytest.raises(NotAnswering):
        may_have_results(runs, find)


def test_a_zaqar_run_is_asked_with_one_look_at_its_queues_counts(heat, zaqar):
    find = functools.partial(transport_for, zaqar=zaqar)
    [(run_id, config)] = _run_configs(heat, find, 'ZAQAR_SIGNED_URL_SIGNAL').items()
    made = len(zaqar.calls)

    assert may_have_results({run_id: config}, find) == set()
    assert [call[0] for call in zaqar.calls[made:]] == ['queue', 'queue.stats']
    zaqar.post(derived_input_values(config)['deploy_zaqar_queue'], {'deploy_status_code': 0})
    assert may_have_results({run_id: config}, find) == {run_id}


def test_a_config_naming_no_transport_the_dashboard_knows_says_it_may():
    # A stack's deployment signalling some way the dashboard does not look at (CFN_SIGNAL).
    assert may_have_results({'d1': {'inputs': []}}, transport_for) == {'d1'}
