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

"""Settling a running run: one decision, whoever watches (the status poll, Mistral's wait)."""

from unittest import mock

import pytest

from heat_deploy_runner import Run
from heat_deploy_runner import settle

PAST, FUTURE = '2025-03-02T11:40:00Z', '2100-01-01T00:00:00Z'


def _running(expires=PAST, status='IN_PROGRESS'):
    return Run('d1', 's1', 'c1', status=status).described(
        {'id': 'c1', 'name': 'mysql-BACKUP', 'creation_time': '2025-03-02T11:10:00Z',
         'inputs': [{'name': 'deploy_signal_transport', 'value': 'ZAQAR_SIGNED_URL_SIGNAL'},
                    {'name': 'deploy_zaqar_expires', 'value': expires}]})


def test_a_finished_run_or_one_without_its_config_costs_no_call():
    collect, expire = mock.Mock(), mock.Mock()

    for run in (_running(status='COMPLETE'), Run('d1', 's1', 'c1', status='IN_PROGRESS')):
        assert settle(run, collect, expire) is run
    collect.assert_not_called()
    expire.assert_not_called()


def test_a_result_is_applied_and_a_run_before_its_deadline_is_not_timed_out():
    run = _running(FUTURE)
    done = run.changed(status='COMPLETE')
    expire = mock.Mock()

    assert settle(run, lambda each: done, expire) is done
    expire.assert_not_called()


def test_a_run_still_running_past_its_deadline_is_timed_out():
    run = _running(PAST)
    timed_out = run.changed(status='FAILED')

    assert settle(run, lambda each: each, lambda each: timed_out) is timed_out


def test_a_run_whose_result_could_not_be_looked_for_is_not_timed_out():
    run = _running(PAST)
    expire = mock.Mock()

    assert settle(run, mock.Mock(side_effect=OSError('messaging down')), expire) is run
    expire.assert_not_called()


@pytest.mark.parametrize('error', [OSError('heat down'), RuntimeError('refused')])
def test_a_refused_timeout_leaves_the_run_as_it_was(error):
    run = _running(PAST)

    assert settle(run, lambda each: each, mock.Mock(side_effect=error)) is run
