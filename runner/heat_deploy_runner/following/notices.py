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

"""Notices: an operation's outcome sent to whoever asked, through Zaqar's subscriptions.

A user subscribes a component's actions, a schedule, or one operation (its subject, by id: a
component's config id, a schedule's name, an operation id), on failure or always. A
subscription is Zaqar's own object on a queue of the project named after the subject and the
condition; Zaqar posts every message of that queue to its subscriber (a webhook, or an email
where the cloud's Zaqar has a mail sender) the moment it arrives. When an operation ends, its
follower (outcome.py, on Mistral) posts one message to each subscribed queue of its subjects:
nothing of the dashboard's own stores, delivers or retries a notice.

Why Zaqar rather than Mistral's notifier: Mistral's notifier is given per execution when the
execution is made, so a component's or schedule's future operations could not be subscribed
without a store of our own; it sends Mistral's event (the execution's JSON), not a message
that names the failed servers; and it only has webhooks. Zaqar's subscriptions are the
project's objects, listed and removed through its API, and say webhook or email alike.
"""

import dataclasses
from urllib import parse

from heat_deploy_runner.following import outcome
from heat_deploy_runner.messages import gettext_noop
from heat_deploy_runner.messages import InputError
from heat_deploy_runner.messages import Message

QUEUE_PREFIX = 'heat-deploy-'
ON_FAILURE, ALWAYS = 'failure', 'always'
WHEN = (ON_FAILURE, ALWAYS)
_QUEUE_WORD = {ON_FAILURE: 'failed', ALWAYS: 'ended'}
# Zaqar's subscriber types the dashboard offers.
SCHEMES = ('http', 'https', 'mailto')
# Until removed: Zaqar wants a lifetime, and ten years is what a user means by none.
SUBSCRIPTION_TTL = 10 * 365 * 24 * 3600
# A notice is delivered the moment it is posted; the message itself need not stay long.
MESSAGE_TTL = 3600
# Zaqar's page size for subscription lists (its max_subscriptions_per_page).
PAGE = 20
MAX_SUBSCRIBER = 1024

BAD_SUBSCRIBER = gettext_noop('Give a web address (http:// or https://) to post to, or '
                              'mailto: and an email address.')
BAD_WHEN = gettext_noop('Choose when to be told: on failure, or always.')
ALREADY = gettext_noop('%(subscriber)s is told of this already.')


@dataclasses.dataclass(frozen=True)
class Subscription:
    id: str
    subject_id: str
    when: str
    subscriber: str


def queue_name(subject_id: str, when: str) -> str:
    """The queue of the subject's notices of this condition (64 characters at most for the
    ids used: a UUID, a schedule's name)."""
    return f'{QUEUE_PREFIX}{_QUEUE_WORD[when]}-{subject_id}'


def checked_subscriber(text: str) -> str:
    subscriber = (text or '').strip()
    parsed = parse.urlsplit(subscriber)
    ok = (parsed.scheme in SCHEMES and len(subscriber) <= MAX_SUBSCRIBER
          and (parsed.path if parsed.scheme == 'mailto' else parsed.netloc)
          and not any(char.isspace() for char in subscriber))
    if not ok:
        raise InputError(Message(BAD_SUBSCRIBER))
    return subscriber


def subscribe(zaqar, subject_id: str, when: str, subscriber: str) -> Subscription:
    """A new subscription of the subject's notices (python-zaqarclient v2). Raises InputError
    for a bad condition or subscriber, or one already subscribed to the same."""
    if when not in WHEN:
        raise InputError(Message(BAD_WHEN))
    subscriber = checked_subscriber(subscriber)
    if any(each.subscriber == subscriber for each in subscriptions(zaqar, subject_id)
           if each.when == when):
        raise InputError(Message(ALREADY, {'subscriber': subscriber}))
    made = zaqar.subscription(queue_name(subject_id, when), subscriber=subscriber,
                              ttl=SUBSCRIPTION_TTL, options={})
    return Subscription(made.id, subject_id, when, subscriber)


def subscriptions(zaqar, subject_id: str) -> list[Subscription]:
    """The subject's subscriptions, on failure first."""
    found = []
    for when in WHEN:
        for each in zaqar.subscriptions(queue_name(subject_id, when), limit=PAGE):
            found.append(Subscription(each.id, subject_id, when, each.subscriber))
    return found


def unsubscribe(zaqar, subject_id: str, subscription_id: str) -> bool:
    """Remove the subject's subscription of this id; False when it has none such."""
    for each in subscriptions(zaqar, subject_id):
        if each.id == subscription_id:
            zaqar.subscription(queue_name(subject_id, each.when), id=each.id,
                               auto_create=False).delete()
            return True
    return False


def notice(kept: dict, *, operation_id: str, action: str, component: dict,
           schedule: str | None = None, server_names: dict | None = None,
           link: str | None = None) -> dict:
    """The message a notice posts: the outcome (outcome.outcome), named. ``component``:
    {id, name} of the config the runs derive from."""
    names = server_names or {}
    failed = [dict(each, server_name=names.get(each['server_id']) or each['server_id'])
              for each in kept['failed']]
    told = ', '.join(each['server_name'] for each in failed)
    count = outcome.failures(kept)
    what = f"{action} of {component.get('name') or component['id']}"
    if count:
        summary = f"{what}: {count} of {kept['servers']} servers failed"
        summary += f' ({told}).' if told else '.'
    else:
        summary = f"{what}: all {kept['servers']} servers COMPLETE."
    return {
        'summary': summary,
        'failed': bool(count),
        'operation': operation_id,
        'action': action,
        'component': component,
        'schedule': schedule,
        'servers': kept['servers'],
        'counts': kept['counts'],
        'failed_servers': failed,
        'refused': kept['refused'],
        'not_started': kept['not_started'],
        'ended_at': kept['ended_at'],
        'link': link.replace('{operation}', operation_id) if link else None,
    }


def post(zaqar, subject_ids, message: dict, once=False, done=None) -> list[str]:
    """Post the message to each subscribed queue of the subjects (the always queue, and the
    on-failure queue when it tells of a failure); the queues posted to. A queue with no
    subscription gets nothing: no message waits where nobody reads. ``once``: a queue that
    holds this operation's notice already (posted by a try that was cut short) gets none
    again; it costs a read of the queue's messages. ``done``: a set of the queues posted to
    so far, which an earlier call that failed half way filled: they get none again."""
    done = set() if done is None else done
    posted = []
    for subject_id in dict.fromkeys(each for each in subject_ids if each):
        for when in (WHEN if message['failed'] else (ALWAYS,)):
            name = queue_name(subject_id, when)
            if name not in done:
                if not list(zaqar.subscriptions(name, limit=1)):
                    continue
                if not (once and _holds(zaqar.queue(name), message['operation'])):
                    zaqar.queue(name).post({'body': message, 'ttl': MESSAGE_TTL})
                done.add(name)
            posted.append(name)
    return posted


def _holds(queue, operation_id):
    # echo: messages this client posted are listed too; include_claimed: those a
    # subscriber's delivery has claimed.
    return any(isinstance(each.body, dict) and each.body.get('operation') == operation_id
               for each in queue.messages(echo=True, include_claimed=True))
