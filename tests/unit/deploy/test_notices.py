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

"""Notices: Zaqar subscriptions of a subject's outcomes (on failure, or always), and the
message an operation's outcome posts to the subscribed queues only."""

import pytest

from heat_deploy_runner.following import notices
from heat_deploy_runner.following import outcome
from heat_deploy_runner import InputError
from heat_deploy_runner import Run

OPERATION = '4f1c2a7e-9b3d-4e5f-8a6b-7c8d9e0f1a2b'
COMPONENT = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'
SCHEDULE = 'hdd-6e7f8a9b-0c1d-4e2f-9a3b-4c5d6e7f8a9b'
HOOK = 'https://hooks.example.com/ops'


def _kept(failed=(), refused=(), not_started=()):
    runs = [Run(f'run-{server}', server, 'c', 'BACKUP', 'FAILED' if server in failed
                else 'COMPLETE', 'Deployment exited 1' if server in failed else 'Outputs',
                output_values={'deploy_status_code': 1 if server in failed else 0})
            for server in ('s1', 's2', 's3')]
    return outcome.outcome(runs, refused=refused, not_started=not_started)


def _notice(kept, **named):
    return notices.notice(kept, operation_id=OPERATION, action='BACKUP',
                          component={'id': COMPONENT, 'name': 'mysql'}, **named)


def test_a_subscription_is_zaqars_own_on_the_queue_of_its_subject_and_condition(zaqar):
    made = notices.subscribe(zaqar, COMPONENT, notices.ON_FAILURE, f'  {HOOK} ')

    [stored] = zaqar.subscriptions_by_queue[notices.queue_name(COMPONENT, 'failure')]
    assert (stored['id'], stored['subscriber'], stored['ttl']) == (
        made.id, HOOK, notices.SUBSCRIPTION_TTL)
    assert notices.subscriptions(zaqar, COMPONENT) == [made]
    assert notices.subscriptions(zaqar, OPERATION) == []


def test_a_subjects_subscriptions_list_those_on_failure_first(zaqar):
    always = notices.subscribe(zaqar, SCHEDULE, notices.ALWAYS, 'mailto:ops@example.com')
    failure = notices.subscribe(zaqar, SCHEDULE, notices.ON_FAILURE, HOOK)

    assert notices.subscriptions(zaqar, SCHEDULE) == [failure, always]


@pytest.mark.parametrize('subject', [OPERATION, SCHEDULE])
def test_every_kind_of_subject_names_queues_zaqar_takes(zaqar, subject):
    for when in notices.WHEN:
        notices.subscribe(zaqar, subject, when, HOOK)
        zaqar.queue(notices.queue_name(subject, when)).post({'body': {}, 'ttl': 60})

    assert len(notices.subscriptions(zaqar, subject)) == 2


def test_the_same_subscriber_may_be_told_on_failure_and_always_but_not_twice(zaqar):
    notices.subscribe(zaqar, COMPONENT, notices.ON_FAILURE, HOOK)
    notices.subscribe(zaqar, COMPONENT, notices.ALWAYS, HOOK)

    with pytest.raises(InputError) as refused:
        notices.subscribe(zaqar, COMPONENT, notices.ALWAYS, HOOK)

    assert str(refused.value.message) == f'{HOOK} is told of this already.'
    assert len(notices.subscriptions(zaqar, COMPONENT)) == 2


@pytest.mark.parametrize('subscriber', [
    '', 'hooks.example.com', 'ftp://hooks.example.com/x', 'https://', 'mailto:',
    'https://hooks.example.com/a b', 'https://h.example.com/' + 'x' * notices.MAX_SUBSCRIBER,
    'javascript:alert(1)'])
def test_a_subscriber_zaqar_could_not_tell_is_refused_before_asking_it(zaqar, subscriber):
    with pytest.raises(InputError) as refused:
        notices.subscribe(zaqar, COMPONENT, notices.ON_FAILURE, subscriber)

    assert str(refused.value.message) == notices.BAD_SUBSCRIBER
    assert zaqar.called('subscription') == []


def test_a_condition_other_than_failure_or_always_is_refused(zaqar):
    with pytest.raises(InputError) as refused:
        notices.subscribe(zaqar, COMPONENT, 'success', HOOK)

    assert str(refused.value.message) == notices.BAD_WHEN
    assert zaqar.subscriptions_by_queue == {}


