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

import pytest

from heat_deploy_runner import InputError
from heat_deploy_runner.signalling.signals import NoSignal
from heat_deploy_runner.signalling.tempurl import TempUrlSignal
from heat_deploy_runner.signalling.transports import transport_of
from heat_deploy_runner import transport_for
from heat_deploy_runner import TRANSPORT_NAMES

from heat_deploy_runner.signalling.zaqar import ZaqarSignedUrlSignal

from .fakes import FakeSwift
from .zaqar_fakes import FakeZaqar


def test_every_listed_name_builds_its_transport():
    for name in TRANSPORT_NAMES:
        assert transport_for(name, swift=FakeSwift(),
                             zaqar=FakeZaqar()).name == name


def test_temp_url_signal_works_on_the_given_connection():
    swift = FakeSwift()
    transport_for('TEMP_URL_SIGNAL', swift=swift).prepare('run', 60)
    assert len(swift.containers) == 1


def test_temp_url_signal_needs_object_storage():
    with pytest.raises(InputError, match='needs Object Storage'):
        transport_for('TEMP_URL_SIGNAL')


def test_zaqar_signed_url_signal_works_on_the_given_client():
    zaqar = FakeZaqar()
    transport = transport_for('ZAQAR_SIGNED_URL_SIGNAL', zaqar=zaqar)
    assert isinstance(transport, ZaqarSignedUrlSignal)
    transport.prepare('run', 60)
    assert len(zaqar.queues) == 1


def test_zaqar_signed_url_signal_needs_messaging():
    with pytest.raises(InputError) as raised:
        transport_for('ZAQAR_SIGNED_URL_SIGNAL', swift=FakeSwift())
    assert raised.value.message.render() == (
        'The signal transport ZAQAR_SIGNED_URL_SIGNAL needs the Messaging '
        'service, which is not available.')


def test_without_messaging_a_zaqar_run_has_no_transport():
    assert transport_of(
        {'deploy_signal_transport': 'ZAQAR_SIGNED_URL_SIGNAL'},
        lambda name: transport_for(name, swift=FakeSwift())) is None


def test_only_the_zaqar_transport_claims_results_for_the_dashboard():
    zaqar = FakeZaqar()
    values = {'deploy_zaqar_queue': 'q'}
    zaqar.post('q', {'deploy_stdout': 'done'})
    assert TempUrlSignal(FakeSwift()).claim_result(values) is None
    assert NoSignal().claim_result(values) is None
    assert ZaqarSignedUrlSignal(zaqar).claim_result(values) is not None


@pytest.mark.parametrize('name', ['ZAQAR_SIGNAL', 'CFN_SIGNAL', ''])
def test_unknown_names_are_refused(name):
    with pytest.raises(InputError, match='Unknown signal transport'):
        transport_for(name, swift=FakeSwift())


def test_transport_of_reads_the_derived_configs_choice():
    assert isinstance(
        transport_of({'deploy_signal_transport': 'TEMP_URL_SIGNAL'},
                     lambda name: transport_for(name, swift=FakeSwift())),
        TempUrlSignal)
    assert transport_of({'deploy_signal_transport': 'CFN_SIGNAL'},
                        transport_for) is None
    assert transport_of({}, transport_for) is None


def test_no_signal_makes_nothing_and_completes_at_once():
    transport = NoSignal()
    assert transport.prepare('run', 60).inputs == ()
    assert transport.initial_status() == (
        'COMPLETE', 'Not waiting for outputs signal')
    assert transport.read_result({}) is None


def test_a_real_transport_starts_in_progress():
    assert TempUrlSignal(FakeSwift()).initial_status() == ('IN_PROGRESS', '')
    assert ZaqarSignedUrlSignal(FakeZaqar()).initial_status() == (
        'IN_PROGRESS', '')
