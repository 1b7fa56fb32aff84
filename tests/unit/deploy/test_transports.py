import pytest

from heat_deploy_dashboard.deploy.messages import InputError
from heat_deploy_dashboard.deploy.signals import NoSignal
from heat_deploy_dashboard.deploy.tempurl import TempUrlSignal
from heat_deploy_dashboard.deploy.transports import TRANSPORT_NAMES
from heat_deploy_dashboard.deploy.transports import transport_for
from heat_deploy_dashboard.deploy.transports import transport_of

from .fakes import FakeSwift


def test_every_listed_name_builds_its_transport():
    for name in TRANSPORT_NAMES:
        assert transport_for(name, swift=FakeSwift()).name == name


def test_temp_url_signal_works_on_the_given_connection():
    swift = FakeSwift()
    transport_for('TEMP_URL_SIGNAL', swift=swift).prepare('run', 60)
    assert len(swift.containers) == 1


def test_temp_url_signal_needs_object_storage():
    with pytest.raises(InputError, match='needs Object Storage'):
        transport_for('TEMP_URL_SIGNAL')


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