def test_unsubscribing_removes_that_subscription_of_that_subject_only(zaqar):
    gone = notices.subscribe(zaqar, COMPONENT, notices.ALWAYS, HOOK)
    kept = notices.subscribe(zaqar, COMPONENT, notices.ON_FAILURE, HOOK)
    other = notices.subscribe(zaqar, SCHEDULE, notices.ALWAYS, HOOK)

    assert not notices.unsubscribe(zaqar, SCHEDULE, gone.id)
    assert notices.unsubscribe(zaqar, COMPONENT, gone.id)
    assert not notices.unsubscribe(zaqar, COMPONENT, gone.id)
    assert notices.subscriptions(zaqar, COMPONENT) == [kept]
    assert notices.subscriptions(zaqar, SCHEDULE) == [other]


def test_a_notice_names_the_failed_servers_and_counts_those_never_run():
    message = _notice(_kept(failed=('s2', 's3'), refused=[['s4', 'quota']],
                            not_started=['s5']),
                      server_names={'s2': 'db-2'}, schedule=SCHEDULE,
                      link='https://dash.example.com/ops/{operation}/')

    assert message['summary'] == 'BACKUP of mysql: 4 of 5 servers failed (db-2, s3).'
    assert message['failed'] is True
    assert [(each['server_id'], each['server_name'], each['exit_code'])
            for each in message['failed_servers']] == [('s2', 'db-2', 1), ('s3', 's3', 1)]
    assert message['link'] == f'https://dash.example.com/ops/{OPERATION}/'
    assert (message['operation'], message['schedule']) == (OPERATION, SCHEDULE)


def test_a_notice_of_servers_never_run_only_says_how_many():
    message = _notice(_kept(not_started=['s4']))

    assert message['summary'] == 'BACKUP of mysql: 1 of 4 servers failed.'
    assert message['failed'] is True


def test_a_notice_of_success_says_all_ended_complete_and_names_a_nameless_component():
    message = notices.notice(_kept(), operation_id=OPERATION, action='BACKUP',
                             component={'id': COMPONENT, 'name': None})

    assert message['summary'] == f'BACKUP of {COMPONENT}: all 3 servers COMPLETE.'
    assert (message['failed'], message['failed_servers'], message['link']) == (
        False, [], None)


def test_a_failure_is_posted_to_the_subscribed_queues_of_each_subject_only(zaqar):
    notices.subscribe(zaqar, COMPONENT, notices.ON_FAILURE, HOOK)
    notices.subscribe(zaqar, OPERATION, notices.ALWAYS, HOOK)
    message = _notice(_kept(failed=('s1',)))

    posted = notices.post(zaqar, [OPERATION, COMPONENT, SCHEDULE], message)

    expected = [notices.queue_name(OPERATION, 'always'), notices.queue_name(COMPONENT, 'failure')]
    assert posted == expected
    assert sorted(zaqar.queues) == sorted(expected)
    for name in expected:
        assert zaqar.bodies(name) == [message]
        assert zaqar.queues[name][0]['ttl'] == notices.MESSAGE_TTL


def test_a_success_is_not_posted_to_those_told_on_failure(zaqar):
    notices.subscribe(zaqar, COMPONENT, notices.ON_FAILURE, HOOK)
    notices.subscribe(zaqar, COMPONENT, notices.ALWAYS, 'mailto:ops@example.com')

    posted = notices.post(zaqar, [COMPONENT], _notice(_kept()))

    assert posted == [notices.queue_name(COMPONENT, 'always')]
    assert zaqar.bodies(notices.queue_name(COMPONENT, 'failure')) == []


def test_a_subject_named_twice_or_not_at_all_is_posted_to_once(zaqar):
    notices.subscribe(zaqar, COMPONENT, notices.ALWAYS, HOOK)

    posted = notices.post(zaqar, [COMPONENT, None, COMPONENT], _notice(_kept()))

    assert posted == [notices.queue_name(COMPONENT, 'always')]
    assert len(zaqar.bodies(posted[0])) == 1


def test_nothing_is_posted_where_nobody_subscribed(zaqar):
    assert notices.post(zaqar, [OPERATION, COMPONENT], _notice(_kept(failed=('s1',)))) == []
    assert zaqar.queues == {} and zaqar.called('queue.post') == []
