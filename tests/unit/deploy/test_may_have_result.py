"""Whether a running deployment may have a result: a cheap look before asking Heat."""

import functools

from heat_deploy_runner.derived import derived_input_values
from heat_deploy_runner.results import may_have_result
from heat_deploy_runner.run_request import RunRequest
from heat_deploy_runner.starting import start
from heat_deploy_runner.tempurl import signal_location
from heat_deploy_runner.transports import transport_for


def _run_config(heat, transport):
    source_id = heat.add_config(name='mysql')
    [run] = start(heat, lambda name: transport, RunRequest(
        config_id=source_id, action='BACKUP', server_ids=['s1'],
        transport=transport.name)).created
    return heat.configs[run.config_id]


def test_a_temp_url_run_is_asked_with_a_head_of_its_object(heat, swift):
    find = functools.partial(transport_for, swift=swift)
    config = _run_config(heat, find('TEMP_URL_SIGNAL'))

    assert may_have_result(config, find) is False
    container, object_name = signal_location(derived_input_values(config))
    swift.containers[container][object_name] = b'{"deploy_status_code": 0}'
    assert may_have_result(config, find) is True


def test_a_zaqar_run_is_asked_with_one_look_at_its_queues_counts(heat, zaqar):
    find = functools.partial(transport_for, zaqar=zaqar)
    config = _run_config(heat, find('ZAQAR_SIGNED_URL_SIGNAL'))
    made = len(zaqar.calls)

    assert may_have_result(config, find) is False
    assert [call[0] for call in zaqar.calls[made:]] == ['queue', 'queue.stats']
    zaqar.post(derived_input_values(config)['deploy_zaqar_queue'], {'deploy_status_code': 0})
    assert may_have_result(config, find) is True


def test_a_config_naming_no_transport_the_dashboard_knows_says_it_may():
    # A stack's deployment signalling some way the dashboard does not look at (CFN_SIGNAL).
    assert may_have_result({'inputs': []}, transport_for) is True
